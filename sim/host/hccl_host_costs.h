#pragma once
// Host-side cost of dist.all_reduce through torch_npu's ProcessGroupHCCL on the dequeue thread, as
// the e5a31957 Level2 rank0 trace shows the first allreduce (AscendCL@hcom_allReduce_ at
// 1736412474756298.50): the HCCL stream waits for the compute stream's event, HCCL prepares the
// op on the host, launches it as one FFTS+ task, and records the events the compute stream waits
// on. Every figure is one sample's value (the four allreduces of that trace vary by +-25 %).
#include <cstdint>

namespace ascendsim::hccl_host_costs {

// AscendCL@aclrtStreamWaitEvent 8.99 us, Runtime@StreamWaitEvent 7.01 us starting 0.97 us in.
inline constexpr std::uint64_t kStreamWaitEventNs = 8'990;
inline constexpr std::uint64_t kRuntimeStreamWaitEventOffsetNs = 970;
inline constexpr std::uint64_t kRuntimeStreamWaitEventNs = 7'010;
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
// Then two AscendCL@aclrtRecordEvent calls (16.28 us, 6.38 us; Runtime@EventRecord 12.74, 4.6 us
// starting 1.54 and 0.61 us in), 74.5 us after hcom_allReduce_ ends, 2.3 us apart.
inline constexpr std::uint64_t kHcomToRecordEventNs = 74'500;
inline constexpr std::uint64_t kRecordEventNs[2] = {16'280, 6'380};
inline constexpr std::uint64_t kRuntimeRecordEventOffsetNs[2] = {1'540, 610};
inline constexpr std::uint64_t kRuntimeRecordEventNs[2] = {12'740, 4'600};
inline constexpr std::uint64_t kRecordEventGapNs = 2'310;

}  // namespace ascendsim::hccl_host_costs
