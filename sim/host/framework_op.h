#pragma once
// What the host model consumes: the framework (torch) ops of one training/inference step, as the
// engine derives them from the workload. Plain data; the host model turns it into the host
// timeline torch_npu + CANN would record (formats.md §1.4, §3.5, §4.2).
#include <cstdint>
#include <string>
#include <vector>

#include "sim/workload/workload.h"

namespace ascendsim {

// OpPhase (sim/workload/workload.h) decides an op's thread and sequence numbering here:
// Forward runs on the main thread and autograd nodes take sequence numbers (if requiresGrad);
// Backward runs on the autograd engine thread, linked to a forward op through its sequence
// number; Optimizer runs on the main thread without autograd (sequence number -1).

// One kernel the op launches (one lowered kernel; see models/kernels LoweredKernel).
struct KernelLaunchSpec {
    std::string kernelName;            // "aclnnAdd_AddAiCore_Add" (Node@launch item, kernel name)
    std::uint64_t workspaceBytes = 0;  // GM scratch the kernel needs
    std::uint32_t streamId = 0;
    std::uint64_t userTag = 0;         // opaque to the host: lets the engine map a launch back
};

// An output tensor the op allocates through the PTA caching allocator.
struct OutputTensorSpec {
    std::uint64_t bytes = 0;            // requested size (before allocator rounding)
    std::int32_t lastUseOpIndex = -1;   // index (in the step) of the op after which it is freed;
                                        // -1: outlives the step (parameters, gradients, caches)
    bool usedOnOtherStream = false;     // record_stream: its block returns to the pool only when
                                        // the host knows the other stream is done (a synchronize)
};

struct FrameworkOp {
    // Top-level torch op ("aten::conv2d", "aten::linear") or, for Backward, the autograd node
    // ("ConvolutionBackward0"). The call tree below it comes from op_call_tree.h unless
    // callPath is given.
    std::string atenName;
    // Explicit chain of nested torch ops under atenName, outermost first (overrides the family
    // table), e.g. {"aten::convolution", "aten::_convolution"}. The launch happens in the last.
    std::vector<std::string> callPath;
    // The NPU-level op record and ACL API that launch the kernels: "aclnnConvolution" (aclnn
    // path, two-phase GetWorkspaceSize + execute) or a CANN op type like "Conv2D" (aclop path,
    // aclopCompileAndExecute through GE). Empty: the op launches nothing (view ops).
    std::string npuOpName;
    OpPhase phase = OpPhase::Forward;
    bool requiresGrad = true;           // Forward only: false under torch.no_grad()
    std::int32_t forwardOpIndex = -1;   // Backward: index (in the step) of the forward op whose
                                        // autograd node this is; -1: none (AccumulateGrad)
    std::string inputDims;              // record_shapes: "32,3,224,224;64,3,7,7;;" (";" per input)
    std::string inputTypes;             // record_shapes: "float;float;ScalarList"
    std::uint32_t attributeCount = 0;   // non-tensor arguments (strides, pads, ...): host cost
    std::vector<std::string> stackFrames;  // with_stack: innermost first, "model.py(42): forward"
    std::vector<std::string> modulePath;   // with_modules: attribute path, outermost first
                                           // ("ResNet", "layer1", "0", "conv1")
    // The class of each modulePath prefix ("ResNet", "Sequential", "Bottleneck", "Conv2d"); empty
    // for a container never called (ModuleList). Missing entries: the path segment itself.
    std::vector<std::string> moduleClasses;
    std::vector<KernelLaunchSpec> kernels;
    std::vector<OutputTensorSpec> outputs;
    bool synchronizesDevice = false;    // the op blocks until the device is idle (.item(), D2H)
    std::uint64_t readBackBytes = 0;    // then copies this much back to the host (D2H memcpy)
    // A collective (dist.all_reduce): its one launch goes through HCCL (AscendCL@hcom_allReduce_,
    // Hccl@Launch_Ffts) onto its stream; kernels.front().kernelName is the HCCL API name.
    bool collective = false;
    // A collective: the index (in the step) of the first later op that reads its result (its
    // output or a view of it). The compute stream waits for the collective before that op, as
    // the framework's work.wait() makes it: Megatron's synchronous tensor-parallel all-reduce
    // before the next op, its backward input-gradient all-reduce after the weight-gradient GEMM
    // it overlaps, DDP's buckets before the optimizer. -1: nothing in the step reads it (the
    // optimizer's wait or the step's synchronize covers it).
    std::int32_t resultFirstUseOpIndex = -1;
    std::int64_t flops = -1;            // with_flops
};

// A torch_npu.npu.mstx call of the step's Python at an op boundary (WorkloadMstxMarker): just
// before op `opIndex`'s torch call or just after it. A range's start and end share `rangeSlot`.
enum class StepMarkerKind : std::uint8_t { Mark, RangeStart, RangeEnd };

struct StepMarker {
    StepMarkerKind kind = StepMarkerKind::Mark;
    std::uint32_t opIndex = 0;
    bool beforeOp = true;
    std::string message;
    std::string domain;
    std::uint32_t rangeSlot = 0;
};

struct HostStep {
    std::uint32_t stepNumber = 0;       // ProfilerStep#N
    bool profiled = true;               // false: simulated (timing, memory) but not recorded
    bool synchronizeAtEnd = true;       // the loss.item() sync at the end of a training step
    // Non-empty ("SGD", "AdamW"): each run of consecutive Optimizer ops is wrapped in the
    // record_function PyTorch's optimizer adds, "Optimizer.step#SGD.step".
    std::string optimizerName;
    // The step's input batch copied to the device first (`x.npu(non_blocking=True)`: one H2D
    // MEMCPY_ASYNC on computeStreamId); 0: inputs already on the device.
    std::uint64_t inputCopyBytes = 0;
    std::uint32_t computeStreamId = 0;
    std::vector<FrameworkOp> ops;
    std::vector<StepMarker> markers;  // in the workload's mstx order
};

}  // namespace ascendsim
