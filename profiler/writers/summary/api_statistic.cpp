#include "profiler/writers/summary/api_statistic.h"

#include <algorithm>
#include <map>

#include "profiler/format/number_format.h"

namespace ascendsim {

namespace {
constexpr double kNsPerUs = 1000.0;
}

std::string_view apiLevelStatisticName(ApiLevel level, FormatVersion version) {
    switch (level) {
    case ApiLevel::Acl: return "acl";
    case ApiLevel::Model: return "model";
    case ApiLevel::Node: return "node";
    case ApiLevel::Communication: return version == FormatVersion::Cann83 ? "communication" : "hccl";
    case ApiLevel::Runtime: return "runtime";
    }
    return "acl";
}

CsvTable buildApiStatisticTable(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    if (config.level != ProfilerLevel::Level1 && config.level != ProfilerLevel::Level2) return table;
    const bool deviceIdColumn = config.formatVersion == FormatVersion::Cann83;

    // std::map over (name, level): the order msprof's C++ assembler emits.
    std::map<std::pair<std::string, std::string>, std::vector<double>> durationsUs;
    for (const ApiRecord& api : run.apis) {
        if (api.level == ApiLevel::Runtime && config.level != ProfilerLevel::Level2) continue;
        const std::string level(apiLevelStatisticName(api.level, config.formatVersion));
        // Durations are ns → 3-decimal µs first, so sums work on the printed values.
        durationsUs[{api.name, level}].push_back(static_cast<double>(api.endNs - api.startNs) / kNsPerUs);
    }

    if (deviceIdColumn) table.header.emplace_back("Device_id");
    for (const char* name : {"Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)", "Variance"}) {
        table.header.emplace_back(name);
    }
    for (const auto& [key, durations] : durationsUs) {
        const auto n = static_cast<double>(durations.size());
        double total = 0.0;
        for (double d : durations) total += d;
        const double average = total / n;
        double squares = 0.0;
        for (double d : durations) squares += (d - average) * (d - average);
        CsvRow row;
        if (deviceIdColumn) row.emplace_back("host");
        row.push_back(key.second);
        row.push_back(key.first);
        row.push_back(msprofDoubleToStr(total));
        row.push_back(std::to_string(durations.size()));
        row.push_back(msprofDoubleToStr(sqliteRound(average, 3)));
        row.push_back(msprofDoubleToStr(*std::min_element(durations.begin(), durations.end())));
        row.push_back(msprofDoubleToStr(*std::max_element(durations.begin(), durations.end())));
        row.push_back(msprofDoubleToStr(sqliteRound(squares / n, 3)));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderApiStatisticCsv(const RunRecord& run, const ProfilerConfig& config) {
    return renderCsv(buildApiStatisticTable(run, config), CsvDialect::Cann);
}

bool writeApiStatisticCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                          const ProfilerConfig& config) {
    return writeCsvFile(outputDir / "api_statistic.csv", buildApiStatisticTable(run, config), CsvDialect::Cann);
}

}  // namespace ascendsim
