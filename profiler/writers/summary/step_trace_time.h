#pragma once
// step_trace_time.csv (formats.md §3.4): torch_npu's TraceStepTimeParser applied to our own msprof
// timeline. Every number is what that Python code computes: floats parsed from the events' "ts"
// strings and "dur" numbers, sums that start from the int 0 (an empty bucket prints "0"), rows
// sorted by (device, int(step)). No Overlap Analysis event at all means no file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/timeline/trace_event.h"

namespace ascendsim {

// A step's device range as FwkCANNRelationParser.get_step_range builds it (absolute ns):
// start = first kernel of the step's lowest correlation id, end = max(last kernel of its highest
// correlation id, torch step end), fwkStart = the ProfilerStep op's start.
struct StepRange {
    std::string stepId;  // "50" (from ProfilerStep#50)
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint64_t fwkStartNs = 0;
};

// Empty when the run has no steps, or when any step has no kernel linked to a host op (torch_npu
// then gives up on steps and reports one step-less row).
std::vector<StepRange> computeStepRanges(const RunRecord& run);

// The header of the era (Cann83 has Device_id first).
CsvRow stepTraceTimeHeader(FormatVersion version);

// The table computed from `timeline` (the msprof events, before trace_view pruning). Rows are
// empty when the timeline has no Overlap Analysis event. `firstFrameworkOpNs` (absolute) is the
// earliest torch op, used for "Preparing" when there are no steps.
CsvTable buildStepTraceTime(const std::vector<TraceEvent>& timeline, const std::vector<StepRange>& steps,
                            std::optional<std::uint64_t> firstFrameworkOpNs, FormatVersion version);

}  // namespace ascendsim
