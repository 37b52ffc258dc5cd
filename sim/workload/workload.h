#pragma once
// A loaded, flattened, shape-checked workload (docs/workload-format.md): tensors, ops in
// execution order with their framework (torch) view, the step count and the profiler config.
// The engine turns each WorkloadOp into an OpInstance (makeOpInstance) after assigning addresses.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/kernels/op_instance.h"
#include "profiler/config/profiler_config.h"
#include "sim/workload/parallel/straggler_options.h"
#include "sim/workload/parallel/parallel_layout.h"
#include "sim/workload/parallel/pipeline_schedule.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

// Role of a tensor; decides its lifetime in the memory check. Input, Weight and State live for
// the whole run; Activation and Gradient live from their producer to their last consumer.
enum class TensorKind : std::uint8_t { Input, Weight, Activation, Gradient, State };
std::string_view tensorKindName(TensorKind k);  // "input", "weight", ...
bool parseTensorKind(std::string_view text, TensorKind& out);

enum class OpPhase : std::uint8_t { Forward, Backward, Optimizer };
std::string_view opPhaseName(OpPhase p);  // "forward", "backward", "optimizer"
bool parseOpPhase(std::string_view text, OpPhase& out);

struct WorkloadTensor {
    TensorInfo info;  // deviceAddr stays 0: the engine's allocator assigns it
    TensorKind kind = TensorKind::Activation;
    // A view (torch .view/.flatten/.reshape): same bytes as `viewOf`, other shape; no kernel
    // launches and no memory of its own. Empty for ordinary tensors.
    std::string viewOf;
    bool declared = true;     // false: created from an op output by shape inference
    SourceLocation location;  // the declaration, or the producing op's output entry
    std::string fieldPath;    // "tensors[4]" or "ops[7].outputs[0]"
};

// What torch_npu.profiler shows for the op on the host side.
struct FrameworkOpInfo {
    std::string atenName;                      // "aten::conv2d", "npu::npu_fusion_attention"
    std::vector<std::string> moduleHierarchy;  // outermost first, e.g. {"ResNet_0", "Conv2d_0"}
    std::vector<std::string> callStack;        // innermost first, "path.py(123): func"
    OpPhase phase = OpPhase::Forward;
    // Forward ops: 0, 1, 2, ... in execution order within one step. A backward op linked with
    // `forward:` carries its forward op's number. Everything else: -1.
    std::int64_t sequenceNumber = -1;
    std::string forwardOp;  // flattened name of the linked forward op, or empty
};

struct WorkloadOp {
    std::string name;  // flattened, unique: "layer1.0.conv1"
    std::string type;  // CANN type from docs/op-catalog.md
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::map<std::string, AttrValue> attrs;  // given attributes plus the catalog defaults
    std::optional<std::uint32_t> blockDim;   // 1..65535 when given
    FrameworkOpInfo framework;
    SourceLocation location;  // the op's YAML mapping (inside a block: the block's op)
    std::string fieldPath;    // "ops[3]" or "blocks.bottleneck.ops[2]"
    // Locations of single fields: "name", "type", "inputs[1]", "outputs[0]", "attrs.strides",
    // "block_dim", "aten", "module", "stack", "phase", "forward".
    std::map<std::string, SourceLocation> fieldLocations;

    SourceLocation locationOf(const std::string& field) const;  // falls back to `location`
};

// One `mstx:` entry (docs/workload-format.md "mstx markers"): a torch_npu.npu.mstx call the
// training script makes around the ops. A mark is recorded just before `firstOp` (`before:`) or
// just after it (`after:`); a range starts just before `firstOp` (`from:`) and ends just after
// `lastOp` (`to:`). Host-only markers (no stream), on the Python thread, every profiled step.
struct WorkloadMstxMarker {
    bool range = false;
    std::string message;
    std::string domain = "default";
    std::string firstOp;     // mark: the op named by before/after; range: `from`
    std::string lastOp;      // range: `to`; mark: == firstOp
    bool markBefore = true;  // mark: before (true) or after (false) firstOp
    SourceLocation location;
};

struct Workload {
    std::string name;
    std::string sourceFile;
    std::map<std::string, std::string> parameters;  // resolved values, integers in canonical text
    std::uint32_t steps = 1;
    // Data-parallel world size: every rank runs this graph; collectives (Hcom*) span
    // all ranks. `--set ranks=N` overrides.
    std::uint32_t ranks = 1;
    // The `parallel:` block (tp x pp x dp = ranks); without one, every rank is a data-parallel
    // replica (dp = ranks) and collectives span the world.
    ParallelLayout parallel;
    // The `pipeline:` block: this stage's 1F1B schedule is expanded into `ops` (before the
    // top-level ops, which run after the pipeline: the optimizer step).
    PipelineSchedule pipeline;
    StragglerOptions stragglers;  // `--set slow_rank=R:F`, `--set host_jitter=X`
    std::optional<std::string> chip;
    std::vector<WorkloadTensor> tensors;  // declaration order, then inferred ones as created
    std::vector<WorkloadOp> ops;          // execution order of one step
    // `module_classes`: nn.Module class per module path suffix ("conv1": Conv2d, "layer1/*":
    // Bottleneck, "layers": ModuleList); the longest matching suffix wins (docs/workload-format.md).
    std::map<std::string, std::string> moduleClasses;
    ProfilerConfig profiler;
    bool hasProfilerBlock = false;
    std::vector<WorkloadMstxMarker> mstxMarkers;  // `mstx:`, in file order
    SourceLocation location;  // the document root

    const WorkloadTensor* findTensor(const std::string& name) const;
    const WorkloadOp* findOp(const std::string& name) const;
    std::int64_t intParameter(const std::string& name) const;  // throws if absent or not an int
    // Ranks in a collective over `group` ("world", "tp", "dp", "pp", "ep", "mp").
    std::uint32_t groupSize(const std::string& group) const;
    // The first rank of the stage this workload was loaded for (rank 0 without a pipeline): the
    // rank whose groups time the collectives.
    std::uint32_t representativeRank() const { return pipeline.stage * parallel.tp * parallel.dp; }
};

// `--set key=value` entries, in command-line order. Keys: a parameter name (`batch=8`), `steps`,
// `ranks`, `slow_rank`, `host_jitter`, or `op.<flattened op name>.block_dim`.
struct WorkloadOverrides {
    std::vector<std::string> sets;
    // The pipeline stage to load (with a `pipeline:` block): its schedule and its pp_stage.
    std::uint32_t pipelineStage = 0;
};

// Parses, expands blocks, applies overrides, infers and checks shapes. Throws WorkloadError.
Workload loadWorkload(const std::string& path, const WorkloadOverrides& overrides = {});

// Whether the file has a `pipeline:` block (its stages are distinct ranks). Reads the YAML only;
// throws WorkloadError for a file that cannot be read or parsed.
bool declaresPipeline(const std::string& path);

// Re-checks the graph (tensors exist, produced once and before use, shapes agree with the
// catalog's rules, block_dim range) and that weights + inputs + state + the peak of live
// activations/gradients fit deviceMemoryBytes. Throws WorkloadError.
void validateWorkload(const Workload& workload, std::uint64_t deviceMemoryBytes);

// The op with its tensors resolved (views resolve to their own shape; addresses 0).
OpInstance makeOpInstance(const Workload& workload, const WorkloadOp& op);

}  // namespace ascendsim
