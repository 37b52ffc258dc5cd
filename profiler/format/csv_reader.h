#pragma once
// Reads back the CSVs the profiler writes (and the real ones): both dialects of csv_writer.h —
// Python's QUOTE_MINIMAL with CRLF and msprof's unquoted LF rows. Used by `ascendsim compare`
// and by the tests that check our files against the real samples.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "profiler/format/csv_writer.h"

namespace ascendsim {

// The first record is the header; a quoted field keeps embedded commas, newlines and doubled
// quotes as Python's csv module reads them.
CsvTable parseCsv(std::string_view text);

// Throws std::runtime_error naming the file when it cannot be read.
CsvTable readCsvFile(const std::filesystem::path& path);

std::optional<std::size_t> csvColumn(const CsvTable& table, std::string_view name);

}  // namespace ascendsim
