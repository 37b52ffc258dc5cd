#include "sim/workload/blocks/mstx_block.h"

#include <unordered_map>

namespace ascendsim {

namespace {

// The op's position in the step, or a failure naming the field and a few valid names.
std::size_t opPosition(const YamlReader& reader, const YAML::Node& node, const std::string& field,
                       const std::unordered_map<std::string, std::size_t>& positions, const Workload& w) {
    const std::string name = reader.scalar(node, field);
    const auto it = positions.find(name);
    if (it != positions.end()) return it->second;
    std::string some;
    for (std::size_t i = 0; i < w.ops.size() && i < 3; ++i) some += (i ? ", " : "") + w.ops[i].name;
    reader.fail(node, field, "no op named '" + name + "' (ops are named as flattened: " + some + ", ...)");
}

}  // namespace

std::vector<WorkloadMstxMarker> readMstxBlock(const YamlReader& reader, const YAML::Node& node, const Workload& w) {
    reader.requireSequence(node, "mstx");
    std::unordered_map<std::string, std::size_t> positions;
    for (std::size_t i = 0; i < w.ops.size(); ++i) positions.emplace(w.ops[i].name, i);
    std::vector<WorkloadMstxMarker> markers;
    for (std::size_t i = 0; i < node.size(); ++i) {
        const YAML::Node entry = node[i];
        const std::string f = "mstx[" + std::to_string(i) + "]";
        reader.requireMap(entry, f);
        reader.requireKnownKeys(entry, {"mark", "range", "before", "after", "from", "to", "domain"}, f);
        WorkloadMstxMarker m;
        m.location = reader.locationOf(entry);
        if (entry["mark"].IsDefined() == entry["range"].IsDefined())
            reader.fail(entry, f, "an mstx entry is either a `mark:` or a `range:` (its message)");
        m.range = entry["range"].IsDefined();
        m.message = reader.scalar(m.range ? entry["range"] : entry["mark"], f + (m.range ? ".range" : ".mark"));
        if (m.message.empty()) reader.fail(entry, f, "the marker's message is empty");
        if (entry["domain"]) m.domain = reader.scalar(entry["domain"], f + ".domain");
        if (m.range) {
            if (entry["before"] || entry["after"] || !entry["from"] || !entry["to"])
                reader.fail(entry, f, "a range names its first op with `from:` and its last op with `to:`");
            const std::size_t from = opPosition(reader, entry["from"], f + ".from", positions, w);
            const std::size_t to = opPosition(reader, entry["to"], f + ".to", positions, w);
            if (from > to) reader.fail(entry["to"], f + ".to", "the range ends before it starts (`to` runs before `from`)");
            m.firstOp = w.ops[from].name;
            m.lastOp = w.ops[to].name;
        } else {
            if (entry["from"] || entry["to"] || entry["before"].IsDefined() == entry["after"].IsDefined())
                reader.fail(entry, f, "a mark names one op with `before:` or `after:`");
            m.markBefore = entry["before"].IsDefined();
            const std::string key = m.markBefore ? "before" : "after";
            m.firstOp = w.ops[opPosition(reader, entry[key], f + "." + key, positions, w)].name;
            m.lastOp = m.firstOp;
        }
        markers.push_back(std::move(m));
    }
    return markers;
}

}  // namespace ascendsim
