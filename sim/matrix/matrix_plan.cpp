#include "sim/matrix/matrix_plan.h"

#include <charconv>
#include <stdexcept>

namespace ascendsim {

namespace {

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::size_t end = comma == std::string::npos ? text.size() : comma;
        if (end > start) items.push_back(text.substr(start, end - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return items;
}

[[noreturn]] void badValue(const std::string& option, const std::string& value, const std::string& valid) {
    throw std::invalid_argument(option + ": unknown value '" + value + "' (valid: " + valid + ", or all)");
}

// Parses one axis: `all` gives `every`; otherwise each item through `parse`.
template <typename Value, typename Parse>
std::vector<Value> parseAxis(const std::string& option, const std::string& text, std::vector<Value> every,
                             const std::string& valid, Parse parse) {
    const std::vector<std::string> items = splitList(text);
    if (items.empty()) throw std::invalid_argument(option + ": empty list");
    if (items.size() == 1 && items.front() == "all") return every;
    std::vector<Value> values;
    for (const std::string& item : items) {
        Value value{};
        if (!parse(item, value)) badValue(option, item, valid);
        values.push_back(value);
    }
    return values;
}

bool parseLevelShorthand(const std::string& text, ProfilerLevel& out) {
    if (text == "L0") return out = ProfilerLevel::Level0, true;
    if (text == "L1") return out = ProfilerLevel::Level1, true;
    if (text == "L2") return out = ProfilerLevel::Level2, true;
    return parseProfilerLevel(text, out);
}

bool parseExports(const std::string& text, std::vector<ExportType>& out) {
    if (text == "text") return out = {ExportType::Text}, true;
    if (text == "db") return out = {ExportType::Db}, true;
    if (text == "text+db") return out = {ExportType::Text, ExportType::Db}, true;
    return false;
}

bool parseRankCount(const std::string& text, std::uint32_t& out) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    // The engine's own limit decides how many ranks a workload may have; 0 is never a world size.
    return error == std::errc() && end == text.data() + text.size() && out > 0;
}

template <typename Value, typename Name>
std::string validNames(const std::vector<Value>& values, Name name) {
    std::string joined;
    for (const Value& v : values) {
        if (!joined.empty()) joined += ", ";
        joined += name(v);
    }
    return joined;
}

}  // namespace

std::string exportTypesName(const std::vector<ExportType>& exports) {
    std::string name;
    for (ExportType e : exports) {
        if (!name.empty()) name += "+";
        name += e == ExportType::Text ? "text" : "db";
    }
    return name;
}

MatrixAxes parseMatrixAxes(const std::string& levels, const std::string& metrics, const std::string& eras,
                           const std::string& exports, const std::string& ranks) {
    MatrixAxes axes;
    axes.levels = parseAxis("--levels", levels, allProfilerLevels(),
                            validNames(allProfilerLevels(), profilerLevelName) + ", L0, L1, L2",
                            parseLevelShorthand);
    axes.metrics = parseAxis("--metrics", metrics, allAicMetrics(), validNames(allAicMetrics(), aicMetricsName),
                             [](const std::string& t, AicMetrics& m) { return parseAicMetrics(t, m); });
    axes.eras = parseAxis("--eras", eras, allFormatVersions(), validNames(allFormatVersions(), formatVersionName),
                          [](const std::string& t, FormatVersion& v) { return parseFormatVersion(t, v); });
    axes.exports = parseAxis<std::vector<ExportType>>(
        "--export", exports, {{ExportType::Text}, {ExportType::Db}, {ExportType::Text, ExportType::Db}},
        "text, db, text+db", parseExports);
    if (!ranks.empty()) {
        axes.ranks = parseAxis<std::uint32_t>("--ranks", ranks, {}, "positive integers", parseRankCount);
        if (axes.ranks.empty()) throw std::invalid_argument("--ranks: 'all' is not a rank count");
    }
    return axes;
}

std::vector<MatrixCombination> planMatrix(const MatrixAxes& axes) {
    std::vector<MatrixCombination> plan;
    const std::vector<std::uint32_t> rankCounts = axes.ranks.empty() ? std::vector<std::uint32_t>{0} : axes.ranks;
    for (ProfilerLevel level : axes.levels) {
        for (AicMetrics metrics : axes.metrics) {
            for (FormatVersion era : axes.eras) {
                for (const std::vector<ExportType>& exports : axes.exports) {
                    for (std::uint32_t ranks : rankCounts) {
                        MatrixCombination c;
                        c.level = level;
                        c.metrics = metrics;
                        c.era = era;
                        c.exports = exports;
                        c.ranks = ranks;
                        c.name = std::string(profilerLevelName(level)) + "-" + std::string(aicMetricsName(metrics)) +
                                 "-" + std::string(formatVersionName(era)) + "-" + exportTypesName(exports);
                        if (ranks > 0) c.name += "-r" + std::to_string(ranks);
                        const bool metricsCollected = level == ProfilerLevel::Level1 || level == ProfilerLevel::Level2;
                        if (!metricsCollected && metrics != AicMetrics::None) {
                            c.skipReason = "torch_npu forces aic_metrics to ACL_AICORE_NONE at " +
                                           std::string(profilerLevelName(level)) + " (formats.md §1.2)";
                        }
                        std::string exportArgument = exportTypesName(exports);
                        if (exportArgument == "text+db") exportArgument = "text,db";
                        c.runArguments = {"--level", std::string(profilerLevelName(level)), "--aic-metrics",
                                          std::string(aicMetricsName(metrics)), "--format-version",
                                          std::string(formatVersionName(era)), "--export-type", exportArgument};
                        if (ranks > 0) {
                            c.runArguments.push_back("--set");
                            c.runArguments.push_back("ranks=" + std::to_string(ranks));
                        }
                        plan.push_back(std::move(c));
                    }
                }
            }
        }
    }
    return plan;
}

}  // namespace ascendsim
