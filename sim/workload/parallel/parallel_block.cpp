#include "sim/workload/parallel/parallel_block.h"

#include <optional>

#include "sim/workload/expression.h"

namespace ascendsim {

namespace {

std::uint32_t readSize(const YamlReader& reader, const YAML::Node& node, const std::string& field,
                       const std::map<std::string, std::string>& parameters) {
    if (!node) return 1;
    const std::string raw = reader.scalar(node, field);
    std::optional<std::int64_t> value;
    try {
        value = evaluateInteger(raw, parameters);
    } catch (const ExpressionError&) {
    }
    if (!value || *value < 1 || *value > 65536)
        reader.fail(node, field, field + " must be an integer in 1..65536, got '" + raw + "'");
    return static_cast<std::uint32_t>(*value);
}


}  // namespace

ParallelLayout readParallelBlock(const YamlReader& reader, const YAML::Node& node,
                                 const std::map<std::string, std::string>& parameters) {
    reader.requireMap(node, "parallel");
    reader.requireKnownKeys(node, {"tp", "pp", "dp", "ep"}, "parallel");
    ParallelLayout layout;
    layout.declared = true;
    layout.tp = readSize(reader, node["tp"], "parallel.tp", parameters);
    layout.pp = readSize(reader, node["pp"], "parallel.pp", parameters);
    layout.dp = readSize(reader, node["dp"], "parallel.dp", parameters);
    layout.ep = readSize(reader, node["ep"], "parallel.ep", parameters);
    if (layout.dp % layout.ep != 0)
        reader.fail(node["ep"], "parallel.ep",
                    "ep (" + std::to_string(layout.ep) + ") must divide dp (" + std::to_string(layout.dp) +
                        "): expert-parallel groups split each data-parallel group");
    if (static_cast<std::uint64_t>(layout.tp) * layout.pp * layout.dp > 65536)
        reader.fail(node, "parallel", "tp x pp x dp must be at most 65536 ranks");
    return layout;
}

}  // namespace ascendsim
