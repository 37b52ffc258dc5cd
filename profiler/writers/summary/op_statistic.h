#pragma once
// op_statistic.csv (formats.md §3.2): device tasks aggregated by (OP Type, Core Type), as CANN's
// op_statistic_{ts}.csv that torch_npu copies verbatim (LF, no quoting). Level1/2 only.
// Count, Total = Σ duration, Min, Avg = Σ ns / count (integer ns), Max, Ratio = Total / Σ Total ×
// 100 rounded to 6 then 3 decimals; numbers printed with DoubleToStr; rows by Total descending.
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvTable buildOpStatisticTable(const RunRecord& run, const ProfilerConfig& config);
std::string renderOpStatisticCsv(const RunRecord& run, const ProfilerConfig& config);
// Writes `outputDir`/op_statistic.csv; false (and no file) when there is no row.
bool writeOpStatisticCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                         const ProfilerConfig& config);

}  // namespace ascendsim
