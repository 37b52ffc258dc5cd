#include "sim/whatif/overrides_file.h"

#include <yaml-cpp/yaml.h>

#include "sim/workload/workload_error.h"
#include "sim/yaml/yaml_text.h"

namespace ascendsim {

namespace {

SourceLocation at(const std::string& path, const YAML::Mark& mark) {
    return SourceLocation{path, mark.line + 1, mark.column + 1};
}

}  // namespace

std::vector<std::string> readOverridesFile(const std::string& path) {
    YAML::Node root;
    try {
        root = loadSingleYamlFile(path);
    } catch (const YamlFileUnreadable& e) {
        throw WorkloadError(SourceLocation{path, 0, 0}, "--overrides",
                            std::string("cannot open the overrides file: ") + e.what());
    } catch (const YamlTextError& e) {
        throw WorkloadError(SourceLocation{path, e.line(), e.column()}, "yaml", e.what());
    }
    std::vector<std::string> sets;
    if (!root || root.IsNull()) return sets;
    if (!root.IsMap())
        throw WorkloadError(at(path, root.Mark()), "overrides",
                            "expected a mapping of --set keys to values (op.NAME.block_dim: 24)");
    for (const auto& entry : root) {
        const std::string key = entry.first.as<std::string>();
        if (!entry.second.IsScalar())
            throw WorkloadError(at(path, entry.second.Mark()), key, "the value must be a scalar, as after --set " + key + "=");
        sets.push_back(key + "=" + entry.second.as<std::string>());
    }
    return sets;
}

void writeOverridesFile(std::ostream& out, const std::vector<std::string>& header,
                        const std::vector<std::pair<std::string, std::string>>& entries) {
    for (const auto& line : header) out << "# " << line << "\n";
    if (entries.empty()) out << "{}\n";
    for (const auto& [key, value] : entries) out << key << ": " << value << "\n";
}

}  // namespace ascendsim
