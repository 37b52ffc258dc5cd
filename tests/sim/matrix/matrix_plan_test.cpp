#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "sim/matrix/matrix_plan.h"

namespace ascendsim {
namespace {

std::size_t countSkipped(const std::vector<MatrixCombination>& plan) {
    return static_cast<std::size_t>(
        std::count_if(plan.begin(), plan.end(), [](const MatrixCombination& c) { return !c.skipReason.empty(); }));
}

TEST(MatrixPlan, AllOfEveryAxisIsTheFullGridWithLevel0AndNoneRunOnlyWithoutMetrics) {
    const auto plan = planMatrix(parseMatrixAxes("all", "all", "all", "all", ""));
    const std::size_t levels = allProfilerLevels().size(), metrics = allAicMetrics().size();
    const std::size_t eras = allFormatVersions().size();
    ASSERT_EQ(plan.size(), levels * metrics * eras * 3);
    // Level_none and Level0 keep only ACL_AICORE_NONE: every other group is skipped there.
    EXPECT_EQ(countSkipped(plan), 2 * (metrics - 1) * eras * 3);
    for (const MatrixCombination& c : plan) {
        const bool collectsMetrics = c.level == ProfilerLevel::Level1 || c.level == ProfilerLevel::Level2;
        EXPECT_EQ(c.skipReason.empty(), collectsMetrics || c.metrics == AicMetrics::None) << c.name;
    }
}

TEST(MatrixPlan, NamesAreUniqueAndSayTheCombination) {
    const auto plan = planMatrix(parseMatrixAxes("L1,L2", "PipeUtilization,Memory", "8.3,2024", "text,text+db", "1,8"));
    ASSERT_EQ(plan.size(), 2u * 2 * 2 * 2 * 2);
    std::set<std::string> names;
    for (const auto& c : plan) names.insert(c.name);
    EXPECT_EQ(names.size(), plan.size());
    EXPECT_TRUE(names.count("Level2-Memory-2024-text+db-r8")) << *names.begin();
}

TEST(MatrixPlan, RunArgumentsCarryEveryOptionOfTheCombination) {
    const auto plan = planMatrix(parseMatrixAxes("Level1", "ACL_AICORE_L2_CACHE", "8.0", "text+db", "2"));
    ASSERT_EQ(plan.size(), 1u);
    const std::vector<std::string> expected = {"--level", "Level1", "--aic-metrics", "L2Cache", "--format-version",
                                               "8.0", "--export-type", "text,db", "--set", "ranks=2"};
    EXPECT_EQ(plan[0].runArguments, expected);
}

TEST(MatrixPlan, WithoutRanksTheWorkloadKeepsItsOwnWorldSize) {
    const auto plan = planMatrix(parseMatrixAxes("L1", "None", "8.3", "db", ""));
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_EQ(plan[0].name, "Level1-None-8.3-db");
    EXPECT_EQ(std::count(plan[0].runArguments.begin(), plan[0].runArguments.end(), "--set"), 0);
}

TEST(MatrixPlan, UnknownValuesNameTheOptionAndListTheValidOnes) {
    try {
        parseMatrixAxes("L1", "Pipes", "8.3", "text", "");
        FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("--metrics: unknown value 'Pipes'"), std::string::npos) << message;
        EXPECT_NE(message.find("PipeUtilization"), std::string::npos) << message;
    }
    EXPECT_THROW(parseMatrixAxes("L3", "None", "8.3", "text", ""), std::invalid_argument);
    EXPECT_THROW(parseMatrixAxes("L1", "None", "7.0", "text", ""), std::invalid_argument);
    EXPECT_THROW(parseMatrixAxes("L1", "None", "8.3", "csv", ""), std::invalid_argument);
    EXPECT_THROW(parseMatrixAxes("L1", "None", "8.3", "text", "0"), std::invalid_argument);
    EXPECT_THROW(parseMatrixAxes("L1", "None", "8.3", "text", "2x"), std::invalid_argument);
    EXPECT_THROW(parseMatrixAxes("", "None", "8.3", "text", ""), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
