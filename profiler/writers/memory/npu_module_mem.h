#pragma once
// npu_module_mem.csv (formats.md §3.8): per-module device memory reservations. Rows are grouped by
// component (first-appearance order stands in for CANN's module id order) and time-ordered within
// each; Total Reserved(MB) = float(KB)/1024; Device_id only in the Cann83 era.
#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvRow npuModuleMemHeader(FormatVersion version);

CsvTable buildNpuModuleMem(const RunRecord& run, FormatVersion version);

}  // namespace ascendsim
