#include "profiler/writers/summary/op_statistic.h"

#include <algorithm>
#include <map>

#include "profiler/format/number_format.h"

namespace ascendsim {

namespace {

constexpr double kNsPerUs = 1000.0;
constexpr int kRatioFirstRoundDigits = 6;  // op_counter: round(ratio, 6), then round(…, 3)

struct OpGroup {
    std::string opType;
    std::string coreType;
    std::uint64_t count = 0;
    std::uint64_t totalNs = 0;
    std::uint64_t minNs = 0;
    std::uint64_t maxNs = 0;
};

std::string us(std::uint64_t ns) { return msprofDoubleToStr(static_cast<double>(ns) / kNsPerUs); }

}  // namespace

CsvTable buildOpStatisticTable(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    if (config.level != ProfilerLevel::Level1 && config.level != ProfilerLevel::Level2) return table;
    if (!config.activityNpu) return table;
    const bool deviceIdColumn = config.formatVersion == FormatVersion::Cann83;

    std::map<std::pair<std::string, std::string>, OpGroup> groups;
    for (const KernelRecord& kernel : run.kernels) {
        if (kernel.opType.empty() || kernel.opType == "N/A") continue;
        const std::string coreType(taskTypeName(kernel.device.type));
        const std::uint64_t durationNs = kernel.device.endNs - kernel.device.startNs;
        OpGroup& group = groups[{kernel.opType, coreType}];
        if (group.count == 0) {
            group.opType = kernel.opType;
            group.coreType = coreType;
            group.minNs = durationNs;
        }
        ++group.count;
        group.totalNs += durationNs;
        group.minNs = std::min(group.minNs, durationNs);
        group.maxNs = std::max(group.maxNs, durationNs);
    }
    std::vector<OpGroup> ordered;
    std::uint64_t grandTotalNs = 0;
    for (auto& [key, group] : groups) {
        ordered.push_back(group);
        grandTotalNs += group.totalNs;
    }
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const OpGroup& a, const OpGroup& b) { return a.totalNs > b.totalNs; });

    if (deviceIdColumn) table.header.emplace_back("Device_id");
    for (const char* name : {"OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)",
                             "Max Time(us)", "Ratio(%)"}) {
        table.header.emplace_back(name);
    }
    for (const OpGroup& group : ordered) {
        CsvRow row;
        if (deviceIdColumn) row.push_back(std::to_string(run.deviceId));
        row.push_back(group.opType);
        row.push_back(group.coreType);
        row.push_back(std::to_string(group.count));
        row.push_back(us(group.totalNs));
        row.push_back(us(group.minNs));
        row.push_back(us(group.totalNs / group.count));
        row.push_back(us(group.maxNs));
        const double ratio = grandTotalNs == 0 ? 0.0
                                               : static_cast<double>(group.totalNs) / grandTotalNs * 100.0;
        row.push_back(msprofDoubleToStr(sqliteRound(sqliteRound(ratio, kRatioFirstRoundDigits), 3)));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderOpStatisticCsv(const RunRecord& run, const ProfilerConfig& config) {
    return renderCsv(buildOpStatisticTable(run, config), CsvDialect::Cann);
}

bool writeOpStatisticCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                         const ProfilerConfig& config) {
    return writeCsvFile(outputDir / "op_statistic.csv", buildOpStatisticTable(run, config), CsvDialect::Cann);
}

}  // namespace ascendsim
