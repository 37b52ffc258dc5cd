#pragma once
// The exported part of a 2023 (CANN 6/7) PROF_* directory (issue 14; docs/output-formats.md,
// "The 2023 era"):
//
//   PROF_*/device_{id}/timeline/  msprof_{s}.json, step_trace_{s}.json, task_time_{s}.json
//   PROF_*/device_{id}/summary/   op_summary_{s}.csv, op_statistic_{s}.csv, step_trace_{s}.csv,
//                                 task_time_{s}.csv, fusion_op_{s}.csv, prof_rule_{id}.json,
//                                 aicpu_{s}.csv and l2_cache_{s}.csv when collected
//   PROF_*/analyze/               at Level1/2 (communication*.json when the run has collectives)
//
// with {s} = era2023FileSuffix. CSVs without rows are not written (msprof exports no empty
// summary), except fusion_op, whose header is all an eager run has (GE fuses nothing there).
#include <filesystem>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

// The 2023-era name of the device layer: CANN 6.x timelines call it "Task Scheduler" (CANN
// 6.3.RC2 "msprof*.json" page, area 4), later releases "Ascend Hardware".
inline constexpr const char* kEra2023TaskSchedulerName = "Task Scheduler";

// The msprof timeline with the 2023 process names, without the processes whose data the
// collection lacks (era2023_data_selection.h), the AI CPU tasks on their own layer when the AI CPU
// data is collected (era2023_ai_cpu_layer.h): MsprofTx, CANN (AscendCL), Task Scheduler, AI CPU.
std::vector<OrderedJson> era2023Timeline(const std::vector<OrderedJson>& msprofTimeline, const ProfilerConfig& config);

// The Task Scheduler layer alone (task_time_{s}.json): its metadata and X events.
std::vector<OrderedJson> era2023TaskTimeTimeline(const std::vector<OrderedJson>& msprofTimeline,
                                                 const RunRecord& run, const ProfilerConfig& config);

// fusion_op_{s}.csv's header line (Ascend/msprof msconfig/msprof_export_data_config.py).
std::string era2023FusionOpHeader();

// The files whose data the raw records carry (profiler/readers/prof_raw/raw_run_rebuild.h), all of
// them: the msprof and task_time timelines, op_summary, op_statistic, task_time, aicpu, l2_cache,
// step_trace, fusion_op, prof_rule, and analyze/ (the HCCL records).
void writeEra2023RawDataExport(const std::filesystem::path& profRoot, const RunRecord& run,
                               const ProfilerConfig& config, const std::vector<OrderedJson>& msprofTimeline);

// Writes the files above into `profRoot` (the PROF_* directory, which must exist), from the run itself.
void writeEra2023Export(const std::filesystem::path& profRoot, const RunRecord& run, const ProfilerConfig& config,
                        const std::vector<OrderedJson>& msprofTimeline);

}  // namespace ascendsim
