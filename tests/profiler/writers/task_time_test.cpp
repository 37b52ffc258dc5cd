#include "profiler/writers/summary/task_time.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "profiler/writers/communication_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

ProfilerConfig configOf(ProfilerLevel level, FormatVersion version = FormatVersion::Cann83) {
    ProfilerConfig config;
    config.level = level;
    config.formatVersion = version;
    return config;
}

// Column values of one column, in row order.
std::vector<std::string> column(const CsvTable& table, const std::string& name) {
    const auto at = std::find(table.header.begin(), table.header.end(), name);
    EXPECT_NE(at, table.header.end()) << name;
    std::vector<std::string> values;
    if (at == table.header.end()) return values;
    const auto index = static_cast<std::size_t>(at - table.header.begin());
    for (const CsvRow& row : table.rows) values.push_back(row[index]);
    return values;
}

// A collective whose HCCL tasks carry their issue order as context ids (0, 1, ...).
RunRecord runWithNumberedContexts(const ChipConfig& chip) {
    RunRecord run = runWithCollectives(chip);
    for (auto& op : run.communicationOps) {
        op.streamId = 4;
        op.taskId = 807;
        for (std::size_t i = 0; i < op.tasks.size(); ++i) op.tasks[i].contextId = static_cast<std::uint32_t>(i);
    }
    return run;
}

TEST(TaskTime, Cann83_HeaderStartsWithDeviceIdAndLinesEndInLfWithTabbedTimes) {
    const ChipConfig chip = splitChip();
    const std::string csv = renderTaskTimeCsv(threeKernelRun(chip), configOf(ProfilerLevel::Level1));
    EXPECT_EQ(firstLine(csv),
              "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)");
    EXPECT_NE(csv.find("\n0,aclnnAdds_AddAiCore_Add,AI_VECTOR_CORE,2,34489,2.060,1764246877005000.000\t,"
                       "1764246877005002.060\t\n"),
              std::string::npos);
    EXPECT_EQ(csv.find('\r'), std::string::npos);
    EXPECT_EQ(csv.back(), '\n');
}

TEST(TaskTime, Cann80_NoDeviceIdAndPythonRoundedDuration) {
    const ChipConfig chip = splitChip();
    const std::string csv =
        renderTaskTimeCsv(threeKernelRun(chip), configOf(ProfilerLevel::Level1, FormatVersion::Cann80));
    EXPECT_EQ(firstLine(csv), "kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)");
    // round(2060 / 1000, 3) as Python prints it; start/stop still 3 decimals with a TAB.
    EXPECT_NE(csv.find("\naclnnAdds_AddAiCore_Add,AI_VECTOR_CORE,2,34489,2.06,1764246877005000.000\t,"
                       "1764246877005002.060\t\n"),
              std::string::npos);
    EXPECT_NE(csv.find(",170.4,"), std::string::npos);  // the matmul's 170400 ns
}

TEST(TaskTime, RowsSortedByStart) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    std::swap(run.kernels[0], run.kernels[2]);
    const CsvTable table = buildTaskTimeTable(run, configOf(ProfilerLevel::Level1));
    EXPECT_EQ(column(table, "kernel_name"),
              (std::vector<std::string>{"aclnnAdds_AddAiCore_Add", "aclnnMatmul_MatMulV3Common_MatMulV3",
                                        "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore"}));
}

TEST(TaskTime, Level1_KernelTypeIsTheOpSummaryTaskType) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildTaskTimeTable(threeKernelRun(chip), configOf(ProfilerLevel::Level1));
    EXPECT_EQ(column(table, "kernel_type"), (std::vector<std::string>{"AI_VECTOR_CORE", "AI_CORE", "MIX_AIC"}));
}

// Under task time l0 GE reports no task type, so msprof C++ falls back to the AscendTask type.
TEST(TaskTime, Cann83Level0_KernelTypeIsTheAscendTaskType) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildTaskTimeTable(threeKernelRun(chip), configOf(ProfilerLevel::Level0));
    EXPECT_EQ(column(table, "kernel_type"), (std::vector<std::string>{"KERNEL_AIVEC", "KERNEL_AICORE", "MIX_AIC"}));
}

// The Python viewer takes GE's type as it is (N/A) and skips FFTS+ contexts such as MIX kernels.
TEST(TaskTime, Cann80Level0_KernelTypeNaAndNoMixKernel) {
    const ChipConfig chip = splitChip();
    const CsvTable table =
        buildTaskTimeTable(threeKernelRun(chip), configOf(ProfilerLevel::Level0, FormatVersion::Cann80));
    EXPECT_EQ(column(table, "kernel_type"), (std::vector<std::string>{"N/A", "N/A"}));
    EXPECT_EQ(column(table, "task_id"), (std::vector<std::string>{"34489", "34493"}));
}

TEST(TaskTime, AiCpuKernel_IsAnAiCpuRow) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.kernels[1].device.type = TaskType::AiCpu;
    EXPECT_EQ(column(buildTaskTimeTable(run, configOf(ProfilerLevel::Level2)), "kernel_type")[1], "AI_CPU");
    EXPECT_EQ(column(buildTaskTimeTable(run, configOf(ProfilerLevel::Level0)), "kernel_type")[1], "KERNEL_AICPU");
}

TEST(TaskTime, Level0Collective_IsItsOwnTaskNamedNaOfTypeAiCore) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildTaskTimeTable(runWithNumberedContexts(chip), configOf(ProfilerLevel::Level0));
    ASSERT_EQ(table.rows.size(), 5u);  // 3 kernels + 2 collectives
    EXPECT_EQ(table.rows[3], (CsvRow{"0", "N/A", "AI_CORE", "4", "807", "1300.000", "1764246877006000.000\t",
                                     "1764246877007300.000\t"}));
}

// FilterAscendTaskData: the collective's own task comes first, then context 0: only the context-0
// task (the local copy, an SDMA) stays.
TEST(TaskTime, Cann83Level1Collective_KeepsOnlyItsContextZeroTask) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildTaskTimeTable(runWithNumberedContexts(chip), configOf(ProfilerLevel::Level1));
    ASSERT_EQ(table.rows.size(), 5u);
    EXPECT_EQ(table.rows[3], (CsvRow{"0", "N/A", "SDMA", "4", "807", "8.000", "1764246877006000.000\t",
                                     "1764246877006008.000\t"}));
}

// When a non-zero context is met first the assembler keeps every entry of the task id.
TEST(TaskTime, Cann83Level1Collective_NonZeroFirstContextKeepsEveryTask) {
    const ChipConfig chip = splitChip();
    RunRecord run = runWithNumberedContexts(chip);
    for (auto& op : run.communicationOps) op.tasks[0].contextId = 9;
    const CsvTable table = buildTaskTimeTable(run, configOf(ProfilerLevel::Level1));
    EXPECT_EQ(table.rows.size(), 3u + 2u * (1u + 7u));
    const auto types = column(table, "kernel_type");
    EXPECT_EQ(std::count(types.begin(), types.end(), "AI_CORE"), 2 + 1);  // 2 collectives + the matmul
    EXPECT_EQ(std::count(types.begin(), types.end(), "Notify Wait"), 2 * 3);
}

TEST(TaskTime, Cann80Level1Collective_OnlyItsOwnTask) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildTaskTimeTable(runWithNumberedContexts(chip),
                                              configOf(ProfilerLevel::Level1, FormatVersion::Cann80));
    EXPECT_EQ(column(table, "kernel_type"), (std::vector<std::string>{"AI_VECTOR_CORE", "AI_CORE", "AI_CORE",
                                                                      "AI_CORE"}));
    EXPECT_EQ(column(table, "task_time(us)")[2], "1300.0");
}

TEST(TaskTime, NothingAtLevelNoneOrWithoutNpuActivity) {
    const ChipConfig chip = splitChip();
    EXPECT_EQ(renderTaskTimeCsv(threeKernelRun(chip), configOf(ProfilerLevel::LevelNone)), "");
    ProfilerConfig cpuOnly = configOf(ProfilerLevel::Level1);
    cpuOnly.activityNpu = false;
    EXPECT_EQ(renderTaskTimeCsv(threeKernelRun(chip), cpuOnly), "");
}

}  // namespace
}  // namespace ascendsim
