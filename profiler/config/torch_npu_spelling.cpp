// One table per enumerated setting: torch_npu's attribute name, the string torch_npu hands to
// CANN, ascendsim's older aliases and (aic metrics) the aclprofAicoreMetrics number. Sources in
// the header.
#include "profiler/config/torch_npu_spelling.h"

#include <array>
#include <charconv>
#include <span>

namespace ascendsim {

namespace {

constexpr int kNoNumber = -1;

struct Spelling {
    std::uint8_t value;                      // the enum's underlying value
    std::string_view name;                   // torch_npu's attribute: ProfilerLevel.<name>
    std::string_view cannValue;              // what torch_npu passes on ("ACL_AICORE_NONE"); may be empty
    std::array<std::string_view, 3> aliases;  // other spellings ascendsim accepted before; may be empty
    int aclNumber = kNoNumber;               // aclprofAicoreMetrics value (aic metrics only)
};

constexpr std::array<Spelling, 4> kLevels = {{
    {0, "Level_none", "", {"none", "Level_None", "LevelNone"}},
    {1, "Level0", "", {}},
    {2, "Level1", "", {}},
    {3, "Level2", "", {}},
}};
static_assert(static_cast<int>(ProfilerLevel::Level2) == 3);

// AiCMetrics.AiCoreNone is ascendsim's AicMetrics::None, whose name writers print as "None".
constexpr std::array<Spelling, 9> kMetrics = {{
    {0, "AiCoreNone", "ACL_AICORE_NONE", {"None"}, 0xFF},
    {1, "PipeUtilization", "ACL_AICORE_PIPE_UTILIZATION", {}, 1},
    {2, "ArithmeticUtilization", "ACL_AICORE_ARITHMETIC_UTILIZATION", {}, 0},
    {3, "Memory", "ACL_AICORE_MEMORY_BANDWIDTH", {}, 2},
    {4, "MemoryL0", "ACL_AICORE_L0B_AND_WIDTH", {}, 3},
    {5, "MemoryUB", "ACL_AICORE_MEMORY_UB", {}, 5},
    {6, "ResourceConflictRatio", "ACL_AICORE_RESOURCE_CONFLICT_RATIO", {}, 4},
    {7, "L2Cache", "ACL_AICORE_L2_CACHE", {}, 6},
    {8, "MemoryAccess", "ACL_AICORE_MEMORY_ACCESS", {}, 8},
}};
static_assert(static_cast<int>(AicMetrics::MemoryAccess) == 8 && static_cast<int>(AicMetrics::L2Cache) == 7);

constexpr std::array<Spelling, 2> kExportTypes = {{
    {0, "Text", "text", {}},
    {1, "Db", "db", {}},
}};

constexpr std::array<Spelling, 2> kActivities = {{
    {0, "CPU", "", {}},
    {1, "NPU", "", {}},
}};

struct SettingTable {
    std::string_view what;       // "profiler level", for messages
    std::string_view className;  // torch_npu's class: ProfilerLevel
    std::span<const Spelling> values;
};

SettingTable tableOf(ProfilerSetting setting) {
    switch (setting) {
        case ProfilerSetting::Level: return {"profiler level", "ProfilerLevel", kLevels};
        case ProfilerSetting::AicMetrics: return {"aic_metrics", "AiCMetrics", kMetrics};
        case ProfilerSetting::ExportType: return {"export type", "ExportType", kExportTypes};
        case ProfilerSetting::Activity: return {"activity", "ProfilerActivity", kActivities};
    }
    return {"activity", "ProfilerActivity", kActivities};
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// "torch_npu.profiler.ProfilerLevel.Level1" and "ProfilerLevel.Level1" -> "Level1". The module
// prefix needs the class after it (torch_npu.profiler.Level1 is not Python).
std::string_view unqualified(std::string_view text, std::string_view className) {
    constexpr std::string_view kModule = "torch_npu.profiler.";
    std::string_view rest = text;
    const bool qualified = rest.starts_with(kModule);
    if (qualified) rest.remove_prefix(kModule.size());
    if (rest.starts_with(className) && rest.size() > className.size() && rest[className.size()] == '.')
        return rest.substr(className.size() + 1);
    return qualified ? text : rest;
}

// "1", "0xFF", "255": an aclprofAicoreMetrics number; -1 when the text is not a number.
int numberOf(std::string_view text) {
    int base = 10;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        text.remove_prefix(2);
        base = 16;
    }
    int value = kNoNumber;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return kNoNumber;
    return value;
}

const Spelling* find(ProfilerSetting setting, std::string_view text) {
    const SettingTable table = tableOf(setting);
    text = trimmed(text);
    const std::string_view bare = unqualified(text, table.className);
    const int number = numberOf(text);
    for (const Spelling& s : table.values) {
        if (bare == s.name || (!s.cannValue.empty() && text == s.cannValue)) return &s;
        if (number != kNoNumber && number == s.aclNumber) return &s;
        for (std::string_view alias : s.aliases)
            if (!alias.empty() && text == alias) return &s;
    }
    return nullptr;
}

template <typename Enum>
bool parseSetting(ProfilerSetting setting, std::string_view text, Enum& out) {
    const Spelling* s = find(setting, text);
    if (s) out = static_cast<Enum>(s->value);
    return s != nullptr;
}

std::string hex(int value) {
    constexpr std::string_view kDigits = "0123456789ABCDEF";
    return std::string("0x") + kDigits[(value >> 4) & 0xF] + kDigits[value & 0xF];
}

}  // namespace

// aiCoreMetricsType is the aclprofAicoreMetrics number of kMetrics; profileConfig documents
// 0..5 and 0xFF (CANN 7.0 torch_npu.npu.profileConfig page), so L2Cache (6) and MemoryAccess (8)
// stay --aic-metrics spellings only.
bool parseAiCoreMetricsType(std::string_view text, std::uint32_t& out) {
    constexpr int kLastProfileConfigNumber = 5, kNone = 0xFF;
    const int number = numberOf(trimmed(text));
    if (number == kNoNumber || (number > kLastProfileConfigNumber && number != kNone)) return false;
    out = static_cast<std::uint32_t>(number);
    return true;
}

AicMetrics aicMetricsOfType(std::uint32_t aiCoreMetricsType) {
    for (const Spelling& s : kMetrics)
        if (s.aclNumber == static_cast<int>(aiCoreMetricsType)) return static_cast<AicMetrics>(s.value);
    return AicMetrics::None;
}

bool parseProfilerLevel(std::string_view text, ProfilerLevel& out) {
    return parseSetting(ProfilerSetting::Level, text, out);
}
bool parseAicMetrics(std::string_view text, AicMetrics& out) {
    return parseSetting(ProfilerSetting::AicMetrics, text, out);
}
bool parseExportType(std::string_view text, ExportType& out) {
    return parseSetting(ProfilerSetting::ExportType, text, out);
}
bool parseProfilerActivity(std::string_view text, ProfilerActivity& out) {
    return parseSetting(ProfilerSetting::Activity, text, out);
}

std::string unknownSpellingMessage(ProfilerSetting setting, std::string_view text) {
    const SettingTable table = tableOf(setting);
    std::string message = "unknown " + std::string(table.what) + " '" + std::string(text) + "'; valid: ";
    bool first = true;
    for (const Spelling& s : table.values) {
        message += first ? "" : ", ";
        first = false;
        message += s.name;
        std::string others;
        if (!s.cannValue.empty()) others += s.cannValue;
        if (s.aclNumber != kNoNumber)
            others += (others.empty() ? "" : " or ") +
                      (s.aclNumber > 9 ? hex(s.aclNumber) : std::to_string(s.aclNumber));
        if (!others.empty()) message += " (" + others + ")";
    }
    const std::string cls(table.className);
    message += "; each also as " + cls + ".X or torch_npu.profiler." + cls + ".X";
    return message;
}

}  // namespace ascendsim
