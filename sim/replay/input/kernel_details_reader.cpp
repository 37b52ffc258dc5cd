#include "sim/replay/input/kernel_details_reader.h"

#include <optional>

#include "profiler/format/csv_reader.h"
#include "sim/replay/input/block_count.h"
#include "sim/replay/input/export_file.h"
#include "sim/replay/input/hccl_transfer_reader.h"

namespace ascendsim {

namespace {

bool hasColumn(const CsvTable& table, std::string_view name) { return csvColumn(table, name).has_value(); }

FormatVersion eraOf(const CsvTable& table, const std::filesystem::path& source) {
    if (hasColumn(table, "Device_id")) return FormatVersion::Cann83;
    if (hasColumn(table, "aic_total_cycles") || hasColumn(table, "Mix Block Dim")) return FormatVersion::Cann80;
    if (hasColumn(table, "total_cycles") || hasColumn(table, "HF32 Eligible")) return FormatVersion::Era2024;
    // Level0 (8 columns) is the same in 8.0 and 2024; neither has tensors, so the era changes nothing.
    if (!hasColumn(table, "Input Shapes") && hasColumn(table, "Duration(us)")) return FormatVersion::Cann80;
    throw ReplayInputError(source.string() + ":1: not a kernel_details header of a known era (8.3, 8.0, 2024)");
}

class RowReader {
public:
    RowReader(const CsvTable& table, const std::filesystem::path& source) : table_(table), source_(source) {}

    std::size_t column(std::string_view name) const {
        const auto index = csvColumn(table_, name);
        if (!index) throw ReplayInputError(source_.string() + ":1: no column '" + std::string(name) + "'");
        return *index;
    }

    const std::string& cell(const CsvRow& row, std::size_t line, std::size_t index) const {
        if (index >= row.size()) {
            throw ReplayInputError(source_.string() + ":" + std::to_string(line) + ": row has " +
                                   std::to_string(row.size()) + " fields, the header " +
                                   std::to_string(table_.header.size()));
        }
        return row[index];
    }

    // Numbers may carry the trailing TAB of Excel-safe cells; N/A and empty read as 0.
    double number(const CsvRow& row, std::size_t line, std::size_t index) const {
        const std::string& text = cell(row, line, index);
        if (text.empty() || text == "N/A") return 0.0;
        std::size_t used = 0;
        double value = 0.0;
        try {
            value = std::stod(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || (used < text.size() && text.find_first_not_of("\t ", used) != std::string::npos)) {
            throw ReplayInputError(source_.string() + ":" + std::to_string(line) + ": field '" +
                                   table_.header[index] + "': not a number: '" + text + "'");
        }
        return value;
    }

    // A block count: a whole number a core count can be (0 .. 2^32 - 1); anything else names the
    // line and field instead of wrapping in the conversion.
    std::uint32_t count(const CsvRow& row, std::size_t line, std::size_t index) const {
        const std::optional<std::uint32_t> blocks = blockCountFrom(number(row, line, index));
        if (!blocks) {
            throw ReplayInputError(source_.string() + ":" + std::to_string(line) + ": field '" +
                                   table_.header[index] + "': not a block count: '" + cell(row, line, index) + "'");
        }
        return *blocks;
    }

private:
    const CsvTable& table_;
    const std::filesystem::path& source_;
};

// The row's sides with cycles (RealKernel::sides); `idle` gets the prefixes whose total_cycles column
// the row fills with 0 (the side did not run).
std::vector<RealSideCycles> sidesOf(const CsvTable& table, const RowReader& reader, const CsvRow& row,
                                    std::size_t line, std::vector<std::string>& idle) {
    std::vector<RealSideCycles> sides;
    for (const char* prefix : {"aic_", "aiv_", ""}) {
        const std::string p(prefix);
        const auto cycles = csvColumn(table, p + "total_cycles");
        const auto time = csvColumn(table, p == "aiv_" ? "aiv_time(us)" : "aicore_time(us)");
        if (!cycles || !time) continue;
        RealSideCycles side{p, reader.number(row, line, *cycles), reader.number(row, line, *time)};
        if (side.totalCycles > 0.0 && side.coreTimeUs > 0.0) sides.push_back(side);
        else if (side.totalCycles <= 0.0) idle.push_back(p);
    }
    return sides;
}

}  // namespace

std::string unquoteCell(const std::string& cell) {
    if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"') return cell.substr(1, cell.size() - 2);
    return cell;
}

bool isCommunicationTask(std::string_view type, std::string_view acceleratorCore) {
    return type.starts_with("hcom_") || acceleratorCore == "COMMUNICATION" || acceleratorCore == "HCCL";
}

RealProfile parseKernelDetailsCsv(std::string_view text, const std::filesystem::path& source) {
    const CsvTable table = parseCsv(text);
    if (table.header.empty()) throw ReplayInputError(source.string() + ": empty file");
    RealProfile profile;
    profile.source = source;
    profile.exportType = "text";
    profile.era = eraOf(table, source);
    profile.hasShapes = hasColumn(table, "Input Shapes") && hasColumn(table, "Type");
    const RowReader reader(table, source);
    const std::size_t name = reader.column("Name");
    const std::size_t duration = reader.column("Duration(us)");
    const std::size_t blockDim = reader.column("Block Dim");
    const std::optional<std::size_t> type = csvColumn(table, "Type");
    const std::optional<std::size_t> core = csvColumn(table, "Accelerator Core");
    const std::optional<std::size_t> mix = csvColumn(table, "Mix Block Dim");
    const std::optional<std::size_t> stream = csvColumn(table, "Stream ID");
    const std::optional<std::size_t> task = csvColumn(table, "Task ID");
    const std::optional<std::size_t> start = csvColumn(table, "Start Time(us)");
    struct TensorColumn {
        const char* header;
        std::string RealKernel::*field;
    };
    const TensorColumn tensorColumns[] = {
        {"Input Shapes", &RealKernel::inputShapes},   {"Input Data Types", &RealKernel::inputDtypes},
        {"Input Formats", &RealKernel::inputFormats}, {"Output Shapes", &RealKernel::outputShapes},
        {"Output Data Types", &RealKernel::outputDtypes}, {"Output Formats", &RealKernel::outputFormats}};
    std::vector<std::pair<std::size_t, std::string RealKernel::*>> tensors;
    if (profile.hasShapes) {
        for (const auto& column : tensorColumns) tensors.emplace_back(reader.column(column.header), column.field);
    }
    std::vector<std::size_t> ratioColumns;
    for (std::size_t i = 0; i < table.header.size(); ++i) {
        if (isPipeColumn(table.header[i])) ratioColumns.push_back(i);
    }

    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const CsvRow& row = table.rows[r];
        const std::size_t line = r + 2;
        if (row.size() == 1 && row[0].empty()) continue;  // a blank line
        RealKernel kernel;
        kernel.sourceLine = line;
        kernel.name = reader.cell(row, line, name);
        kernel.type = type ? reader.cell(row, line, *type) : "N/A";
        kernel.acceleratorCore = core ? reader.cell(row, line, *core) : "N/A";
        kernel.durationUs = reader.number(row, line, duration);
        if (start) kernel.startNs = microsecondsTextToNs(reader.cell(row, line, *start)).value_or(-1);
        if (isCommunicationTask(kernel.type, kernel.acceleratorCore) || kernel.name.starts_with("hcom_")) {
            ++profile.communicationTasks;
            profile.communicationUs += kernel.durationUs;
            continue;
        }
        kernel.blockDim = reader.count(row, line, blockDim);
        if (stream) kernel.stream = reader.cell(row, line, *stream);
        if (task) kernel.taskId = reader.cell(row, line, *task);
        if (mix) kernel.mixBlockDim = reader.count(row, line, *mix);
        for (const auto& [index, field] : tensors) kernel.*field = unquoteCell(reader.cell(row, line, index));
        for (std::size_t index : ratioColumns) {
            if (reader.cell(row, line, index) == "N/A") continue;
            kernel.pipeRatios[table.header[index]] = reader.number(row, line, index);
        }
        kernel.sides = sidesOf(table, reader, row, line, kernel.idleSides);
        dropIdleSideRatios(kernel);
        profile.kernels.push_back(std::move(kernel));
    }
    return profile;
}

RealProfile readKernelDetailsCsv(const std::filesystem::path& file) { return parseKernelDetailsCsv(readExportFile(file), file); }

}  // namespace ascendsim
