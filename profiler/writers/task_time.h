#pragma once
// CANN's task_time_{ts}.csv (formats.md §3.14) in PROF_*/mindstudio_profiler_output: one row per
// device task (LF, no quoting). torch_npu does not copy it into ASCEND_PROFILER_OUTPUT (no real
// sample has a task_time.csv there). Header Device_id,kernel_name,kernel_type,stream_id,task_id,
// task_time(us),task_start(us),task_stop(us); start/stop carry a trailing TAB; rows by start.
// Level0/1/2. (The 8.0 era has no Device_id column.)
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvTable buildTaskTimeTable(const RunRecord& run, const ProfilerConfig& config);
std::string renderTaskTimeCsv(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
