#pragma once
// l2_cache.csv (formats.md §3.12; l2_cache=True): per AI Core task, CANN's l2_cache_{ts}.csv
// copied by torch_npu (LF, no quoting): [Device_id,]Stream Id,Task Id,Hit Rate,Victim Rate,Op Name.
// - Hit Rate = L2 hits / (hits + miss-allocates) over the task's L2 events; split (stars) chips
//   print "N/A" as the real tool does there.
// - Victim Rate = victim lines / L2 accesses. The memory model writes only dirty victims back to
//   HBM (models/memory/shared_memory_system.h), so victim lines = main_mem_write bytes / L2 line.
// Rates are rounded to 6 decimals and printed as Python floats ("0.066608", "4.1e-05", "0.0").
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

struct L2CacheRates {
    double hitRate = 0.0;
    double victimRate = 0.0;
    std::uint64_t accesses = 0;
};

// From a task's summed AIC + AIV counters and the chip's L2 line size.
L2CacheRates l2CacheRates(const TaskResult& task, const ChipConfig& chip);

CsvTable buildL2CacheTable(const RunRecord& run, const ProfilerConfig& config);
std::string renderL2CacheCsv(const RunRecord& run, const ProfilerConfig& config);
bool writeL2CacheCsv(const std::filesystem::path& outputDir, const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
