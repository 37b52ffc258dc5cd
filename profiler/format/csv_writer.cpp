#include "profiler/format/csv_writer.h"
#include "profiler/format/file_output.h"

#include <stdexcept>

namespace ascendsim {

std::string_view csvLineTerminator(CsvDialect dialect) {
    return dialect == CsvDialect::TorchNpu ? std::string_view("\r\n") : std::string_view("\n");
}

std::string csvField(std::string_view value, CsvDialect dialect) {
    if (dialect == CsvDialect::Cann) return std::string(value);
    // Python's excel dialect: quotechar '"', doublequote=True, QUOTE_MINIMAL on the special
    // characters delimiter, quotechar and the line-terminator characters.
    if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
    std::string quoted;
    quoted.reserve(value.size() + 2);
    quoted.push_back('"');
    for (char c : value) {
        if (c == '"') quoted.push_back('"');
        quoted.push_back(c);
    }
    quoted.push_back('"');
    return quoted;
}

namespace {
void appendRow(std::string& out, const CsvRow& row, CsvDialect dialect) {
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (i != 0) out.push_back(',');
        out += csvField(row[i], dialect);
    }
    out += csvLineTerminator(dialect);
}
}  // namespace

std::string renderCsv(const CsvTable& table, CsvDialect dialect) {
    if (table.rows.empty()) return {};
    std::string out;
    appendRow(out, table.header, dialect);
    for (const CsvRow& row : table.rows) appendRow(out, row, dialect);
    return out;
}

bool writeCsvFile(const std::filesystem::path& path, const CsvTable& table, CsvDialect dialect) {
    if (table.rows.empty()) return false;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    writeFileBytes(path, renderCsv(table, dialect));
    return true;
}

std::string cannEscapeQuotes(std::string_view value) {
    std::string out;
    out.reserve(value.size() + 4);
    for (char c : value) {
        if (c == '"') out += "\"\"\"";
        else out.push_back(c);
    }
    return out;
}

}  // namespace ascendsim
