#pragma once
// Where each recorded step's time goes, as step_trace_time.csv splits it: Computing (union of
// kernels), Communication not overlapped by computing, and Free (the rest). A step spans from its
// ProfilerStep start to the later of its end and its last device task's end; a device task
// belongs to the last step that started at or before it. Used by the what-if jobs and the HTML
// report, which need the split without writing the profiler files.
#include <cstdint>
#include <vector>

#include "profiler/record/run_record.h"

namespace ascendsim {

struct StepSplit {
    std::uint32_t stepNumber = 0;
    double stepUs = 0, computingUs = 0, communicationUs = 0, freeUs = 0;
};

std::vector<StepSplit> computeStepSplits(const RunRecord& run);  // one per recorded step

}  // namespace ascendsim
