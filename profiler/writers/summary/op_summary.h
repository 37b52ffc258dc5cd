#pragma once
// CANN op_summary (formats.md §4.1, §3.1): one row per device task with its PMU metrics. It is
// both a file of its own (PROF_*/mindstudio_profiler_output/op_summary_{ts}.csv) and the source
// torch_npu derives kernel_details.csv from, so kernel_details_writer builds on this table.
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// The op_summary table with CANN header names. Cells hold *values*: a shape cell is the text
// "\"1,1024;1024\"" including its quotes; the CANN file applies cannEscapeQuotes on output.
// Rows are sorted by start time. Columns follow the level, the effective aic_metrics group, the
// chip (split chips add Mix Block Dim, Context ID and aic_/aiv_ metric pairs) and the format era.
// No rows at Level_none or without NPU activity.
CsvTable buildOpSummaryTable(const RunRecord& run, const ProfilerConfig& config);

// The bytes of op_summary_{ts}.csv: CANN dialect (LF, no quoting), shapes pre-escaped.
std::string renderOpSummaryCsv(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
