#pragma once
// CANN's task_time_{ts}.csv (formats.md §3.14, §4.3): one row per device task, CANN dialect (LF,
// no quoting). One table, two destinations: PROF_*/mindstudio_profiler_output/task_time_{ts}.csv
// (data_simplification=False) and its copy ASCEND_PROFILER_OUTPUT/task_time.csv, which torch_npu's
// LEVEL_PARSER_CONFIG lists for Level0/1/2 (formats.md §1.6). No real sample has the copy, so
// ProfilerConfig::taskTimeCsv (--task-time-csv false) drops it to reproduce their file sets.
// Level0/1/2 with NPU activity only.
//
// Header: [Device_id,]kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),
// task_stop(us); start and stop are 3-decimal µs with a trailing TAB; rows by start time.
//
// Rows follow the two msprof exporters, read from the AscendTask list (ascend_tasks.h):
// - CANN 8.3 (msprof C++ analysis/csrc/application/summary/task_time_assembler.cpp): Device_id
//   first; every AscendTask, except that a task id with several entries (a collective's own task
//   and its HCCL contexts) keeps only its context-0 entries once one is met before any other
//   context (FilterAscendTaskData; the sample's HCCL contexts start with 0, so a collective at
//   Level1/2 shows one row, its first HCCL task). task_time(us) has 3 decimals.
//   kernel_type = the GE TaskInfo task type (op_summary's Task Type: AI_CORE, AI_VECTOR_CORE,
//   MIX_AIC, MIX_AIV, AI_CPU) unless it is N/A, as at Level0 (task time l0), then the AscendTask
//   type (KERNEL_AICORE, KERNEL_AIVEC, MIX_*, KERNEL_AICPU; SDMA / Write Value / Notify Wait for
//   HCCL contexts; AI_CORE for a collective's own task).
//   kernel_name = the runtime host task's kernel name, else the TaskInfo op name, else N/A.
// - CANN 8.0 and 2024 (msprof Python viewer/task_op_viewer.py, TaskOpViewer): no Device_id; only
//   tasks without a context ("non-ffts-plus"), so neither MIX kernels nor HCCL contexts appear;
//   kernel_type = the GE TaskInfo type when GE has the task (N/A at Level0), else the AscendTask
//   type; task_time(us) = round(ns / 1000, 3) printed by Python ("7.62", "50.0").
// Assumption (no sample): GE has no TaskInfo for a collective (op_summary takes collectives from
// HCCL data; the e5a31957 DB's COMPUTE_TASK_INFO has none) and the runtime gives its FFTS+ task no
// kernel name, so collective rows are named N/A.
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvTable buildTaskTimeTable(const RunRecord& run, const ProfilerConfig& config);
// The bytes of task_time_{ts}.csv and of its copy task_time.csv.
std::string renderTaskTimeCsv(const RunRecord& run, const ProfilerConfig& config);
// Writes `outputDir`/task_time.csv; false (and no file) when there is no row.
bool writeTaskTimeCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                      const ProfilerConfig& config);

}  // namespace ascendsim
