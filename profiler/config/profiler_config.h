#pragma once
// The profiler configuration, mirroring torch_npu.profiler: activities, schedule, switches and
// experimental_config (formats.md §1.2, §1.6). The workload's `profiler:` block and CLI flags fill
// it; writers read it to decide which files and columns to produce.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendsim {

enum class ProfilerLevel : std::uint8_t { LevelNone, Level0, Level1, Level2 };

// aic_metrics groups. `None` is ACL_AICORE_NONE.
enum class AicMetrics : std::uint8_t {
    None, PipeUtilization, ArithmeticUtilization, Memory, MemoryL0, MemoryUB,
    ResourceConflictRatio, L2Cache, MemoryAccess
};

enum class ExportType : std::uint8_t { Text, Db };

// Output-format era (issue 4, "Format eras"): which release's headers and value formats to mimic.
enum class FormatVersion : std::uint8_t {
    Cann83,   // CANN 8.3 / torch_npu 2.7 (default): Device_id columns, C++ number formats
    Cann80,   // CANN 8.0 on 910B (early 2025): no Device_id, Python number formats
    Era2024,  // 2024 on 910A: single core type, no aic_/aiv_ prefixes
};

struct ProfilerSchedule {
    std::uint32_t wait = 0, warmup = 0, active = 1, repeat = 0, skipFirst = 0;
};

struct ProfilerConfig {
    bool activityCpu = true;
    bool activityNpu = true;
    std::optional<ProfilerSchedule> schedule;  // absent: every step is profiled as one cycle
    bool recordShapes = false;
    bool profileMemory = false;
    bool withStack = false;
    bool withModules = false;
    bool withFlops = false;

    ProfilerLevel level = ProfilerLevel::Level0;
    std::optional<AicMetrics> aicMetrics;  // absent: the level's default (see effectiveAicMetrics)
    bool l2Cache = false;
    bool dataSimplification = true;
    bool recordOpArgs = false;
    bool msprofTx = false;
    bool opAttr = false;
    std::vector<ExportType> exportTypes{ExportType::Text};
    FormatVersion formatVersion = FormatVersion::Cann83;
    // ascendsim's own switch (--task-time-csv), not torch_npu's: ASCEND_PROFILER_OUTPUT/
    // task_time.csv, which formats.md §1.6 lists for Level0/1/2 but no real sample has; false
    // reproduces the samples' file sets. CANN's task_time_{ts}.csv is not affected.
    bool taskTimeCsv = true;

    // torch_npu forces ACL_AICORE_NONE at Level0/Level_none and defaults to PipeUtilization at
    // Level1/2 (formats.md §1.2).
    AicMetrics effectiveAicMetrics() const;
    bool exportsText() const;
    bool exportsDb() const;
};

std::string_view profilerLevelName(ProfilerLevel l);     // "Level0", "Level_none"
// Both accept every torch_npu spelling (ProfilerLevel.Level1, AiCMetrics.MemoryL0, ACL names,
// aiCoreMetricsType numbers): profiler/config/torch_npu_spelling.cpp.
bool parseProfilerLevel(std::string_view text, ProfilerLevel& out);
std::string_view aicMetricsName(AicMetrics m);           // "PipeUtilization"
std::string_view aicMetricsAclName(AicMetrics m);        // "ACL_AICORE_PIPE_UTILIZATION"
bool parseAicMetrics(std::string_view text, AicMetrics& out);
bool parseFormatVersion(std::string_view text, FormatVersion& out);  // "8.3", "8.0", "2024"
std::string_view formatVersionName(FormatVersion v);                 // "8.3", "8.0", "2024"

// Every value of each setting, in declaration order (for `ascendsim matrix ... all`).
std::vector<ProfilerLevel> allProfilerLevels();
std::vector<AicMetrics> allAicMetrics();
std::vector<FormatVersion> allFormatVersions();

}  // namespace ascendsim
