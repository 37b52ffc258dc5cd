#include "profiler/writers/era2023/era2023_step_trace.h"

#include "profiler/format/number_format.h"
#include "profiler/writers/timeline/msprof_timeline.h"

namespace ascendsim {

namespace {

constexpr const char* kNotAvailable = "N/A";
constexpr double kNsPerUs = 1000.0;

double durationUs(const StepRecord& step) { return static_cast<double>(step.endNs - step.startNs) / kNsPerUs; }

}  // namespace

CsvTable buildEra2023StepTraceTable(const RunRecord& run) {
    CsvTable table;
    table.header = {"Iteration ID",       "FP Start(us)",          "BP End(us)",          "Iteration End(us)",
                    "Iteration Time(us)", "FP to BP Time(us)",     "Iteration Refresh(us)", "Data Aug Bound(us)",
                    "Model ID"};
    std::uint32_t iteration = 0;
    for (const StepRecord& step : run.steps) {
        table.rows.push_back({std::to_string(++iteration), kNotAvailable, kNotAvailable,
                              traceTimestamp(run, step.endNs), pythonFloatRepr(durationUs(step)), kNotAvailable,
                              kNotAvailable, kNotAvailable, kNotAvailable});
    }
    return table;
}

std::vector<OrderedJson> buildEra2023StepTraceTimeline(const RunRecord& run) {
    std::vector<OrderedJson> events;
    if (run.steps.empty()) return events;
    // The Step Trace process sits in msprof's Ascend Hardware layer (trace_view_header_constant.py
    // LayerInfo). Assumed: sort index 12, just above the 2024-era Ascend Hardware (13), and tid 0
    // for the model-less thread the viewer would leave unnamed.
    constexpr std::uint32_t kStepTraceSortIndex = 12;
    const std::uint32_t pid = formatTracePid(run.processId, kStepTraceSortIndex, run.deviceId);
    events.push_back({{"name", "process_name"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", "Step Trace"}}}, {"ph", "M"}});
    std::uint32_t iteration = 0;
    for (const StepRecord& step : run.steps) {
        ++iteration;
        OrderedJson args = {{"Iteration ID", iteration},
                            {"FP Start", kNotAvailable},
                            {"BP End", kNotAvailable},
                            {"Iteration End", traceTimestamp(run, step.endNs)},
                            {"Iteration Time(us)", durationUs(step)}};
        events.push_back({{"name", "Iteration " + std::to_string(iteration)},
                          {"pid", pid},
                          {"tid", 0},
                          {"ts", traceTimestamp(run, step.startNs)},
                          {"dur", durationUs(step)},
                          {"args", std::move(args)},
                          {"cat", "Iteration Time"},
                          {"ph", "X"}});
    }
    return events;
}

}  // namespace ascendsim
