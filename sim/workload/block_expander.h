#pragma once
// Expands the `tensors:` and `ops:` lists of a workload, instantiating reusable blocks, into flat
// tensors and ops with unique, prefixed names (docs/workload-format.md, "Blocks").
//
// Naming inside a block instance with prefix P:
//  - op names are always prefixed: `conv1` -> `P.conv1`;
//  - a tensor (or `forward:` op) name written literally (no `$`) is, in this order, a bound block
//    input, a local name (declared in the block's `tensors:` or written as an op output / op name
//    in the block) -> `P.name`, or else a global name used as written;
//  - a name built from parameters (`$w.q_proj`, `${fwd}.conv1`) is used as substituted.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/workload/expression.h"
#include "sim/workload/workload.h"
#include "sim/workload/yaml_reader.h"

namespace ascendsim {

struct ExpansionScope {
    ParameterValues params;  // globals, plus the block's params, `index` and `prefix`
    std::string prefix;      // "" at top level
    std::map<std::string, std::string> inputBindings;
    std::set<std::string> localTensors;
    std::set<std::string> localOps;
    std::vector<std::string> modulePrefix;
    std::vector<std::string> outerStack;  // frames appended after the op's own (outer frames)
    std::optional<OpPhase> phase;
    std::string blockContext;  // " (in block instance 'P')" for messages, or ""
    int depth = 0;
};

class BlockExpander {
  public:
    BlockExpander(const YamlReader& reader, const YAML::Node& blocks, ParameterValues globals);

    void expandTensors(const YAML::Node& list, const ExpansionScope& scope,
                       const std::string& field, std::vector<WorkloadTensor>& out) const;
    void expandOps(const YAML::Node& list, const ExpansionScope& scope, const std::string& field,
                   std::vector<WorkloadTensor>& tensors, std::vector<WorkloadOp>& ops) const;
    // One block instance (`item` as an ops entry with `block:`); returns the names its last
    // instance's outputs got (what a chained next instance would take as inputs).
    std::vector<std::string> expandBlock(const YAML::Node& item, const ExpansionScope& scope,
                                         const std::string& field, std::vector<WorkloadTensor>& tensors,
                                         std::vector<WorkloadOp>& ops) const;
    bool hasBlock(const std::string& name) const { return blocks_.count(name) > 0; }
    // Whether block `name` declares parameter `key` (false for an unknown block).
    bool declaresParam(const std::string& name, const std::string& key) const;

  private:
    struct BlockDefinition {
        YAML::Node node;
        std::string field;  // "blocks.<name>"
        std::vector<std::string> inputs, outputs;
        std::set<std::string> localTensors, localOps;
    };

    BlockDefinition readDefinition(const std::string& name, const YAML::Node& node) const;
    std::vector<std::string> expandInstance(const YAML::Node& item, const ExpansionScope& caller,
                                            const std::string& field, std::vector<WorkloadTensor>& tensors,
                                            std::vector<WorkloadOp>& ops) const;
    ParameterValues instanceParams(const BlockDefinition& def, const YAML::Node& item,
                                   std::int64_t index, const std::string& prefix,
                                   const ExpansionScope& caller, const std::string& field) const;
    WorkloadOp readOp(const YAML::Node& node, const ExpansionScope& scope,
                      const std::string& field) const;
    void readAttrs(const YAML::Node& node, const ExpansionScope& scope, const std::string& field,
                   WorkloadOp& op) const;
    WorkloadTensor readTensor(const YAML::Node& node, const ExpansionScope& scope,
                              const std::string& field) const;
    bool included(const YAML::Node& node, const ExpansionScope& scope,
                  const std::string& field) const;

    std::string text(const YAML::Node& node, const ExpansionScope& scope,
                     const std::string& field) const;
    std::int64_t integer(const YAML::Node& node, const ExpansionScope& scope,
                         const std::string& field) const;
    std::string tensorName(const YAML::Node& node, const ExpansionScope& scope,
                           const std::string& field) const;
    std::string opName(const std::string& raw, const ExpansionScope& scope) const;
    std::string substitute(const YAML::Node& node, const std::string& raw,
                           const ParameterValues& params, const std::string& field) const;

    const YamlReader& reader_;
    ParameterValues globals_;
    std::map<std::string, BlockDefinition> blocks_;
};

}  // namespace ascendsim
