#pragma once
// step_trace of the 2023 (CANN 6/7) export: summary/step_trace_{suffix}.csv and
// timeline/step_trace_{suffix}.json, one iteration per profiled step.
//
// Headers and event layout from the Python msprof (Ascend/msprof analysis/):
// msconfig/msprof_export_data_config.py ('step_trace' headers) plus the "Model ID" column
// viewer/training/step_trace_viewer.py appends; the "Iteration N" X event with args Iteration ID,
// FP Start, BP End, Iteration End, Iteration Time(us) and cat "Iteration Time" under a
// "Step Trace" process (TimeLineJsonMaker.make_iter_time, make_model_meta).
//
// Eager mode has no GE fp/bp points, so FP Start, BP End, FP to BP, Iteration Refresh and Data Aug
// Bound are N/A, as the viewer prints a NULL value (assumed: GE reports fp/bp marks only for graph
// models); the model id is N/A (DEFAULT_MODEL_ID). An iteration spans its torch step.
#include <vector>

#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

CsvTable buildEra2023StepTraceTable(const RunRecord& run);

// The Step Trace process events (metadata first); empty when the run has no steps.
std::vector<OrderedJson> buildEra2023StepTraceTimeline(const RunRecord& run);

}  // namespace ascendsim
