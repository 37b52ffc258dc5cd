#include "profiler/writers/summary/data_preprocess.h"

#include <gtest/gtest.h>

#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

TEST(DataPreprocess, Level2ListsAiCpuTasksOnly) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    KernelRecord cpu;
    cpu.name = "NonZero";
    cpu.opType = "NonZero";
    cpu.taskId = 7;
    cpu.device.type = TaskType::AiCpu;
    cpu.device.streamId = 3;
    cpu.device.submitNs = 6000000;
    cpu.device.startNs = 6001500;
    cpu.device.endNs = 6031500;
    run.kernels.push_back(cpu);
    ProfilerConfig config;
    config.level = ProfilerLevel::Level2;
    const CsvTable table = buildDataPreprocessTable(run, config);
    EXPECT_EQ(joinHeader(table.header),
              "Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us),Task_time(us),Dispatch_time(us),"
              "Total_time(us),Stream ID,Task ID");
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(table.rows[0], (CsvRow{"0", "1764246877006001.500", "NonZero", "30.0", "0.0", "30.0", "1.5",
                                     "31.5", "3", "7"}));
    config.level = ProfilerLevel::Level1;
    EXPECT_TRUE(buildDataPreprocessTable(run, config).rows.empty());
}

}  // namespace
}  // namespace ascendsim
