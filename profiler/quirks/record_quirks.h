#pragma once
// The quirks that act on the run record before its files are written: they move or cut time,
// never what was simulated.
#include "profiler/assembly/profiling_schedule.h"
#include "profiler/quirks/quirk_set.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// clock-skew: rank r's clock reads r × kClockSkewNsPerRank behind rank 0's. Measured on the
// e5a31957 Level1 sample: the second allreduce ends together on ranks 0 and 1 (a collective ends
// on all ranks at once), yet rank 1 stamps its end 7.096 µs earlier (1736408883813615.949 vs
// 1736408883813608.853 µs: start + duration in kernel_details.csv).
inline constexpr std::uint64_t kClockSkewNsPerRank = 7'096;

void applyClockSkew(RunRecord& run);

// interrupted-step: `run` with the cycle's last recorded step ended halfway through the host's
// work in it, as when the profiler is stopped inside a step (torch_npu closes the step marker at
// stop()); slicing it to the cycle then drops everything the host started after that point.
RunRecord withLastStepInterrupted(const RunRecord& run, const ProfilingCycle& cycle);

}  // namespace ascendsim
