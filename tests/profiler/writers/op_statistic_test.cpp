#include "profiler/writers/summary/op_statistic.h"

#include <gtest/gtest.h>

#include "profiler/format/number_format.h"
#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

ProfilerConfig level1(FormatVersion version = FormatVersion::Cann83) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.formatVersion = version;
    return config;
}

TEST(OpStatistic, HeadersEqualTheRealSamplesOfBothEras) {
    const ChipConfig chip = splitChip();
    const RunRecord run = threeKernelRun(chip);
    const std::string real83 = referenceHeader(
        "msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv");
    const std::string real80 = referenceHeader(
        "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv");
    if (real83.empty() || real80.empty()) GTEST_SKIP() << "reference samples not available";
    EXPECT_EQ(joinHeader(buildOpStatisticTable(run, level1()).header), real83);
    EXPECT_EQ(joinHeader(buildOpStatisticTable(run, level1(FormatVersion::Cann80)).header), real80);
}

TEST(OpStatistic, IsExactlyTheAggregationOfTheKernelsSortedByTotal) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.kernels.push_back(addKernel(7000000, 1080));
    run.kernels.push_back(addKernel(7100000, 2543860));
    const CsvTable table = buildOpStatisticTable(run, level1());
    ASSERT_EQ(table.rows.size(), 3u);
    // Add: 2060 + 1080 + 2543860 ns = 2547000 ns, the largest total.
    EXPECT_EQ(table.rows[0], (CsvRow{"0", "Add", "AI_VECTOR_CORE", "3", "2547", "1.08", "849", "2543.86",
                                     msprofDoubleToStr(sqliteRound(2547000.0 / (2547000 + 170400 + 881640) * 100, 3))}));
    EXPECT_EQ(table.rows[1][1], "FlashAttentionScore");
    EXPECT_EQ(table.rows[1][2], "MIX_AIC");
    EXPECT_EQ(table.rows[2][1], "MatMulV3");
    EXPECT_EQ(table.rows[2][4], "170.4");
    double ratioSum = 0;
    for (const CsvRow& row : table.rows) ratioSum += std::stod(row[8]);
    EXPECT_NEAR(ratioSum, 100.0, 0.002);
}

TEST(OpStatistic, AverageIsIntegerNanosecondsLikeMsprof) {
    // 12817140 ns over 112 calls → 114438 ns → "114.438" (the 8.3 sample's RmsNormGrad row).
    const ChipConfig chip = splitChip();
    RunRecord run;
    run.chip = &chip;
    for (int i = 0; i < 112; ++i) {
        KernelRecord k = addKernel(static_cast<std::uint64_t>(i) * 1000000, i == 0 ? 114440 + 12817140 - 112 * 114440 : 114440);
        k.opType = "RmsNormGrad";
        run.kernels.push_back(k);
    }
    const CsvTable table = buildOpStatisticTable(run, level1());
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(table.rows[0][4], "12817.14");
    EXPECT_EQ(table.rows[0][6], "114.438");
    EXPECT_EQ(table.rows[0][8], "100");
}

TEST(OpStatistic, OnlyAtLevel1And2AndWrittenWithLf) {
    const ChipConfig chip = splitChip();
    ProfilerConfig level0;
    EXPECT_TRUE(buildOpStatisticTable(threeKernelRun(chip), level0).rows.empty());
    const std::string csv = renderOpStatisticCsv(threeKernelRun(chip), level1());
    EXPECT_EQ(csv.find('\r'), std::string::npos);
    EXPECT_EQ(csv.back(), '\n');
}

}  // namespace
}  // namespace ascendsim
