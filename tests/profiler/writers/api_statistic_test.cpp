#include "profiler/writers/summary/api_statistic.h"

#include <gtest/gtest.h>

#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

RunRecord runWithApis(const ChipConfig& chip) {
    RunRecord run = threeKernelRun(chip);
    run.apis.push_back({ApiLevel::Runtime, "DevMalloc", 0, 8570, 1, 0});
    run.apis.push_back({ApiLevel::Runtime, "DevMalloc", 10000, 46200, 1, 0});
    run.apis.push_back({ApiLevel::Acl, "ApplyAdamWV2_Tiling", 50000, 50250, 1, 0});
    run.apis.push_back({ApiLevel::Acl, "ApplyAdamWV2_Tiling", 60000, 89170, 1, 0});
    run.apis.push_back({ApiLevel::Communication, "Launch_Ffts", 90000, 179180, 1, 0});
    run.apis.push_back({ApiLevel::Node, "launch", 200000, 201000, 1, 7});
    return run;
}

ProfilerConfig config(ProfilerLevel level, FormatVersion version = FormatVersion::Cann83) {
    ProfilerConfig c;
    c.level = level;
    c.formatVersion = version;
    return c;
}

TEST(ApiStatistic, HeadersEqualTheRealSamplesOfBothEras) {
    const ChipConfig chip = splitChip();
    const std::string real83 = referenceHeader(
        "msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv");
    const std::string real80 = referenceHeader(
        "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv");
    if (real83.empty() || real80.empty()) GTEST_SKIP() << "reference samples not available";
    const RunRecord run = runWithApis(chip);
    EXPECT_EQ(joinHeader(buildApiStatisticTable(run, config(ProfilerLevel::Level2)).header), real83);
    EXPECT_EQ(joinHeader(buildApiStatisticTable(run, config(ProfilerLevel::Level1, FormatVersion::Cann80)).header),
              real80);
}

TEST(ApiStatistic, GroupsByNameThenLevelWithPopulationVariance) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildApiStatisticTable(runWithApis(chip), config(ProfilerLevel::Level2));
    ASSERT_EQ(table.rows.size(), 4u);
    // Name order: ApplyAdamWV2_Tiling < DevMalloc < Launch_Ffts < launch.
    // 0.25 and 29.17 µs: Σ 29.42, avg 14.71, variance ((14.46)² × 2) / 2 = 209.0916.
    EXPECT_EQ(table.rows[0], (CsvRow{"host", "acl", "ApplyAdamWV2_Tiling", "29.42", "2", "14.71", "0.25",
                                     "29.17", "209.092"}));
    EXPECT_EQ(table.rows[1], (CsvRow{"host", "runtime", "DevMalloc", "44.77", "2", "22.385", "8.57", "36.2",
                                     "190.854"}));  // 13.815²
    EXPECT_EQ(table.rows[2][1], "communication");
    EXPECT_EQ(table.rows[3][1], "node");
}

TEST(ApiStatistic, Level1HasNoRuntimeApisAndOldEraCallsCommunicationHccl) {
    const ChipConfig chip = splitChip();
    const CsvTable table =
        buildApiStatisticTable(runWithApis(chip), config(ProfilerLevel::Level1, FormatVersion::Cann80));
    ASSERT_EQ(table.rows.size(), 3u);
    for (const CsvRow& row : table.rows) EXPECT_NE(row[0], "runtime");
    EXPECT_EQ(table.rows[1], (CsvRow{"hccl", "Launch_Ffts", "89.18", "1", "89.18", "89.18", "89.18", "0"}));
    EXPECT_TRUE(buildApiStatisticTable(runWithApis(chip), config(ProfilerLevel::Level0)).rows.empty());
}

}  // namespace
}  // namespace ascendsim
