#pragma once
// One table → bytes writer for every CSV the profiler produces (formats.md §2.1, §2.2; reference
// README observation 1). Two dialects exist because two programs write the real files:
//
// - TorchNpu: Python csv.writer, excel dialect (torch_npu FileManager.create_csv_file). Rows end
//   with CRLF; QUOTE_MINIMAL quotes a field containing ',', '"', '\r' or '\n' and doubles inner
//   quotes; a TAB alone is not quoted. Files torch_npu itself writes use it: kernel_details,
//   operator_details, step_trace_time, memory_record, operator_memory.
// - Cann: msprof's C++ CsvWriter. Fields joined with ',', rows end with LF, no quoting or escaping
//   at all (callers pre-escape shapes the way CANN does, see cannEscapeQuotes). Files torch_npu
//   copies verbatim from mindstudio_profiler_output use it too: op_statistic, api_statistic,
//   task_time, l2_cache, data_preprocess, and every op_summary_/…_{ts}.csv.
//
// An empty table (no data rows) produces no file at all, as create_csv_file returns early.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ascendsim {

enum class CsvDialect { TorchNpu, Cann };

using CsvRow = std::vector<std::string>;

struct CsvTable {
    CsvRow header;
    std::vector<CsvRow> rows;
};

// "\r\n" for TorchNpu, "\n" for Cann.
std::string_view csvLineTerminator(CsvDialect dialect);

// One field as the dialect writes it (TorchNpu: QUOTE_MINIMAL; Cann: verbatim).
std::string csvField(std::string_view value, CsvDialect dialect);

// Header plus rows, each row terminated; the empty string when the table has no rows.
std::string renderCsv(const CsvTable& table, CsvDialect dialect);

// Writes renderCsv() to `path` (creating parent directories). Returns false and writes nothing
// when the table has no rows; throws std::runtime_error when the file cannot be written.
bool writeCsvFile(const std::filesystem::path& path, const CsvTable& table, CsvDialect dialect);

// CANN's escapeQuotes for shape/dtype/format strings: every '"' becomes '"""'. Applied to the
// already-quoted shape text `"1,1024;1024"` it gives the raw op_summary cell `"""1,1024;1024"""`.
std::string cannEscapeQuotes(std::string_view value);

}  // namespace ascendsim
