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
// AscendCL@aclnnXxxGetWorkspaceSize on the enqueuing thread (tiling included): 5-25 us when no
// Python stack is captured; 160 us in the with_stack forward pass is mostly profiler overhead.
inline constexpr std::uint64_t kGetWorkspaceSizeNs = 9'000;
// The NPU op record (aclnnMm, aclnnReduceSum): 8.8-12.9 us, of which Enqueue is 6-9 us.
inline constexpr std::uint64_t kNpuRecordEnterNs = 2'000;
inline constexpr std::uint64_t kEnqueueNs = 7'000;
inline constexpr std::uint64_t kNpuRecordExitNs = 1'500;
// with_stack: every torch op record captures the Python stack. On the forward thread of the
// same trace (with_stack=True) a leaf record costs ~150 us instead of ~7.5 us.
inline constexpr std::uint64_t kStackCaptureNs = 140'000;
// record_shapes: formatting input dims/types per record (assumed; small against the above).
inline constexpr std::uint64_t kRecordShapesNs = 1'000;
// torch_npu.profiler.step() between two ProfilerStep#N records, without a Python tracer (assumed;
// the with_stack sample shows ~330 us, nearly all Python tracing).
inline constexpr std::uint64_t kProfilerStepGapNs = 30'000;
// Returning from a blocking synchronize (thread wake-up after the device event), assumed.
inline constexpr std::uint64_t kSyncWakeNs = 5'000;
// The host-side part of aclrtSynchronizeStream when nothing is pending (assumed).
inline constexpr std::uint64_t kSyncCallNs = 3'000;

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
// The first launch of an aclnn execute call first asks for the context's overflow address:
// Runtime@CtxGetOverflowAddr (1.26 us) starts 2.75 us into that Node@launch and the kernel launch
// follows 3.75 us later, making the first Node@launch ~13.5 us (17622.25 -> 17635.74 in the trace).
inline constexpr std::uint64_t kOverflowQueryOffsetNs = 2'750;
inline constexpr std::uint64_t kOverflowQueryNs = 1'300;
inline constexpr std::uint64_t kOverflowQueryToLaunchNs = 2'450;
// Gap between consecutive Node@launch calls of one op (tiling of the next kernel), ~2-8 us.
inline constexpr std::uint64_t kInterLaunchGapNs = 3'000;
// Runtime launch end -> the task is in the device's stream queue (doorbell + task scheduler). On
// an idle device the kernel starts 28-52 us after Node@launch starts; minus the launch itself.
inline constexpr std::uint64_t kLaunchToDeviceNs = 20'000;

}  // namespace ascendsim::host_costs
