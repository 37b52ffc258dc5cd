#include "profiler/writers/task_time.h"

#include <gtest/gtest.h>

#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

TEST(TaskTime, OneRowPerTaskWithTabbedStartAndStop) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    const std::string csv = renderTaskTimeCsv(threeKernelRun(chip), config);
    EXPECT_EQ(firstLine(csv),
              "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)");
    EXPECT_NE(csv.find("\n0,aclnnAdds_AddAiCore_Add,AI_VECTOR_CORE,2,34489,2.060,1764246877005000.000\t,"
                       "1764246877005002.060\t\n"),
              std::string::npos);
    EXPECT_EQ(buildTaskTimeTable(threeKernelRun(chip), config).rows.size(), 3u);
}

TEST(TaskTime, RowsSortedByStart) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    std::swap(run.kernels[0], run.kernels[2]);
    const CsvTable table = buildTaskTimeTable(run, ProfilerConfig{});
    EXPECT_EQ(table.rows.front()[1], "aclnnAdds_AddAiCore_Add");
    EXPECT_EQ(table.rows.back()[2], "MIX_AIC");
}

}  // namespace
}  // namespace ascendsim
