#pragma once
// task_time.csv (formats.md §3.14): one row per device task, CANN's task_time_{ts}.csv copied by
// torch_npu (LF, no quoting). Header Device_id,kernel_name,kernel_type,stream_id,task_id,
// task_time(us),task_start(us),task_stop(us); start/stop carry a trailing TAB; rows by start.
// Level0/1/2. (The 8.0 era has no Device_id column.)
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvTable buildTaskTimeTable(const RunRecord& run, const ProfilerConfig& config);
std::string renderTaskTimeCsv(const RunRecord& run, const ProfilerConfig& config);
bool writeTaskTimeCsv(const std::filesystem::path& outputDir, const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
