#pragma once
// PROF_*/device_{id}/data/ts_track.data.{id}.slice_0 (ACL_PROF_TRAINING_TRACE, sample.json
// ts_keypoint): the task scheduler's step trace, two 40-byte RawStepTrace records per profiler step,
// tag 60000 at its start and 60001 at its end, with the step number as index id. msprof pairs them
// by index id into its StepTime table (Ascend/msprof analysis/mscalculate/step_trace/
// create_step_table.py CreateStepTime, StepTraceConstant.STEP_START_TAG / STEP_END_TAG).
// Assumed (eager mode has no GE model and no public sample shows these fields): model id 0,
// stream and task id 0, mode 0.
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// The records of the run's steps, in time order; empty without ACL_PROF_TRAINING_TRACE or steps.
std::string rawStepTraceRecords(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
