// loadWorkload: YAML file + `--set` overrides -> a flattened, shape-checked Workload.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>

#include "sim/workload/blocks/mstx_block.h"
#include "sim/workload/blocks/e2e_profile_block.h"
#include "sim/workload/block_expander.h"
#include "sim/workload/parallel/parallel_block.h"
#include "sim/workload/parallel/pipeline_block.h"
#include "sim/workload/blocks/profiler_block.h"
#include "sim/workload/workload.h"
#include "sim/workload/workload_graph.h"
#include "sim/workload/workload_limits.h"
#include "sim/yaml/yaml_text.h"

namespace ascendsim {

namespace {

struct SetOverride {
    std::string key;
    std::string value;
    std::size_t index = 0;
    bool used = false;
};

constexpr std::string_view kOpPrefix = "op.";
constexpr std::string_view kBlockDimSuffix = ".block_dim";

std::vector<SetOverride> parseOverrides(const WorkloadOverrides& overrides) {
    std::vector<SetOverride> parsed;
    for (std::size_t i = 0; i < overrides.sets.size(); ++i) {
        const std::string& entry = overrides.sets[i];
        std::size_t eq = entry.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw WorkloadError(commandLineLocation(i), "--set " + entry, "expected key=value");
        }
        parsed.push_back(SetOverride{entry.substr(0, eq), entry.substr(eq + 1), i, false});
    }
    return parsed;
}

bool isBlockDimKey(const std::string& key) {
    return key.size() > kOpPrefix.size() + kBlockDimSuffix.size() && key.rfind(kOpPrefix, 0) == 0 &&
           key.compare(key.size() - kBlockDimSuffix.size(), kBlockDimSuffix.size(),
                       kBlockDimSuffix) == 0;
}

SetOverride* findOverride(std::vector<SetOverride>& overrides, const std::string& key) {
    SetOverride* found = nullptr;
    for (auto& o : overrides) {
        if (o.key == key) found = &o;  // the last --set of a key wins
    }
    return found;
}

void readParameters(const YamlReader& reader, const YAML::Node& node,
                    std::vector<SetOverride>& overrides, Workload& w) {
    if (!node) return;
    reader.requireMap(node, "parameters");
    for (const auto& entry : node) {
        std::string key = entry.first.Scalar();
        std::string field = "parameters." + key;
        if (key == "index" || key == "prefix" || key == "steps" || key == "ranks")
            reader.fail(entry.first, field, "'" + key + "' is a reserved name");
        SetOverride* set = findOverride(overrides, key);
        std::string raw = set ? set->value : reader.scalar(entry.second, field);
        for (auto& o : overrides) o.used = o.used || o.key == key;
        try {
            w.parameters[key] = resolveParameterText(raw, w.parameters);
            // An integer parameter stays an integer: `--set batch=abc` fails here, not in a shape.
            if (set && !tryEvaluateInteger(w.parameters[key], {}) &&
                tryEvaluateInteger(reader.scalar(entry.second, field), w.parameters)) {
                throw ExpressionError("'" + raw + "' is not an integer (the workload's default '" +
                                      reader.scalar(entry.second, field) + "' is)");
            }
        } catch (const ExpressionError& e) {
            if (set) throw WorkloadError(commandLineLocation(set->index), "--set " + key, e.what());
            reader.fail(entry.second, field, e.what());
        }
    }
}

void applyBlockDimOverrides(std::vector<SetOverride>& overrides, Workload& w) {
    for (auto& o : overrides) {
        if (!isBlockDimKey(o.key)) continue;
        std::string opName = o.key.substr(kOpPrefix.size(),
                                          o.key.size() - kOpPrefix.size() - kBlockDimSuffix.size());
        auto op = std::find_if(w.ops.begin(), w.ops.end(),
                               [&](const WorkloadOp& x) { return x.name == opName; });
        if (op == w.ops.end())
            throw WorkloadError(commandLineLocation(o.index), "--set " + o.key,
                                "no op named '" + opName + "'");
        auto value = tryEvaluateInteger(o.value, w.parameters);
        if (!value || *value <= 0 || *value > 65535) {
            throw WorkloadError(commandLineLocation(o.index), "--set " + o.key,
                                "block_dim must be an integer in 1..65535, got '" + o.value + "'");
        }
        op->blockDim = static_cast<std::uint32_t>(*value);
        op->fieldLocations["block_dim"] = commandLineLocation(o.index);
        o.used = true;
    }
}

YAML::Node parseFile(const std::string& path) {
    std::error_code ec;
    const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
    if (!ec && fileBytes > kMaxWorkloadFileBytes) {
        throw WorkloadError(SourceLocation{path, 0, 0}, "file",
                            "the workload file is " + byteText(fileBytes) + "; at most " +
                                byteText(kMaxWorkloadFileBytes) +
                                " is read, since the YAML reader holds about " +
                                std::to_string(kYamlHostBytesPerFileByte) +
                                " bytes per byte of file (this one would need about " +
                                byteText(fileBytes * kYamlHostBytesPerFileByte) +
                                "): write repeated layers as a block with repeat:");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int reason = errno;
        throw WorkloadError(SourceLocation{path, 0, 0}, "file",
                            "cannot open the workload file: " +
                                std::string(reason != 0 ? std::strerror(reason) : "unreadable"));
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        return loadSingleYamlDocument(text);
    } catch (const YamlTextError& e) {
        throw WorkloadError(SourceLocation{path, e.line(), e.column()}, "yaml", e.what());
    }
}

// A top-level positive integer (`steps`, `ranks`): its `--set` override wins; 1 when absent.
std::uint32_t readPositiveCount(const YamlReader& reader, const YAML::Node& root,
                                std::vector<SetOverride>& sets, const std::string& key,
                                const Workload& w) {
    SetOverride* set = findOverride(sets, key);
    if (!set && !root[key]) return 1;
    const std::string raw = set ? set->value : reader.scalar(root[key], key);
    std::optional<std::int64_t> value;
    try {
        value = evaluateInteger(raw, w.parameters);
    } catch (const ExpressionError&) {
    }
    if (!value || *value < 1 || *value > std::numeric_limits<std::uint32_t>::max()) {
        const std::string problem = key + " must be a positive integer, got '" + raw + "'";
        if (set) throw WorkloadError(commandLineLocation(set->index), "--set " + key, problem);
        reader.fail(root[key], key, problem);
    }
    for (auto& o : sets) o.used = o.used || o.key == key;
    return static_cast<std::uint32_t>(*value);
}

// The `parallel:` block (its product is the rank count; a `ranks` that disagrees is an error)
// and the straggler keys of `--set`.
void readParallelism(const YamlReader& reader, const YAML::Node& root, std::vector<SetOverride>& sets,
                     Workload& w) {
    const SetOverride* ranksSet = findOverride(sets, "ranks");
    if (root["parallel"]) {
        w.parallel = readParallelBlock(reader, root["parallel"], w.parameters);
        const std::uint32_t world = w.parallel.worldSize();
        if ((root["ranks"] || ranksSet) && w.ranks != world) {
            const std::string problem = "ranks (" + std::to_string(w.ranks) + ") disagrees with parallel: tp x pp x dp = " +
                                        std::to_string(world);
            if (ranksSet) throw WorkloadError(commandLineLocation(ranksSet->index), "--set ranks", problem);
            reader.fail(root["ranks"], "ranks", problem);
        }
        w.ranks = world;
    } else {
        w.parallel.dp = w.ranks;
    }
    for (auto& o : sets) {
        if (o.key != "slow_rank" && o.key != "host_jitter") continue;
        o.used = true;
        try {
            if (o.key == "slow_rank") parseSlowRanks(o.value, w.stragglers);
            else w.stragglers.hostJitterUs = parseHostJitter(o.value);
        } catch (const std::invalid_argument& e) {
            throw WorkloadError(commandLineLocation(o.index), "--set " + o.key, e.what());
        }
    }
    for (const auto& [rank, factor] : w.stragglers.slowRanks) {
        (void)factor;
        if (rank >= w.ranks)
            throw WorkloadError(commandLineLocation(findOverride(sets, "slow_rank")->index), "--set slow_rank",
                                "rank " + std::to_string(rank) + " is not in 0.." + std::to_string(w.ranks - 1));
    }
}

// pp_stage, pp_first, pp_last: which stage of the pipeline this load is for (the stages run the
// same blocks and tell themselves apart with these).
void addStageParameters(const YamlReader& reader, const YAML::Node& root, std::uint32_t stage, Workload& w) {
    if (stage >= w.parallel.pp)
        reader.fail(root["pipeline"], "pipeline",
                    "stage " + std::to_string(stage) + " is not in 0.." + std::to_string(w.parallel.pp - 1));
    for (const char* name : {"pp_stage", "pp_first", "pp_last"})
        if (w.parameters.count(name))
            reader.fail(root["parameters"][name], std::string("parameters.") + name,
                        "'" + std::string(name) + "' is set by the pipeline for each stage");
    w.parameters["pp_stage"] = std::to_string(stage);
    w.parameters["pp_first"] = stage == 0 ? "1" : "0";
    w.parameters["pp_last"] = stage + 1 == w.parallel.pp ? "1" : "0";
}

Workload loadWorkloadNodes(const std::string& path, const WorkloadOverrides& overrides);

}  // namespace

bool declaresPipeline(const std::string& path) {
    const YAML::Node root = parseFile(path);
    return root.IsMap() && root["pipeline"];
}

Workload loadWorkload(const std::string& path, const WorkloadOverrides& overrides) {
    try {
        return loadWorkloadNodes(path, overrides);
    } catch (const YAML::Exception& e) {
        // A node used as the wrong kind that a reader did not check first (yaml-cpp throws
        // BadSubscript, BadConversion): still bad input at a known line, not a runtime failure.
        throw WorkloadError(SourceLocation{path, e.mark.is_null() ? 0 : e.mark.line + 1,
                                           e.mark.is_null() ? 0 : e.mark.column + 1},
                            "yaml", e.msg);
    }
}

namespace {

Workload loadWorkloadNodes(const std::string& path, const WorkloadOverrides& overrides) {
    YamlReader reader(path);
    YAML::Node root = parseFile(path);
    std::vector<SetOverride> sets = parseOverrides(overrides);
    reader.requireKnownKeys(root,
                            {"name", "parameters", "steps", "ranks", "parallel", "chip", "base_stack",
                             "module_classes", "tensors", "blocks", "pipeline", "ops", "profiler", "e2e_profile",
                             "mstx"},
                            "");
    Workload w;
    w.sourceFile = path;
    w.location = reader.locationOf(root);
    if (!root["name"]) reader.fail(root, "name", "the workload needs a name");
    readParameters(reader, root["parameters"], sets, w);
    ExpansionScope top;
    top.params = w.parameters;
    w.name = reader.scalar(root["name"], "name");
    w.steps = readPositiveCount(reader, root, sets, "steps", w);
    w.ranks = readPositiveCount(reader, root, sets, "ranks", w);
    readParallelism(reader, root, sets, w);
    if (root["pipeline"]) {
        addStageParameters(reader, root, overrides.pipelineStage, w);
        top.params = w.parameters;
    }
    for (const auto& o : sets) {
        if (!o.used && !isBlockDimKey(o.key)) {
            std::string known;
            for (const auto& [k, v] : w.parameters) {
                if (!known.empty()) known += ", ";
                known += k;
            }
            throw WorkloadError(commandLineLocation(o.index), "--set " + o.key,
                                "unknown parameter '" + o.key +
                                    "' (parameters: " + (known.empty() ? "none" : known) +
                                    "; also steps, ranks, slow_rank, host_jitter and op.<NAME>.block_dim)");
        }
    }
    if (root["chip"]) {
        try {
            w.chip = substituteParameters(reader.scalar(root["chip"], "chip"), w.parameters);
        } catch (const ExpressionError& e) {
            reader.fail(root["chip"], "chip", e.what());
        }
    }
    if (root["base_stack"]) {
        // Frames take parameters like an op's `stack` does ("$torch/nn/modules/module.py(1527)").
        for (const auto& frame : reader.scalarList(root["base_stack"], "base_stack")) {
            try {
                top.outerStack.push_back(substituteParameters(frame, w.parameters));
            } catch (const ExpressionError& e) {
                reader.fail(root["base_stack"], "base_stack", e.what());
            }
        }
    }
    if (const YAML::Node classes = root["module_classes"]) {
        reader.requireMap(classes, "module_classes");
        for (const auto& entry : classes) {
            const std::string suffix = reader.scalar(entry.first, "module_classes");
            w.moduleClasses[suffix] = reader.scalar(entry.second, "module_classes." + suffix);
        }
    }
    BlockExpander expander(reader, root["blocks"], w.parameters);
    expander.expandTensors(root["tensors"], top, "tensors", w.tensors);
    if (const YAML::Node pipeline = root["pipeline"]) {
        w.pipeline = readPipelineBlock(reader, pipeline, expander, w.parameters, overrides.pipelineStage, w.parallel.pp);
        expandPipeline(w.pipeline, reader, pipeline, expander, top, w.tensors, w.ops);
    }
    expander.expandOps(root["ops"], top, "ops", w.tensors, w.ops);
    if (w.ops.empty())
        reader.fail(root["ops"] ? root["ops"] : root, "ops", "the workload has no ops");
    applyBlockDimOverrides(sets, w);
    checkWorkloadLimits(w);  // declared tensors and view chains, before the graph follows them
    checkWorkloadGraph(w, true);
    checkWorkloadLimits(w);  // tensors the graph inferred
    if (root["mstx"]) w.mstxMarkers = readMstxBlock(reader, root["mstx"], w);
    if (root["profiler"]) {
        w.profiler = readProfilerBlock(reader, root["profiler"]);
        w.hasProfilerBlock = true;
    }
    if (root["e2e_profile"]) {
        if (root["profiler"])
            reader.fail(root["e2e_profile"], "e2e_profile",
                        "a workload profiles with either torch_npu.profiler (`profiler:`) or E2E (`e2e_profile:`)");
        applyE2eProfile(readE2eProfileBlock(reader, root["e2e_profile"], w.steps), w.profiler);
        w.hasProfilerBlock = true;
    }
    return w;
}

}  // namespace

}  // namespace ascendsim
