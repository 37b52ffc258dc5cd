#include "profiler/format/csv_reader.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ascendsim {

CsvTable parseCsv(std::string_view text) {
    std::vector<CsvRow> records;
    CsvRow record;
    std::string field;
    bool quoted = false;
    bool fieldStarted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty()) {
            quoted = true;
            fieldStarted = true;
        } else if (c == ',') {
            record.push_back(std::move(field));
            field.clear();
            fieldStarted = true;
        } else if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            record.push_back(std::move(field));
            records.push_back(std::move(record));
            record.clear();
            field.clear();
            fieldStarted = false;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (fieldStarted || !field.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
    }
    CsvTable table;
    if (records.empty()) return table;
    table.header = std::move(records.front());
    table.rows.assign(std::make_move_iterator(records.begin() + 1), std::make_move_iterator(records.end()));
    return table;
}

CsvTable readCsvFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return parseCsv(buffer.str());
}

std::optional<std::size_t> csvColumn(const CsvTable& table, std::string_view name) {
    const auto it = std::find(table.header.begin(), table.header.end(), name);
    if (it == table.header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - table.header.begin());
}

}  // namespace ascendsim
