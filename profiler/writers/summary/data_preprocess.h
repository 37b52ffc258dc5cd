#pragma once
// data_preprocess.csv (formats.md §3.13; Level2): AI CPU tasks, CANN's aicpu_{ts}.csv copied by
// torch_npu (LF, no quoting): [Device_id,]Timestamp(us),Node,Compute_time(us),Memcpy_time(us),
// Task_time(us),Dispatch_time(us),Total_time(us),Stream ID,Task ID. No real sample exists.
// From the record: Compute_time = Task_time = device execution; Memcpy_time = 0 (the AI CPU model
// does no host-device copy); Dispatch_time = device start − submit; Total = end − submit.
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvTable buildDataPreprocessTable(const RunRecord& run, const ProfilerConfig& config);
std::string renderDataPreprocessCsv(const RunRecord& run, const ProfilerConfig& config);
bool writeDataPreprocessCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                            const ProfilerConfig& config);

}  // namespace ascendsim
