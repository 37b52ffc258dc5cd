// The command line's profiler options take torch_npu's own spellings through the same parser as
// the workload's `profiler:` block (issue 14 item 6).
#include <gtest/gtest.h>

#include "sim/engine/simulation.h"

namespace ascendsim {
namespace {

Workload overridden(const SimulationOptions& options) {
    Workload w;
    applyProfilerOverrides(options, w);
    return w;
}

TEST(ProfilerOptionSpelling, TorchNpuNamesOnTheCommandLine) {
    SimulationOptions o;
    o.level = "torch_npu.profiler.ProfilerLevel.Level1";
    o.aicMetrics = "torch_npu.profiler.AiCMetrics.PipeUtilization";
    o.exportType = "torch_npu.profiler.ExportType.Text,ExportType.Db";
    o.activities = "torch_npu.profiler.ProfilerActivity.NPU";
    const ProfilerConfig p = overridden(o).profiler;
    EXPECT_EQ(p.level, ProfilerLevel::Level1);
    EXPECT_EQ(p.aicMetrics, AicMetrics::PipeUtilization);
    EXPECT_TRUE(p.exportsText());
    EXPECT_TRUE(p.exportsDb());
    EXPECT_FALSE(p.activityCpu);
    EXPECT_TRUE(p.activityNpu);
}

TEST(ProfilerOptionSpelling, AiCoreMetricsTypeNumbersAndAclNames) {
    SimulationOptions o;
    o.level = "ProfilerLevel.Level2";
    o.aicMetrics = std::string("3");  // not a char[2]: GCC 12 -Wrestrict false positive
    EXPECT_EQ(overridden(o).profiler.aicMetrics, AicMetrics::MemoryL0);
    o.aicMetrics = "0xFF";
    EXPECT_EQ(overridden(o).profiler.aicMetrics, AicMetrics::None);
    o.aicMetrics = "ACL_AICORE_ARITHMETIC_UTILIZATION";
    EXPECT_EQ(overridden(o).profiler.aicMetrics, AicMetrics::ArithmeticUtilization);
    o.activities = "CPU, NPU";
    const ProfilerConfig both = overridden(o).profiler;
    EXPECT_TRUE(both.activityCpu && both.activityNpu);
}

}  // namespace
}  // namespace ascendsim
