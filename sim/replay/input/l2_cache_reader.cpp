#include "sim/replay/input/l2_cache_reader.h"

#include <algorithm>

#include "profiler/format/csv_reader.h"
#include "sim/replay/input/export_file.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

namespace {

std::size_t requiredColumn(const CsvTable& table, std::string_view name, const std::filesystem::path& source) {
    const auto index = csvColumn(table, name);
    if (!index) throw ReplayInputError(source.string() + ":1: no column '" + std::string(name) + "'");
    return *index;
}

// The cell without the trailing TAB or spaces of CANN's Excel-safe numbers.
std::string trimmedCell(const std::string& cell) {
    const std::size_t end = cell.find_last_not_of("\t ");
    return end == std::string::npos ? std::string() : cell.substr(0, end + 1);
}

}  // namespace

L2VictimRates parseL2CacheCsv(std::string_view text, const std::filesystem::path& source) {
    const CsvTable table = parseCsv(text);
    if (table.header.empty()) throw ReplayInputError(source.string() + ": empty file");
    const std::size_t stream = requiredColumn(table, "Stream Id", source);
    const std::size_t task = requiredColumn(table, "Task Id", source);
    const std::size_t victim = requiredColumn(table, "Victim Rate", source);
    const std::size_t needed = std::max({stream, task, victim}) + 1;
    L2VictimRates rates;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const CsvRow& row = table.rows[r];
        const std::string where = source.string() + ":" + std::to_string(r + 2);
        if (row.size() == 1 && row[0].empty()) continue;  // a blank line
        if (row.size() < needed)
            throw ReplayInputError(where + ": row has " + std::to_string(row.size()) + " fields, the header " +
                                   std::to_string(table.header.size()));
        const std::string rate = trimmedCell(row[victim]);
        if (rate.empty() || rate == "N/A") continue;
        std::size_t used = 0;
        double value = -1.0;
        try {
            value = std::stod(rate, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != rate.size() || !(value >= 0.0 && value <= 1.0))
            throw ReplayInputError(where + ": field 'Victim Rate': not a rate in [0, 1]: '" + row[victim] + "'");
        rates[{trimmedCell(row[stream]), trimmedCell(row[task])}] = value;
    }
    return rates;
}

L2VictimRates readL2CacheCsv(const std::filesystem::path& file) {
    std::error_code missing;
    if (!std::filesystem::exists(file, missing)) return {};
    return parseL2CacheCsv(readExportFile(file), file);
}

}  // namespace ascendsim
