#include "sim/workload/block_expander.h"

#include <algorithm>

#include "sim/workload/workload_limits.h"

namespace ascendsim {

namespace {

// Blocks may use blocks; deeper than this is almost surely a block that uses itself.
constexpr int kMaxBlockNesting = 16;

std::string sub(const std::string& field, std::size_t i) {
    return field + "[" + std::to_string(i) + "]";
}

bool isReserved(const std::string& name) {
    return name == "index" || name == "prefix";
}

// Names the block instance in a problem found inside a block definition (once).
WorkloadError withContext(const WorkloadError& e, const ExpansionScope& scope) {
    if (scope.blockContext.empty() || e.problem().find(scope.blockContext) != std::string::npos)
        return e;
    return WorkloadError(e.where(), e.field(), e.problem() + scope.blockContext);
}

}  // namespace

BlockExpander::BlockExpander(const YamlReader& reader, const YAML::Node& blocks,
                             ParameterValues globals)
    : reader_(reader), globals_(std::move(globals)) {
    if (!blocks) return;
    reader_.requireMap(blocks, "blocks");
    for (const auto& entry : blocks) {
        std::string name = entry.first.Scalar();
        blocks_.emplace(name, readDefinition(name, entry.second));
    }
}

BlockExpander::BlockDefinition BlockExpander::readDefinition(const std::string& name,
                                                             const YAML::Node& node) const {
    BlockDefinition def;
    def.node = node;
    def.field = "blocks." + name;
    reader_.requireKnownKeys(node, {"params", "inputs", "outputs", "tensors", "ops"}, def.field);
    if (const YAML::Node params = node["params"]) {
        reader_.requireMap(params, def.field + ".params");
        for (const auto& p : params) {
            if (isReserved(p.first.Scalar())) {
                reader_.fail(p.first, def.field + ".params." + p.first.Scalar(),
                             "'index' and 'prefix' are set by the block itself");
            }
        }
    }
    if (node["inputs"]) def.inputs = reader_.scalarList(node["inputs"], def.field + ".inputs");
    if (node["outputs"]) def.outputs = reader_.scalarList(node["outputs"], def.field + ".outputs");
    auto literal = [](const std::string& s) { return !s.empty() && !containsSubstitution(s); };
    if (const YAML::Node tensors = node["tensors"]) {
        reader_.requireSequence(tensors, def.field + ".tensors");
        for (const auto& t : tensors) {
            if (t.IsMap() && t["name"] && t["name"].IsScalar() && literal(t["name"].Scalar()))
                def.localTensors.insert(t["name"].Scalar());
        }
    }
    if (const YAML::Node ops = node["ops"]) {
        reader_.requireSequence(ops, def.field + ".ops");
        for (const auto& op : ops) {
            if (!op.IsMap() || op["block"]) continue;
            if (op["name"] && op["name"].IsScalar() && literal(op["name"].Scalar()))
                def.localOps.insert(op["name"].Scalar());
            if (op["outputs"] && op["outputs"].IsSequence()) {
                for (const auto& out : op["outputs"]) {
                    if (out.IsScalar() && literal(out.Scalar()))
                        def.localTensors.insert(out.Scalar());
                }
            }
        }
    }
    for (const auto& in : def.inputs) def.localTensors.erase(in);
    return def;
}

void BlockExpander::expandTensors(const YAML::Node& list, const ExpansionScope& scope,
                                  const std::string& field,
                                  std::vector<WorkloadTensor>& out) const {
    if (!list) return;
    reader_.requireSequence(list, field);
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (out.size() >= kMaxExpandedTensors)
            reader_.fail(list[i], sub(field, i),
                         "the workload expands to more than " +
                             std::to_string(kMaxExpandedTensors) + " tensors");
        reader_.requireMap(list[i], sub(field, i));  // a scalar item: fuzz_workload_loader
        try {
            if (included(list[i], scope, sub(field, i)))
                out.push_back(readTensor(list[i], scope, sub(field, i)));
        } catch (const WorkloadError& e) {
            throw withContext(e, scope);
        }
    }
}

void BlockExpander::expandOps(const YAML::Node& list, const ExpansionScope& scope,
                              const std::string& field, std::vector<WorkloadTensor>& tensors,
                              std::vector<WorkloadOp>& ops) const {
    if (!list) return;
    reader_.requireSequence(list, field);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node item = list[i];
        reader_.requireMap(item, sub(field, i));
        if (!included(item, scope, sub(field, i))) continue;
        if (item["block"]) {
            expandInstance(item, scope, sub(field, i), tensors, ops);
            continue;
        }
        if (ops.size() >= kMaxExpandedOps)
            reader_.fail(item, sub(field, i),
                         "the workload expands to more than " + std::to_string(kMaxExpandedOps) +
                             " ops (about " + byteText(kMaxExpandedOps * kHostBytesPerOp) +
                             " of host memory at this point)");
        try {
            ops.push_back(readOp(item, scope, sub(field, i)));
        } catch (const WorkloadError& e) {
            throw withContext(e, scope);
        }
    }
}

ParameterValues BlockExpander::instanceParams(const BlockDefinition& def, const YAML::Node& item,
                                              std::int64_t index, const std::string& prefix,
                                              const ExpansionScope& caller,
                                              const std::string& field) const {
    ParameterValues callerPlus = caller.params;
    callerPlus["index"] = std::to_string(index);
    const YAML::Node declared = def.node["params"];
    ParameterValues given;
    auto take = [&](const YAML::Node& map, const std::string& mapField) {
        reader_.requireMap(map, mapField);
        for (const auto& entry : map) {
            std::string key = entry.first.Scalar();
            if (!declared || !declared[key]) {
                reader_.fail(entry.first, mapField + "." + key,
                             "block '" + def.field.substr(7) + "' has no parameter '" + key + "'");
            }
            try {
                given[key] = resolveParameterText(
                    reader_.scalar(entry.second, mapField + "." + key), callerPlus);
            } catch (const ExpressionError& e) {
                reader_.fail(entry.second, mapField + "." + key, e.what());
            }
        }
    };
    if (item["params"]) take(item["params"], field + ".params");
    if (const YAML::Node instances = item["instances"]) {
        reader_.requireMap(instances, field + ".instances");
        for (const auto& entry : instances) {
            std::string key = entry.first.Scalar();
            auto which = tryEvaluateInteger(key, {});
            if (!which)
                reader_.fail(entry.first, field + ".instances." + key,
                             "instance keys are indices (0, 1, ...)");
            if (*which == index) take(entry.second, field + ".instances." + key);
        }
    }
    ParameterValues params = globals_;
    params["index"] = std::to_string(index);
    params["prefix"] = prefix;
    if (!declared) return params;
    for (const auto& entry : declared) {
        std::string key = entry.first.Scalar();
        std::string keyField = def.field + ".params." + key;
        if (auto it = given.find(key); it != given.end()) {
            params[key] = it->second;
        } else if (entry.second.IsNull()) {
            reader_.fail(item, field + ".params",
                         "block '" + def.field.substr(7) + "' needs parameter '" + key + "'");
        } else {
            try {
                params[key] = resolveParameterText(reader_.scalar(entry.second, keyField), params);
            } catch (const ExpressionError& e) {
                reader_.fail(entry.second, keyField, e.what());
            }
        }
    }
    return params;
}

std::vector<std::string> BlockExpander::expandBlock(const YAML::Node& item, const ExpansionScope& scope,
                                                    const std::string& field,
                                                    std::vector<WorkloadTensor>& tensors,
                                                    std::vector<WorkloadOp>& ops) const {
    try {
        return expandInstance(item, scope, field, tensors, ops);
    } catch (const WorkloadError& e) {
        throw withContext(e, scope);
    }
}

bool BlockExpander::declaresParam(const std::string& name, const std::string& key) const {
    const auto found = blocks_.find(name);
    return found != blocks_.end() && found->second.node["params"] && found->second.node["params"][key];
}

std::vector<std::string> BlockExpander::expandInstance(const YAML::Node& item, const ExpansionScope& caller,
                                                       const std::string& field,
                                                       std::vector<WorkloadTensor>& tensors,
                                                       std::vector<WorkloadOp>& ops) const {
    reader_.requireKnownKeys(item,
                             {"block", "name", "repeat", "reverse", "params", "instances", "inputs",
                              "module", "stack", "phase", "when"},
                             field);
    std::string blockName = reader_.scalar(item["block"], field + ".block");
    auto found = blocks_.find(blockName);
    if (found == blocks_.end())
        reader_.fail(item["block"], field + ".block", "unknown block '" + blockName + "'");
    const BlockDefinition& def = found->second;
    if (caller.depth >= kMaxBlockNesting)
        reader_.fail(item, field, "blocks nest deeper than 16 levels (does a block use itself?)");
    std::string baseName = item["name"] ? text(item["name"], caller, field + ".name") : blockName;
    bool repeated = static_cast<bool>(item["repeat"]);
    std::int64_t count = repeated ? integer(item["repeat"], caller, field + ".repeat") : 1;
    if (count < 0) reader_.fail(item["repeat"], field + ".repeat", "repeat must not be negative");
    if (static_cast<std::uint64_t>(count) > kMaxExpandedOps)
        reader_.fail(item["repeat"], field + ".repeat",
                     "repeat " + std::to_string(count) + " would expand to at least " +
                         std::to_string(count) + " ops, more than the " +
                         std::to_string(kMaxExpandedOps) + " a workload may have");
    bool reverse = item["reverse"] && reader_.boolean(item["reverse"], field + ".reverse");
    if (count > 1 && def.inputs.size() != def.outputs.size() && !def.inputs.empty()) {
        reader_.fail(item, field + ".repeat",
                     "a repeated block chains outputs to inputs, but block '" + blockName +
                         "' has " + std::to_string(def.inputs.size()) + " inputs and " +
                         std::to_string(def.outputs.size()) + " outputs");
    }
    std::vector<std::string> previousOutputs;
    for (std::int64_t step = 0; step < count; ++step) {
        std::int64_t index = reverse ? count - 1 - step : step;
        std::string local = repeated ? baseName + "." + std::to_string(index) : baseName;
        ExpansionScope scope;
        scope.prefix = caller.prefix.empty() ? local : caller.prefix + "." + local;
        scope.params = instanceParams(def, item, index, scope.prefix, caller, field);
        scope.localTensors = def.localTensors;
        scope.localOps = def.localOps;
        scope.depth = caller.depth + 1;
        scope.blockContext = " (in block instance '" + scope.prefix + "')";
        ExpansionScope callerPlus = caller;
        callerPlus.params["index"] = std::to_string(index);
        if (step == 0) {
            if (const YAML::Node inputs = item["inputs"]) {
                if (inputs.IsMap()) {
                    for (const auto& entry : inputs) {
                        std::string key = entry.first.Scalar();
                        if (std::find(def.inputs.begin(), def.inputs.end(), key) ==
                            def.inputs.end()) {
                            reader_.fail(entry.first, field + ".inputs." + key,
                                         "block '" + blockName + "' has no input '" + key + "'");
                        }
                        scope.inputBindings[key] =
                            tensorName(entry.second, callerPlus, field + ".inputs." + key);
                    }
                } else {
                    reader_.requireSequence(inputs, field + ".inputs");
                    if (inputs.size() != def.inputs.size()) {
                        reader_.fail(inputs, field + ".inputs",
                                     "block '" + blockName + "' has " +
                                         std::to_string(def.inputs.size()) + " inputs, got " +
                                         std::to_string(inputs.size()));
                    }
                    for (std::size_t i = 0; i < inputs.size(); ++i)
                        scope.inputBindings[def.inputs[i]] =
                            tensorName(inputs[i], callerPlus, sub(field + ".inputs", i));
                }
            }
        } else {
            for (std::size_t i = 0; i < def.inputs.size(); ++i)
                scope.inputBindings[def.inputs[i]] = previousOutputs[i];
        }
        for (const auto& in : def.inputs) {
            if (!scope.inputBindings.count(in))
                reader_.fail(item, field + ".inputs", "block input '" + in + "' is not bound");
        }
        scope.modulePrefix = caller.modulePrefix;
        if (const YAML::Node module = item["module"]) {
            for (const auto& part : reader_.scalarList(module, field + ".module")) {
                std::string path = substitute(module, part, callerPlus.params, field + ".module");
                std::size_t start = 0;
                while (start <= path.size()) {
                    std::size_t slash = std::min(path.find('/', start), path.size());
                    if (slash > start)
                        scope.modulePrefix.push_back(path.substr(start, slash - start));
                    start = slash + 1;
                }
            }
        }
        if (const YAML::Node stack = item["stack"]) {
            for (const auto& frame : reader_.scalarList(stack, field + ".stack"))
                scope.outerStack.push_back(
                    substitute(stack, frame, callerPlus.params, field + ".stack"));
        }
        scope.outerStack.insert(scope.outerStack.end(), caller.outerStack.begin(),
                                caller.outerStack.end());
        scope.phase = caller.phase;
        if (const YAML::Node phase = item["phase"]) {
            OpPhase p{};
            std::string name = text(phase, caller, field + ".phase");
            if (!parseOpPhase(name, p))
                reader_.fail(phase, field + ".phase",
                             "unknown phase '" + name + "' (forward, backward, optimizer)");
            scope.phase = p;
        }
        expandTensors(def.node["tensors"], scope, def.field + ".tensors", tensors);
        expandOps(def.node["ops"], scope, def.field + ".ops", tensors, ops);
        previousOutputs.clear();
        for (const auto& out : def.outputs) {
            auto bound = scope.inputBindings.find(out);
            previousOutputs.push_back(
                bound != scope.inputBindings.end() ? bound->second
                : containsSubstitution(out)
                    ? substitute(def.node, out, scope.params, def.field + ".outputs")
                    : scope.prefix + "." + out);
        }
    }
    return previousOutputs;
}

}  // namespace ascendsim
