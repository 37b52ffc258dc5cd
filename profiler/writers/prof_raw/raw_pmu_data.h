#pragma once
// The tasks' PMU counters as the task scheduler reports them at each task's end, with AI Core
// metrics on (the counts of the events sample.json lists for the side, profiledEvents, in order):
//   STARS chips (910B/910_93, msprof's CHIP_V4_1_0): PROF_*/device_{id}/data/ffts_profile.data.{id}.slice_0
//     (RawFftsPmu). A plain AI Core or AI Vector task has one context record (FFTS type 0 or 2)
//     with the counters of its side summed over its blocks. A MIX task runs as an FFTS+ context
//     (FFTS type 4, sub-task type 6 MIX_AIC / 7 MIX_AIV, context id 0): a context record with its
//     main side's sums and, before it, one block record per block of its second side (the mix
//     block dim): ffts_pmu_calculator.py pairs them by stream, task and context id and sums the
//     block records (no `taskBlock` in sample.json: the main side reports no block records).
//   Coupled chips (910A, 310P): aicore.data.{id}.slice_0 (RawAicPmu), one per AI Core task.
// msprof evaluates the aic_metrics formulas on these (mscalculate/stars/ffts_pmu_calculator.py,
// mscalculate/aic/aic_calculator.py), which are the formulas profiler/metrics evaluates, so its
// op_summary carries our numbers.
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// A PMU data file: its name without the ".{id}.slice_0" suffix, and its records.
struct RawPmuFile {
    std::string name;   // "ffts_profile.data" (STARS chips) or "aicore.data" (910A, 310P)
    std::string bytes;  // empty without AI Core metrics or when no task is collected
};

// The records of the run's AI Core and AI Vector kernels (on coupled chips: AI Core), by end time.
RawPmuFile rawPmuRecords(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
