#include "sim/workload/yaml_reader.h"

#include <algorithm>
#include <set>

namespace ascendsim {

SourceLocation YamlReader::locationOf(const YAML::Node& node) const {
    YAML::Mark mark = node.Mark();
    if (mark.is_null()) return SourceLocation{file_, 0, 0};
    return SourceLocation{file_, mark.line + 1, mark.column + 1};
}

void YamlReader::fail(const YAML::Node& node, const std::string& field,
                      const std::string& problem) const {
    throw WorkloadError(locationOf(node), field, problem);
}

void YamlReader::requireKnownKeys(const YAML::Node& map,
                                  std::initializer_list<std::string_view> allowed,
                                  const std::string& field) const {
    requireMap(map, field);
    std::set<std::string> seen;
    for (const auto& entry : map) {
        std::string key = entry.first.Scalar();
        if (!seen.insert(key).second) {
            throw WorkloadError(locationOf(entry.first), field.empty() ? key : field + "." + key,
                                "key '" + key + "' is given twice");
        }
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::string known;
        for (auto k : allowed) {
            if (!known.empty()) known += ", ";
            known += std::string(k);
        }
        std::string path = field.empty() ? key : field + "." + key;
        throw WorkloadError(locationOf(entry.first), path,
                            "unknown key '" + key + "' (expected one of: " + known + ")");
    }
}

void YamlReader::requireMap(const YAML::Node& node, const std::string& field) const {
    if (!node.IsMap()) fail(node, field, "must be a mapping (key: value)");
}

void YamlReader::requireSequence(const YAML::Node& node, const std::string& field) const {
    if (!node.IsSequence()) fail(node, field, "must be a list");
}

std::string YamlReader::scalar(const YAML::Node& node, const std::string& field) const {
    if (!node.IsScalar()) fail(node, field, "must be a single value");
    return node.Scalar();
}

std::vector<std::string> YamlReader::scalarList(const YAML::Node& node,
                                                const std::string& field) const {
    if (node.IsScalar()) return {node.Scalar()};
    requireSequence(node, field);
    std::vector<std::string> values;
    for (std::size_t i = 0; i < node.size(); ++i)
        values.push_back(scalar(node[i], field + "[" + std::to_string(i) + "]"));
    return values;
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& field) const {
    std::string text = scalar(node, field);
    if (text == "true" || text == "True" || text == "1") return true;
    if (text == "false" || text == "False" || text == "0") return false;
    fail(node, field, "must be true or false, got '" + text + "'");
}

}  // namespace ascendsim
