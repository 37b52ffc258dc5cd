#pragma once
// Host-side cost of dist.all_reduce through torch_npu's ProcessGroupHCCL on the dequeue thread, as
// the e5a31957 Level2 rank0 trace shows the first allreduce (AscendCL@hcom_allReduce_ at
// 1736412474756298.50): the HCCL stream waits for the compute stream's event, HCCL prepares the
// op on the host, launches it as one FFTS+ task, and records the events the compute stream waits
// on. Every figure is one sample's value (the four allreduces of that trace vary by +-25 %).
#include <cstdint>

namespace ascendsim::hccl_host_costs {

// One event call on the dequeue thread: AscendCL@aclrtRecordEvent or aclrtStreamWaitEvent, with
// its Runtime@EventRecord / Runtime@StreamWaitEvent inside (Level2).
struct EventCallCost {
    std::uint64_t callNs;
    std::uint64_t runtimeOffsetNs;
    std::uint64_t runtimeNs;
};

// First the compute stream records that the input is ready: AscendCL@aclrtRecordEvent 16.03 us,
// Runtime@EventRecord 12.91 us starting 1.25 us in; the wait call starts 21.0 us after it.
inline constexpr EventCallCost kInputRecordEvent{16'030, 1'250, 12'910};
inline constexpr std::uint64_t kRecordToStreamWaitNs = 21'000;
// AscendCL@aclrtStreamWaitEvent 8.99 us, Runtime@StreamWaitEvent 7.01 us starting 0.97 us in.
inline constexpr EventCallCost kStreamWaitEvent{8'990, 970, 7'010};
// StreamWaitEvent start -> AscendCL@hcom_allReduce_ start: 33.14 us.
inline constexpr std::uint64_t kWaitEventToHcomNs = 33'140;
// hcom_allReduce_ (and the Node@launch of the same span): 893.35 us in all; Hccl@Launch_Ffts
// starts 675.77 us in and lasts 128.54 us; Runtime@FftsPlusTaskLaunch starts 6.54 us into it and
// lasts 88.11 us.
inline constexpr std::uint64_t kHcomPrepareNs = 675'770;
inline constexpr std::uint64_t kLaunchFftsNs = 128'540;
inline constexpr std::uint64_t kFftsTaskLaunchOffsetNs = 6'540;
inline constexpr std::uint64_t kFftsTaskLaunchNs = 88'110;
inline constexpr std::uint64_t kHcomAfterLaunchNs = 893'350 - 675'770 - 128'540;
// Then two AscendCL@aclrtRecordEvent calls on the HCCL stream (16.28 us, 6.38 us;
// Runtime@EventRecord 12.74, 4.6 us starting 1.54 and 0.61 us in), 74.5 us after hcom_allReduce_
// ends, 2.3 us apart.
inline constexpr std::uint64_t kHcomToRecordEventNs = 74'500;
inline constexpr EventCallCost kResultRecordEvents[2] = {{16'280, 1'540, 12'740}, {6'380, 610, 4'600}};
inline constexpr std::uint64_t kRecordEventGapNs = 2'310;
// Before the optimizer uses the reduced gradients, DDP's work.wait() makes the compute stream wait
// for each collective's event: one aclrtStreamWaitEvent per collective (9.25, 6.79, 8.28, 6.01 us
// in the trace, the HCCL stream's wait call's cost). Their gap here is assumed: the trace runs two
// bucket copies between them; without those, one queue item after the other: destroy_event's ACL
// call ends 0.62 us before its Dequeue item, wait_event's item starts 2.05 us later and its ACL call
// 0.75 us into it.
inline constexpr std::uint64_t kResultWaitGapNs = 620 + 2'050 + 750;

}  // namespace ascendsim::hccl_host_costs
