#pragma once
// torch_npu's own spellings of the profiler's enumerated settings, one parser for the workload's
// `profiler:` block and the command line (issue 14 item 6). A value may be written
//   - bare:                 Level1, PipeUtilization, Text, CPU
//   - with its class:       ProfilerLevel.Level1, AiCMetrics.PipeUtilization, ExportType.Db
//   - fully qualified:      torch_npu.profiler.ProfilerLevel.Level1, torch_npu.profiler.ProfilerActivity.NPU
//   - as the value torch_npu passes to CANN: "Level1", "ACL_AICORE_PIPE_UTILIZATION", "db", "text"
//   - aic metrics only:     the aclprofAicoreMetrics number E2E profiling's aiCoreMetricsType takes
//                           (0..6, 8, 0xFF = none)
// Sources: torch_npu/profiler/experimental_config.py (ProfilerLevel, AiCMetrics, ExportType and
// their Constant values in analysis/prof_common_func/_constant.py), torch_npu/profiler/__init__.py
// (ProfilerActivity.CPU/NPU), CANN's acl_prof.h aclprofAicoreMetrics (hicann/runtime
// docs/api_docs/aclprofAicoreMetrics.md: ARITHMETIC_UTILIZATION=0, PIPE_UTILIZATION=1,
// MEMORY_BANDWIDTH=2, L0B_AND_WIDTH=3, RESOURCE_CONFLICT_RATIO=4, MEMORY_UB=5, L2_CACHE=6,
// MEMORY_ACCESS=8, NONE=0xFF).
#include <cstdint>
#include <string>
#include <string_view>

#include "profiler/config/profiler_config.h"

namespace ascendsim {

enum class ProfilerActivity : std::uint8_t { Cpu, Npu };

// The enumerated settings a user spells; each names its torch_npu class for the messages.
enum class ProfilerSetting : std::uint8_t { Level, AicMetrics, ExportType, Activity };

bool parseExportType(std::string_view text, ExportType& out);
bool parseProfilerActivity(std::string_view text, ProfilerActivity& out);
// parseProfilerLevel and parseAicMetrics (declared in profiler_config.h) accept the same forms.

// "unknown profiler level 'Level3'; valid: Level_none, Level0, Level1, Level2 (bare, as
// ProfilerLevel.X or torch_npu.profiler.ProfilerLevel.X)": what an error says about `text`.
std::string unknownSpellingMessage(ProfilerSetting setting, std::string_view text);

}  // namespace ascendsim
