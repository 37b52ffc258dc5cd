// torch_npu's spellings of levels, aic metrics, export types and activities (issue 14 item 6).
#include "profiler/config/torch_npu_spelling.h"

#include <gtest/gtest.h>

namespace ascendsim {
namespace {

template <typename Enum>
Enum parsed(bool (*parse)(std::string_view, Enum&), std::string_view text) {
    Enum value{};
    EXPECT_TRUE(parse(text, value)) << text;
    return value;
}

TEST(TorchNpuSpelling, LevelBareWithClassAndFullyQualified) {
    for (std::string_view text : {"Level1", "ProfilerLevel.Level1", "torch_npu.profiler.ProfilerLevel.Level1"})
        EXPECT_EQ(parsed(parseProfilerLevel, text), ProfilerLevel::Level1) << text;
    EXPECT_EQ(parsed(parseProfilerLevel, "torch_npu.profiler.ProfilerLevel.Level_none"), ProfilerLevel::LevelNone);
    EXPECT_EQ(parsed(parseProfilerLevel, "none"), ProfilerLevel::LevelNone);
    ProfilerLevel level{};
    EXPECT_FALSE(parseProfilerLevel("Level3", level));
    EXPECT_FALSE(parseProfilerLevel("torch_npu.profiler.Level1", level));  // not Python: the class is missing
    EXPECT_FALSE(parseProfilerLevel("AiCMetrics.Level1", level));
    EXPECT_FALSE(parseProfilerLevel("level1", level));  // Python names are case-sensitive
}

TEST(TorchNpuSpelling, AicMetricsNamesAclNamesAndAiCoreMetricsTypeNumbers) {
    EXPECT_EQ(parsed(parseAicMetrics, "torch_npu.profiler.AiCMetrics.PipeUtilization"), AicMetrics::PipeUtilization);
    EXPECT_EQ(parsed(parseAicMetrics, "AiCMetrics.MemoryL0"), AicMetrics::MemoryL0);
    EXPECT_EQ(parsed(parseAicMetrics, "ACL_AICORE_L0B_AND_WIDTH"), AicMetrics::MemoryL0);
    EXPECT_EQ(parsed(parseAicMetrics, "torch_npu.profiler.AiCMetrics.AiCoreNone"), AicMetrics::None);
    EXPECT_EQ(parsed(parseAicMetrics, "None"), AicMetrics::None);
    // aclprofAicoreMetrics: the numbers E2E profiling's aiCoreMetricsType takes.
    EXPECT_EQ(parsed(parseAicMetrics, "0"), AicMetrics::ArithmeticUtilization);
    EXPECT_EQ(parsed(parseAicMetrics, "1"), AicMetrics::PipeUtilization);
    EXPECT_EQ(parsed(parseAicMetrics, "2"), AicMetrics::Memory);
    EXPECT_EQ(parsed(parseAicMetrics, "3"), AicMetrics::MemoryL0);
    EXPECT_EQ(parsed(parseAicMetrics, "4"), AicMetrics::ResourceConflictRatio);
    EXPECT_EQ(parsed(parseAicMetrics, "5"), AicMetrics::MemoryUB);
    EXPECT_EQ(parsed(parseAicMetrics, "6"), AicMetrics::L2Cache);
    EXPECT_EQ(parsed(parseAicMetrics, "8"), AicMetrics::MemoryAccess);
    EXPECT_EQ(parsed(parseAicMetrics, "0xFF"), AicMetrics::None);
    EXPECT_EQ(parsed(parseAicMetrics, "0xff"), AicMetrics::None);
    EXPECT_EQ(parsed(parseAicMetrics, "255"), AicMetrics::None);
    AicMetrics m{};
    EXPECT_FALSE(parseAicMetrics("7", m));  // PIPE_EXECUTE_UTILIZATION: not a group torch_npu offers
    EXPECT_FALSE(parseAicMetrics("0x", m));
    EXPECT_FALSE(parseAicMetrics("1.0", m));
    EXPECT_FALSE(parseAicMetrics("AiCMetrics.ACL_AICORE_L0B_AND_WIDTH", m));
}

TEST(TorchNpuSpelling, ExportTypesAndActivities) {
    EXPECT_EQ(parsed(parseExportType, "torch_npu.profiler.ExportType.Db"), ExportType::Db);
    EXPECT_EQ(parsed(parseExportType, "ExportType.Text"), ExportType::Text);
    EXPECT_EQ(parsed(parseExportType, "db"), ExportType::Db);
    EXPECT_EQ(parsed(parseExportType, " text "), ExportType::Text);  // "text, db" on a command line
    EXPECT_EQ(parsed(parseProfilerActivity, "torch_npu.profiler.ProfilerActivity.NPU"), ProfilerActivity::Npu);
    EXPECT_EQ(parsed(parseProfilerActivity, "ProfilerActivity.CPU"), ProfilerActivity::Cpu);
    EXPECT_EQ(parsed(parseProfilerActivity, "CPU"), ProfilerActivity::Cpu);
    ExportType e{};
    EXPECT_FALSE(parseExportType("json", e));
    ProfilerActivity a{};
    EXPECT_FALSE(parseProfilerActivity("GPU", a));
}

TEST(TorchNpuSpelling, UnknownValuesListTheValidOnes) {
    EXPECT_EQ(unknownSpellingMessage(ProfilerSetting::Level, "Level3"),
              "unknown profiler level 'Level3'; valid: Level_none, Level0, Level1, Level2; each also as "
              "ProfilerLevel.X or torch_npu.profiler.ProfilerLevel.X");
    const std::string metrics = unknownSpellingMessage(ProfilerSetting::AicMetrics, "Pipes");
    EXPECT_NE(metrics.find("AiCoreNone (ACL_AICORE_NONE or 0xFF)"), std::string::npos) << metrics;
    EXPECT_NE(metrics.find("MemoryL0 (ACL_AICORE_L0B_AND_WIDTH or 3)"), std::string::npos) << metrics;
    EXPECT_NE(unknownSpellingMessage(ProfilerSetting::ExportType, "json").find("valid: Text (text), Db (db)"),
              std::string::npos);
    EXPECT_NE(unknownSpellingMessage(ProfilerSetting::Activity, "GPU").find("valid: CPU, NPU"), std::string::npos);
}

TEST(TorchNpuSpelling, AiCoreMetricsTypeIsProfileConfigsNumberOfTheSameTable) {
    std::uint32_t type = 0;
    for (const char* text : {"0xFF", "0xff", "255"}) {
        ASSERT_TRUE(parseAiCoreMetricsType(text, type)) << text;
        EXPECT_EQ(type, 0xFFu);
        EXPECT_EQ(aicMetricsOfType(type), AicMetrics::None);
    }
    ASSERT_TRUE(parseAiCoreMetricsType("3", type));
    EXPECT_EQ(aicMetricsOfType(type), AicMetrics::MemoryL0);
    // Each number names the group --aic-metrics gives it.
    for (std::uint32_t n : {0u, 1u, 2u, 3u, 4u, 5u}) {
        AicMetrics byName{};
        ASSERT_TRUE(parseAicMetrics(std::to_string(n), byName));
        EXPECT_EQ(aicMetricsOfType(n), byName) << n;
    }
    // profileConfig documents 0..5 and 0xFF only.
    for (const char* text : {"6", "8", "-1", "1.0", "", "0x100", "Pipe"}) EXPECT_FALSE(parseAiCoreMetricsType(text, type)) << text;
}

}  // namespace
}  // namespace ascendsim
