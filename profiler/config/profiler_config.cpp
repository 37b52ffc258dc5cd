#include "profiler/config/profiler_config.h"

#include <algorithm>
#include <array>

namespace ascendsim {

namespace {
struct MetricsNames {
    std::string_view name;
    std::string_view aclName;
};
constexpr std::array<MetricsNames, 9> kMetricsNames = {{
    {"None", "ACL_AICORE_NONE"},
    {"PipeUtilization", "ACL_AICORE_PIPE_UTILIZATION"},
    {"ArithmeticUtilization", "ACL_AICORE_ARITHMETIC_UTILIZATION"},
    {"Memory", "ACL_AICORE_MEMORY_BANDWIDTH"},
    {"MemoryL0", "ACL_AICORE_L0B_AND_WIDTH"},
    {"MemoryUB", "ACL_AICORE_MEMORY_UB"},
    {"ResourceConflictRatio", "ACL_AICORE_RESOURCE_CONFLICT_RATIO"},
    {"L2Cache", "ACL_AICORE_L2_CACHE"},
    {"MemoryAccess", "ACL_AICORE_MEMORY_ACCESS"},
}};
constexpr std::array<std::string_view, 4> kLevelNames = {"Level_none", "Level0", "Level1", "Level2"};
constexpr std::array<std::string_view, 4> kFormatVersionNames = {"8.3", "8.0", "2024", "2023"};

template <typename Enum, std::size_t N>
std::vector<Enum> everyValue() {
    std::vector<Enum> values;
    for (std::size_t i = 0; i < N; ++i) values.push_back(static_cast<Enum>(i));
    return values;
}
}  // namespace

AicMetrics ProfilerConfig::effectiveAicMetrics() const {
    if (level == ProfilerLevel::Level0 || level == ProfilerLevel::LevelNone) return AicMetrics::None;
    return aicMetrics.value_or(AicMetrics::PipeUtilization);
}

bool ProfilerConfig::exportsText() const {
    return std::find(exportTypes.begin(), exportTypes.end(), ExportType::Text) != exportTypes.end();
}

bool ProfilerConfig::exportsDb() const {
    return std::find(exportTypes.begin(), exportTypes.end(), ExportType::Db) != exportTypes.end();
}

std::string_view profilerLevelName(ProfilerLevel l) { return kLevelNames[static_cast<std::size_t>(l)]; }

std::string_view aicMetricsName(AicMetrics m) { return kMetricsNames[static_cast<std::size_t>(m)].name; }
std::string_view aicMetricsAclName(AicMetrics m) {
    return kMetricsNames[static_cast<std::size_t>(m)].aclName;
}

std::string_view formatVersionName(FormatVersion v) {
    return kFormatVersionNames[static_cast<std::size_t>(v)];
}

std::vector<ProfilerLevel> allProfilerLevels() { return everyValue<ProfilerLevel, kLevelNames.size()>(); }
std::vector<AicMetrics> allAicMetrics() { return everyValue<AicMetrics, kMetricsNames.size()>(); }
std::vector<FormatVersion> allFormatVersions() {
    return everyValue<FormatVersion, kFormatVersionNames.size()>();
}

bool parseFormatVersion(std::string_view text, FormatVersion& out) {
    if (text == "8.3" || text == "cann8.3") return out = FormatVersion::Cann83, true;
    if (text == "8.0" || text == "cann8.0") return out = FormatVersion::Cann80, true;
    if (text == "2024") return out = FormatVersion::Era2024, true;
    if (text == "2023") return out = FormatVersion::Era2023, true;
    return false;
}

bool predates2025(FormatVersion v) { return v == FormatVersion::Era2024 || v == FormatVersion::Era2023; }

}  // namespace ascendsim
