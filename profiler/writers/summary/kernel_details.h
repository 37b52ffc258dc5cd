#pragma once
// ASCEND_PROFILER_OUTPUT/kernel_details.csv (formats.md §3.1): torch_npu's view of CANN
// op_summary. Level0 keeps [Step Id,][Device_id,]Name,Type,Accelerator Core,Start Time(us),
// Duration(us),Wait Time(us),Block Dim; Level1/2 keep every op_summary column. Renamed columns:
// Op Name→Name, OP Type→Type, Task Type→Accelerator Core, Task Start/Duration/Wait Time→
// Start Time/Duration/Wait Time. With device step ranges (step_trace_time.h computeStepRanges), a
// first Step Id column: a kernel belongs to the first step whose range contains it by *string*
// comparison of its Start Time text (3 decimals + TAB) with the range texts (3 decimals), so a
// kernel starting exactly at a step's end is outside it; outside every step the cell is empty.
// Written by Python's csv writer: CRLF, QUOTE_MINIMAL (shape """…""").
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvTable buildKernelDetailsTable(const RunRecord& run, const ProfilerConfig& config);

// The file's bytes; empty when there is no kernel (then no file is written).
std::string renderKernelDetailsCsv(const RunRecord& run, const ProfilerConfig& config);

// Writes `outputDir`/kernel_details.csv; false (and no file) when there is nothing to write.
bool writeKernelDetailsCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                           const ProfilerConfig& config);

}  // namespace ascendsim
