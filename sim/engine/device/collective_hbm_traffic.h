#pragma once
// The HBM traffic of the engine's own collectives (docs/fidelity.md §118): the transfer tasks a
// rank's simulated HCCL schedule runs (Memcpy, Reduce_Inline on the op's planes, the algorithm's
// ring / mesh / hierarchical phases as models/collective plans them), as ConcurrentHbmWindows on
// the device clock — the background the replay gives a real kernel beside a real collective's task
// rows (§108, sim/replay/run/concurrent_traffic.h), here from the simulated schedule.
//
// Per task: HBM bytes = sizeBytes × hcclTransferHbmBytesPerByte (2 for a Memcpy, 3 for a
// Reduce_Inline, any link), spread evenly over the task's simulated span. Notify_Record /
// Notify_Wait move nothing. The rate is the task's own (its link's or SDMA engine's); the
// collective is not slowed by the kernels in turn (its span is the collective model's).
#include <cstdint>
#include <vector>

#include "models/collective/hccl_task.h"
#include "models/memory/concurrent_hbm_traffic.h"

namespace ascendsim {

// The windows of `schedule`'s transfer tasks, the op started at `opStartNs` on the device clock
// (task times are from the op's start). Tasks with no bytes or no duration are skipped.
std::vector<ConcurrentHbmWindow> collectiveHbmWindows(const CollectiveSchedule& schedule, std::uint64_t opStartNs);

}  // namespace ascendsim
