#include "profiler/writers/prof_raw/raw_step_trace_data.h"

#include <algorithm>
#include <vector>

#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/prof_raw/raw_clock.h"
#include "profiler/writers/prof_raw/raw_device_layouts.h"

namespace ascendsim {

std::string rawStepTraceRecords(const RunRecord& run, const ProfilerConfig& config) {
    if (!era2023DataSelection(config).stepTrace) return {};
    std::vector<RawStepTrace> marks;
    for (const StepRecord& step : run.steps) {
        RawStepTrace start;
        start.indexId = step.stepNumber;
        start.timestamp = rawSysCount(run, step.startNs);
        start.tagId = RawStepTrace::kStepStart;
        RawStepTrace end = start;
        end.timestamp = rawSysCount(run, step.endNs);
        end.tagId = RawStepTrace::kStepEnd;
        marks.push_back(start);
        marks.push_back(end);
    }
    std::stable_sort(marks.begin(), marks.end(),
                     [](const RawStepTrace& a, const RawStepTrace& b) { return a.timestamp < b.timestamp; });
    RawRecordBuffer out;
    for (const RawStepTrace& r : marks) encodeRaw(r, out);
    return out.bytes();
}

}  // namespace ascendsim
