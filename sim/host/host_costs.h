#pragma once
// Host-side CPU costs of torch_npu + CANN, in ns. Unless noted, the numbers are medians read off
// the real Level2 trace_view.json in shared/reference/real-profiles/msinsight/e5a31957/
// test/data/pytorch/text/level2/rank0_ascend_pt (910B, 2025-01), measured on the autograd thread,
// whose records carry no Python stacks and so show the profiler's cost without with_stack.
#include <cstdint>

namespace ascendsim::host_costs {

// --- Python/dispatcher thread ---
// A torch op record: entering (dispatch, RecordFunction) before its first child, leaving after
// the last. aten::as_strided (a leaf, no launch) spans 7-10 us; aten::transpose around it adds
// ~10 us of its own.
inline constexpr std::uint64_t kOpEnterNs = 4'000;
inline constexpr std::uint64_t kOpExitNs = 2'500;
// "empty_tensor" (output allocation through the caching allocator): 7.2-8.7 us.
inline constexpr std::uint64_t kEmptyTensorNs = 7'500;
// AscendCL@aclnnXxxGetWorkspaceSize on the enqueuing thread: 5-25 us when no Python stack is
// captured; 160 us in the with_stack forward pass is mostly profiler overhead. Split by cause
// (host_call_costs.h): a cached call builds the aclTensor descriptors and looks the op up.
inline constexpr std::uint64_t kGetWorkspaceSizeCachedNs = 5'000;
// Per aclTensor descriptor (inputs and outputs) built and hashed for the cache key: real
// aclCreateTensorDesc has median ~0.5 us (71 calls, avg 1.24 us, min 0.24 us) in the same sample;
// 0.5 us is the assumption. Per attribute (stride, padding, ... as an aclIntArray/aclScalar):
// 0.2 us, assumed (aclopCreateAttr: avg 0.20 us over 19 calls).
inline constexpr std::uint64_t kTensorDescriptorNs = 500;
inline constexpr std::uint64_t kAttributeNs = 200;
// The first call of an API after the host blocked on a device synchronize is slower than its
// later calls ("cold": the threads slept through the device's work, and the caches, branch
// predictors and the CPU clock of the code path have to warm up again). The sample is step 50 of
// a run, so every op and shape in it was called before and nothing misses a CANN cache; still the
// first call of each API in the step is the slow one. Median of (first call - median of the later
// calls) over the 11 aclnn execute APIs called 3+ times in the step: 8.4 us (InplaceCopy 20.4 vs
// 9.8, ThresholdBackward 24.0 vs 11.0, Muls 12.7 vs 10.2); aclnnInplaceCopyGetWorkspaceSize 24.9
// vs 15.9 (+9 us; the other two GetWorkspaceSize APIs called 3+ times are 1.9x and 1.9x slower on
// their first call, MaxPool2dWithMask's AI CPU-assisted tiling by +78 us).
inline constexpr std::uint64_t kColdGetWorkspaceSizeNs = 9'000;
inline constexpr std::uint64_t kColdExecuteNs = 8'400;
// A real CANN cache miss, which the warm sample cannot show: tiling a shape the op has not seen
// (assumed 9 us, the size of the cold GetWorkspaceSize overhead), and operator selection on the
// first call of an op type (kernel binary lookup, op info registration; assumed 10 us more).
inline constexpr std::uint64_t kTilingNs = 9'000;
inline constexpr std::uint64_t kOpSelectionNs = 10'000;
// A caching-allocator miss: the block comes from a fresh segment by aclrtMalloc
// (Runtime@DevMalloc: 4 calls, avg 21.7 us, 8.6-36.2 us in the ef63bc64 rank_0 api_statistic).
inline constexpr std::uint64_t kDeviceMallocNs = 21'700;
// The NPU op record (aclnnMm, aclnnReduceSum): 8.8-12.9 us around the Enqueue.
inline constexpr std::uint64_t kNpuRecordEnterNs = 2'000;
inline constexpr std::uint64_t kNpuRecordExitNs = 1'500;
// Enqueue is bimodal in the trace: while the dequeue thread is still running an earlier item the
// producer only copies the parameters into the ring (median 2.30 us over the 101 Enqueues that
// start inside a Dequeue); when the dequeue thread has run dry and sleeps, Enqueue also wakes it
// (median 9.68 us over the other 58), and its Dequeue starts ~3 us later (kDequeueWakeNs).
inline constexpr std::uint64_t kEnqueueToBusyQueueNs = 2'300;
inline constexpr std::uint64_t kEnqueueWakingDequeueNs = 9'700;
// with_stack: every torch op record captures the Python stack. On the forward thread of the
// same trace (with_stack=True) a leaf record costs ~150 us instead of ~7.5 us.
inline constexpr std::uint64_t kStackCaptureNs = 140'000;
// record_shapes: formatting input dims/types, per input of the record (assumed; small against the
// above; 1 us for the typical three inputs).
inline constexpr std::uint64_t kRecordShapesPerInputNs = 330;
// The dispatcher boxes each argument of an op (IValue) on its way through the autograd and NPU
// keys: per input tensor, assumed 0.25 us on top of kOpEnterNs.
inline constexpr std::uint64_t kOpInputDispatchNs = 250;
// torch_npu.profiler.step() between two ProfilerStep#N records, without a Python tracer (assumed;
// the with_stack sample shows ~330 us, nearly all Python tracing).
inline constexpr std::uint64_t kProfilerStepGapNs = 30'000;
// Returning from a blocking synchronize (thread wake-up after the device event), assumed.
inline constexpr std::uint64_t kSyncWakeNs = 5'000;
// The host-side part of aclrtSynchronizeStream when nothing is pending (assumed).
inline constexpr std::uint64_t kSyncCallNs = 3'000;

// --- Gaps between host calls (docs/host-model.md "Gaps between host calls") ---
// Medians over the sibling records of the real Level1 trace (level2 in brackets); two sibling
// records never touch there (0 of 860 cpu_op records).
// Torch records inside a torch record (aten::_convolution > empty_tensor, Conv2D): the parent's
// C++ between its calls. 3.83 us over 318 pairs on both threads [3.90].
inline constexpr std::uint64_t kCppSiblingGapNs = 3'800;
// Consecutive autograd nodes on the autograd thread: the engine takes the next ready node off its
// queue. 12.82 us over 78 pairs [13.15].
inline constexpr std::uint64_t kAutogradNodeGapNs = 12'800;
// Two top-level torch ops called from the same Python frames (a forward's consecutive
// statements): the Python between the calls, the binding's argument parsing and the dispatch to
// the op's RecordFunction. 20.53 us over 35 pairs [19.21], with the Python tracer running
// (with_stack). Without the tracer the same bytecode runs without its per-call hooks (the sample
// shows 8-10 traced calls, ~1.7 us each, between two such ops): assumed 5 us.
inline constexpr std::uint64_t kTorchCallGapTracedNs = 20'000;
inline constexpr std::uint64_t kTorchCallGapNs = 5'000;
// A traced Python frame: from its start to its first child's start (1.68 us, 177 frames [1.68])
// and from its last child's end to its own end (0.34 us, 201 frames [0.34]).
inline constexpr std::uint64_t kPythonCallNs = 1'700;
inline constexpr std::uint64_t kPythonReturnNs = 340;
// An nn.Module call event: start -> its _call_impl frame (1.97 us, 26 modules [1.97]); last
// child's end -> its end (0.61 us [0.61]).
inline constexpr std::uint64_t kModuleCallNs = 2'000;
inline constexpr std::uint64_t kModuleReturnNs = 600;

// --- Host<->device copies ---
// AscendCL@aclrtMemcpyAsync of the input batch: 31.84 and 14.91 us, the sample's two calls.
inline constexpr std::uint64_t kMemcpyAsyncCallNs = 23'000;
// loss.item() reads one fp32 element back (aten::_local_scalar_dense: AscendCL@aclrtMemcpy on the
// Python thread, 32.9-78.8 us in the sample including the wait for the device).
inline constexpr std::uint64_t kLossItemBytes = 4;
// The host part of the blocking aclrtMemcpy around its device copy (assumed: the sample's
// shortest call, 32.9 us, less the ~2.2 us copy and the launch latency).
inline constexpr std::uint64_t kMemcpyCallNs = 10'000;

// --- PTA task-queue dequeue thread ---
// The dequeue thread wakes ~3.5 us after Enqueue ends (Enqueue end 15694.5 -> Dequeue 15698.25).
inline constexpr std::uint64_t kDequeueWakeNs = 3'500;
// Back-to-back dequeues when the thread is busy are ~2 us apart.
inline constexpr std::uint64_t kDequeueGapNs = 2'000;
// Dequeue start -> AscendCL call (7.75-16 us) and AscendCL end -> Dequeue end (~1.5 us).
inline constexpr std::uint64_t kDequeueToAclNs = 8'000;
inline constexpr std::uint64_t kAclToDequeueEndNs = 1'500;
// AscendCL execute entry -> first Node@launch (~3 us) and last launch -> return (~2 us).
inline constexpr std::uint64_t kAclPrologueNs = 3'000;
inline constexpr std::uint64_t kAclEpilogueNs = 2'000;
// aclop path (aclopCompileAndExecute): opCompile cache lookup before the first launch (~31 us).
inline constexpr std::uint64_t kAclopCompileLookupNs = 30'000;
// Node@launch: median 7.47 us; Runtime@KernelLaunchWithHandle inside it: median 3.59 us, starting
// ~1.5 us in. Runtime@CtxGetOverflowAddr precedes it on the first launch (1.26 us).
inline constexpr std::uint64_t kNodeLaunchNs = 7'500;
inline constexpr std::uint64_t kRuntimeLaunchOffsetNs = 1'500;
inline constexpr std::uint64_t kRuntimeLaunchNs = 3'600;
// KernelLaunchWithHandle: a kernel's repeat launches in the step take median 3.16 us (85), its
// first launch in the step (cold) median 4.41 us (67): +1.25 us. The launch copies the argument
// block (one device address per tensor, the workspace, the tiling data): 0.15 us per argument,
// assumed; the base is the repeat median minus three such arguments (the sample's kernels are
// mostly one input, one output, tiling).
inline constexpr std::uint64_t kKernelLaunchCachedBaseNs = 3'160 - 3 * 150;
inline constexpr std::uint64_t kKernelArgumentNs = 150;
inline constexpr std::uint64_t kColdKernelLaunchNs = 1'250;
// The first launch of an aclnn execute call first asks for the context's overflow address:
// Runtime@CtxGetOverflowAddr (1.26 us) starts 2.75 us into that Node@launch and the kernel launch
// follows 3.75 us later, making the first Node@launch ~13.5 us (17622.25 -> 17635.74 in the trace).
// Only the step's first query is that slow: the later 96 take median 0.27 us.
inline constexpr std::uint64_t kOverflowQueryOffsetNs = 2'750;
inline constexpr std::uint64_t kOverflowQueryNs = 1'300;
inline constexpr std::uint64_t kOverflowQueryWarmNs = 270;
inline constexpr std::uint64_t kOverflowQueryToLaunchNs = 2'450;
// Gap between consecutive Node@launch calls of one op (tiling of the next kernel), ~2-8 us.
inline constexpr std::uint64_t kInterLaunchGapNs = 3'000;
// Runtime launch end -> the task is in the device's stream queue (doorbell + task scheduler). On
// an idle device the kernel starts 28-52 us after Node@launch starts; minus the launch itself.
inline constexpr std::uint64_t kLaunchToDeviceNs = 20'000;

}  // namespace ascendsim::host_costs
