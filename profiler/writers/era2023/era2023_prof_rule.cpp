#include "profiler/writers/era2023/era2023_prof_rule.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "profiler/format/number_format.h"

namespace ascendsim {

namespace {

// data_manager.py: "Exceed the experience threshold 5%".
constexpr double kAiCpuRatioThreshold = 0.05;

struct Interval {
    double start, end;
};

std::optional<std::size_t> columnIndex(const CsvTable& table, std::string_view name) {
    const auto it = std::find(table.header.begin(), table.header.end(), name);
    if (it == table.header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - table.header.begin());
}

std::optional<double> number(const std::string& cell) {
    if (cell.empty() || cell == "N/A") return std::nullopt;
    try {
        return std::stod(cell);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// Sorted, merged intervals of the rows of one task type (SectionCalculator.merge_continuous_intervals).
std::vector<Interval> mergedIntervals(const CsvTable& table, std::string_view taskType) {
    const auto type = columnIndex(table, "Task Type");
    const auto start = columnIndex(table, "Task Start Time(us)");
    const auto duration = columnIndex(table, "Task Duration(us)");
    std::vector<Interval> intervals;
    if (!type || !start || !duration || table.rows.empty()) return intervals;
    // Start times are absolute µs (~1.7e15): a double keeps only quarter-µs there, so they are read
    // as long double and taken relative to the first row's whole µs before the arithmetic.
    const auto absolute = [](const std::string& cell) -> std::optional<long double> {
        try {
            return std::stold(cell);
        } catch (const std::exception&) {
            return std::nullopt;
        }
    };
    const long double base = std::floor(absolute(table.rows.front()[*start]).value_or(0.0L));
    for (const CsvRow& row : table.rows) {
        if (row[*type] != taskType) continue;
        const auto s = absolute(row[*start]);
        const auto d = number(row[*duration]);
        if (s && d) {
            const auto relative = static_cast<double>(*s - base);
            intervals.push_back({relative, relative + *d});
        }
    }
    std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<Interval> merged;
    for (const Interval& i : intervals) {
        if (!merged.empty() && i.start <= merged.back().end) merged.back().end = std::max(merged.back().end, i.end);
        else merged.push_back(i);
    }
    return merged;
}

double total(const std::vector<Interval>& intervals) {
    double sum = 0;
    for (const Interval& i : intervals) sum += i.end - i.start;
    return sum;
}

double overlap(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    double sum = 0;
    for (const Interval& x : a)
        for (const Interval& y : b) sum += std::max(0.0, std::min(x.end, y.end) - std::max(x.start, y.start));
    return sum;
}

OrderedJson opParallel(const CsvTable& table) {
    OrderedJson items = OrderedJson::array();
    const auto aiCore = mergedIntervals(table, "AI_CORE");
    const auto aiCpu = mergedIntervals(table, "AI_CPU");
    if (aiCore.empty() || aiCpu.empty()) return items;
    const double both = overlap(aiCore, aiCpu);
    const double coreOnly = total(aiCore) - both;
    const double cpuOnly = total(aiCpu) - both;
    const double sum = coreOnly + cpuOnly + both;
    if (sum <= 0 || cpuOnly / sum <= kAiCpuRatioThreshold) return items;
    OrderedJson data = {{"AI Core Execution Time(us)", coreOnly},
                        {"AI CPU Execution Time(us)", cpuOnly},
                        {"Concurrent AI Core and AI CPU Execution Time(us)", both}};
    OrderedJson result = {{"Rule Suggestion", "Replace the AI CPU operators by AI Core ones or overlap them with AI Core work"},
                          {"Tuning Data", std::move(data)}};
    items.push_back({{"Rule Type", "Operator Parallelism"},
                     {"Rule Description", "Identify the serial wait bottleneck between the AI CPU and AI Core."},
                     {"result", OrderedJson::array({std::move(result)})}});
    return items;
}

// data_manager.py ModelSummaryTuningDataHandle.BOUND_TYPE.
const std::array<std::pair<const char*, std::vector<std::string_view>>, 4>& boundTypes() {
    static const std::array<std::pair<const char*, std::vector<std::string_view>>, 4> types = {{
        {"Cube Utilization", {"mac_ratio", "aic_mac_ratio"}},
        {"Vector Utilization", {"vec_ratio", "aiv_vec_ratio"}},
        {"Scalar Utilization", {"scalar_ratio", "aic_scalar_ratio", "aiv_scalar_ratio"}},
        {"MTE Utilization",
         {"mte1_ratio", "mte2_ratio", "mte3_ratio", "aic_mte1_ratio", "aic_mte2_ratio", "aic_mte3_ratio",
          "aiv_mte1_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio"}},
    }};
    return types;
}

OrderedJson modelSummary(const CsvTable& table, const ProfilerConfig& config) {
    OrderedJson items = OrderedJson::array();
    if (config.effectiveAicMetrics() != AicMetrics::PipeUtilization || table.rows.empty()) return items;
    const auto type = columnIndex(table, "Task Type");
    const auto duration = columnIndex(table, "Task Duration(us)");
    if (!type || !duration) return items;
    std::array<double, 4> durations{};
    for (const CsvRow& row : table.rows) {
        if (row[*type] == "AI_CPU") continue;
        std::array<double, 4> ratios{};
        for (std::size_t b = 0; b < boundTypes().size(); ++b) {
            for (std::string_view column : boundTypes()[b].second) {
                const auto index = columnIndex(table, column);
                if (const auto v = index ? number(row[*index]) : std::nullopt) ratios[b] = std::max(ratios[b], *v);
            }
        }
        // max() keeps the first of equal ratios, as Python's max over the dict does.
        const auto bound = static_cast<std::size_t>(std::max_element(ratios.begin(), ratios.end()) - ratios.begin());
        if (ratios[bound] <= 0) continue;
        if (const auto d = number(row[*duration])) durations[bound] += *d;
    }
    OrderedJson data = OrderedJson::object();
    for (std::size_t b = 0; b < boundTypes().size(); ++b) data[boundTypes()[b].first] = sqliteRound(durations[b], 3);
    OrderedJson result = {{"Rule Suggestion", "Task duration of the AI Core operators by their bound type"},
                          {"Tuning Data", std::move(data)}};
    items.push_back({{"Rule Type", "Model Bottleneck Analysis"},
                     {"Rule Description",
                      "Identify model bottleneck distribution indicated by cube, vector, scalar and mte utilization."},
                     {"result", OrderedJson::array({std::move(result)})}});
    return items;
}

}  // namespace

OrderedJson buildEra2023ProfRule(const CsvTable& opSummary, const ProfilerConfig& config) {
    OrderedJson data = OrderedJson::object();
    data["Op Summary"] = OrderedJson::array();
    data["Op Parallel"] = opParallel(opSummary);
    data["Model Summary"] = modelSummary(opSummary, config);
    return OrderedJson{{"data", std::move(data)}};
}

std::string renderEra2023ProfRule(const CsvTable& opSummary, const ProfilerConfig& config) {
    return dumpPythonJson(buildEra2023ProfRule(opSummary, config), false);
}

}  // namespace ascendsim
