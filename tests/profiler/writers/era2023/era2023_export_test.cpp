// The 2023 (CANN 6/7) export: file names, folders, step trace, fusion_op header, prof_rule.
#include "profiler/writers/era2023/era2023_export.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/era2023/era2023_file_names.h"
#include "profiler/writers/era2023/era2023_prof_rule.h"
#include "profiler/writers/era2023/era2023_step_trace.h"
#include "profiler/writers/summary/op_summary.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "support/scratch_dir.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;
using namespace testing_support;

ProfilerConfig era2023(ProfilerLevel level) {
    ProfilerConfig config;
    config.level = level;
    config.formatVersion = FormatVersion::Era2023;
    config.dataSimplification = false;
    return config;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

KernelRecord aiCpuKernel(std::uint64_t startNs, std::uint64_t durationNs) {
    KernelRecord k = addKernel(startNs, durationNs);
    k.name = "Unique";
    k.opType = "Unique";
    k.device.type = TaskType::AiCpu;
    k.device.blocks.clear();
    return k;
}

TEST(Era2023FileNames, SingleOperatorSceneHasNoModelId) {
    EXPECT_EQ(era2023FileSuffix(0, std::nullopt), "0_1");
    EXPECT_EQ(era2023FileSuffix(3, 7, 2), "3_7_2");
    EXPECT_EQ(era2023FileName("op_summary", "0_1", "csv"), "op_summary_0_1.csv");
}

TEST(Era2023StepTrace, OneIterationPerStepWithNaForTheGraphOnlyColumns) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildEra2023StepTraceTable(threeKernelRun(chip));
    EXPECT_EQ(joinHeader(table.header),
              "Iteration ID,FP Start(us),BP End(us),Iteration End(us),Iteration Time(us),FP to BP Time(us),"
              "Iteration Refresh(us),Data Aug Bound(us),Model ID");
    ASSERT_EQ(table.rows.size(), 1U);
    EXPECT_EQ(table.rows[0][0], "1");
    EXPECT_EQ(table.rows[0][1], "N/A");
    EXPECT_EQ(table.rows[0][3], "1764246877009000.000");  // epoch + step end 9 ms
    EXPECT_EQ(table.rows[0][4], "8999.0");                // (9'000'000 - 1'000) ns in µs
}

TEST(Era2023StepTrace, TimelineHasAStepTraceProcessAndAnXEventPerIteration) {
    const ChipConfig chip = splitChip();
    const auto events = buildEra2023StepTraceTimeline(threeKernelRun(chip));
    ASSERT_EQ(events.size(), 2U);
    EXPECT_EQ(events[0]["args"]["name"], "Step Trace");
    EXPECT_EQ(events[1]["name"], "Iteration 1");
    EXPECT_EQ(events[1]["ph"], "X");
    EXPECT_EQ(events[1]["cat"], "Iteration Time");
    EXPECT_DOUBLE_EQ(events[1]["dur"].get<double>(), 8999.0);
    EXPECT_TRUE(buildEra2023StepTraceTimeline(RunRecord{}).empty());
}

TEST(Era2023Export, WritesTheDeviceTimelineAndSummaryFoldersAndAnalyzeAtLevel1) {
    const ChipConfig chip = splitChip();
    const RunRecord run = threeKernelRun(chip);
    const ProfilerConfig config = era2023(ProfilerLevel::Level1);
    const fs::path root = testing_scratch::scratchDir("era2023_export") / "PROF_000001_x_Y";
    fs::remove_all(root);
    fs::create_directories(root);
    writeEra2023Export(root, run, config, buildMsprofTimeline(run, config));
    for (const char* file : {"timeline/msprof_0_1.json", "timeline/task_time_0_1.json", "timeline/step_trace_0_1.json",
                             "summary/op_summary_0_1.csv", "summary/op_statistic_0_1.csv",
                             "summary/step_trace_0_1.csv", "summary/task_time_0_1.csv", "summary/fusion_op_0_1.csv",
                             "summary/prof_rule_0.json"}) {
        EXPECT_TRUE(fs::is_regular_file(root / "device_0" / file)) << file;
    }
    EXPECT_TRUE(fs::is_directory(root / "analyze"));
    EXPECT_EQ(readText(root / "device_0/summary/fusion_op_0_1.csv"),
              "Model Name,Model ID,Fusion Op,Original Ops,Memory Input(KB),Memory Output(KB),Memory Weight(KB),"
              "Memory Workspace(KB),Memory Total(KB)\n");
    const std::string msprof = readText(root / "device_0/timeline/msprof_0_1.json");
    EXPECT_NE(msprof.find("\"Task Scheduler\""), std::string::npos);
    EXPECT_EQ(msprof.find("\"Ascend Hardware\""), std::string::npos);
    fs::remove_all(root.parent_path());
}

TEST(Era2023Export, Level0HasNoAnalyzeFolder) {
    const ChipConfig chip = splitChip();
    const RunRecord run = threeKernelRun(chip);
    const ProfilerConfig config = era2023(ProfilerLevel::Level0);
    const fs::path root = testing_scratch::scratchDir("era2023_level0") / "PROF_000001_x_Y";
    fs::create_directories(root);
    writeEra2023Export(root, run, config, buildMsprofTimeline(run, config));
    EXPECT_FALSE(fs::exists(root / "analyze"));
    EXPECT_TRUE(fs::is_regular_file(root / "device_0/summary/op_summary_0_1.csv"));
    fs::remove_all(root.parent_path());
}

TEST(Era2023TaskTimeTimeline, KeepsOnlyTheTaskSchedulerProcess) {
    const ChipConfig chip = splitChip();
    const RunRecord run = threeKernelRun(chip);
    const ProfilerConfig config = era2023(ProfilerLevel::Level1);
    const auto events = era2023TaskTimeTimeline(buildMsprofTimeline(run, config), run, config);
    const std::uint32_t pid = ascendHardwarePid(run, FormatVersion::Era2023);
    std::size_t kernels = 0;
    for (const auto& e : events) {
        EXPECT_EQ(e["pid"].get<std::uint32_t>(), pid);
        if (e["ph"] == "X") ++kernels;
    }
    EXPECT_EQ(kernels, run.kernels.size());
}

TEST(Era2023ProfRule, ModelSummarySumsDurationsByBoundTypeWithPipeUtilization) {
    const ChipConfig chip = splitChip();
    const RunRecord run = threeKernelRun(chip);
    const ProfilerConfig config = era2023(ProfilerLevel::Level1);  // PipeUtilization by default
    const OrderedJson rule = buildEra2023ProfRule(buildOpSummaryTable(run, config), config);
    ASSERT_EQ(rule["data"]["Model Summary"].size(), 1U);
    const auto& data = rule["data"]["Model Summary"][0]["result"][0]["Tuning Data"];
    double sum = 0;
    for (const char* key : {"Cube Utilization", "Vector Utilization", "Scalar Utilization", "MTE Utilization"})
        sum += data[key].get<double>();
    // Every kernel of the run is an AI Core one with PMU data: their durations all land somewhere.
    EXPECT_NEAR(sum, 2.06 + 170.4 + 881.64, 0.01);
    EXPECT_TRUE(rule["data"]["Op Parallel"].empty());  // no AI CPU kernel
}

TEST(Era2023ProfRule, ModelSummaryNeedsPipeUtilization) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config = era2023(ProfilerLevel::Level1);
    config.aicMetrics = AicMetrics::Memory;
    const OrderedJson rule = buildEra2023ProfRule(buildOpSummaryTable(threeKernelRun(chip), config), config);
    EXPECT_TRUE(rule["data"]["Model Summary"].empty());
}

TEST(Era2023ProfRule, OpParallelReportsAiCpuTimeAboveFivePercent) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.kernels[1].device.type = TaskType::AiCore;             // 170.4 µs of AI_CORE from 5.01 ms
    run.kernels.push_back(aiCpuKernel(5100000, 100000));       // 100 µs AI CPU, 80.4 µs of it concurrent
    const ProfilerConfig config = era2023(ProfilerLevel::Level1);
    const OrderedJson rule = buildEra2023ProfRule(buildOpSummaryTable(run, config), config);
    ASSERT_EQ(rule["data"]["Op Parallel"].size(), 1U);
    const auto& data = rule["data"]["Op Parallel"][0]["result"][0]["Tuning Data"];
    EXPECT_NEAR(data["Concurrent AI Core and AI CPU Execution Time(us)"].get<double>(), 80.4, 1e-6);
    EXPECT_NEAR(data["AI CPU Execution Time(us)"].get<double>(), 19.6, 1e-6);
    EXPECT_NEAR(data["AI Core Execution Time(us)"].get<double>(), 90.0, 1e-6);
}

// MemoryL0 in the 2023 era lists scalar_ld_ratio / scalar_st_ratio (CANN 6/7 aiCoreMetricsType 3,
// metric_catalog.h MetricEdition::Cann6); the current eras do not.
TEST(Era2023OpSummary, MemoryL0HasTheScalarLoadStoreRatiosOnlyInThe2023Era) {
    const ChipConfig chip = splitChip();
    const RunRecord run = threeKernelRun(chip);
    ProfilerConfig config = era2023(ProfilerLevel::Level1);
    config.aicMetrics = AicMetrics::MemoryL0;
    const std::string header2023 = joinHeader(buildOpSummaryTable(run, config).header);
    EXPECT_NE(header2023.find("scalar_ld_ratio"), std::string::npos) << header2023;
    EXPECT_NE(header2023.find("scalar_st_ratio"), std::string::npos) << header2023;
    config.formatVersion = FormatVersion::Cann83;
    const std::string header83 = joinHeader(buildOpSummaryTable(run, config).header);
    EXPECT_EQ(header83.find("scalar_ld_ratio"), std::string::npos) << header83;
}

}  // namespace
}  // namespace ascendsim
