#pragma once
// api_statistic.csv (formats.md §3.9): host CANN API calls grouped by (API Name, Level) in name
// order, as CANN's api_statistic_{ts}.csv that torch_npu copies (LF, no quoting). Level1/2 only;
// runtime APIs are collected at Level2 only (RUNTIME_API, formats.md §1.6).
// Time = Σ, Avg = round3(Σ/n), Min, Max, Variance = round3(Σ(d − avg)²/n) (population), all in µs
// from 3-decimal durations, printed with DoubleToStr. Device_id is the literal "host" (8.3 era);
// the 8.0 era has no Device_id and calls the communication level "hccl".
#include <filesystem>
#include <string>
#include <string_view>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// "acl", "model", "node", "communication" ("hccl" before 8.3), "runtime".
std::string_view apiLevelStatisticName(ApiLevel level, FormatVersion version);

CsvTable buildApiStatisticTable(const RunRecord& run, const ProfilerConfig& config);
std::string renderApiStatisticCsv(const RunRecord& run, const ProfilerConfig& config);
bool writeApiStatisticCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                          const ProfilerConfig& config);

}  // namespace ascendsim
