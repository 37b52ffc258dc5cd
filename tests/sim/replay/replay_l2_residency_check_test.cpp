// The replay's L2 state checked against the export's own l2_cache.csv (l2_cache_reader.h,
// l2_residency_check.h): victim rates read by stream and task id, rows grouped by how many of
// their inputs the replay holds, and the summary line that reports it.
#include <gtest/gtest.h>

#include "replay_fixtures.h"
#include "sim/replay/input/kernel_details_reader.h"
#include "sim/replay/input/l2_cache_reader.h"
#include "sim/replay/report/replay_report.h"
#include "sim/replay/run/l2_residency_check.h"

namespace ascendsim {
namespace {

constexpr const char* kL2CacheHeader = "Stream Id,Task Id,Hit Rate,Victim Rate,Op Name\n";

TEST(L2CacheCsv, ReadsVictimRatesByStreamAndTaskAndLeavesOutNotAvailable) {
    std::string text = kL2CacheHeader;
    text.append("2,11062,N/A,0.213463,trans_TransData_1\n").append("2,11063,N/A,0.0\t,Conv2D1\n");
    text.append("2,11064,N/A,N/A,Relu\n").append("3,11062,N/A,1,Other\n");
    const L2VictimRates rates = parseL2CacheCsv(text, "l2_cache.csv");
    ASSERT_EQ(rates.size(), 3U);
    EXPECT_DOUBLE_EQ(rates.at({"2", "11062"}), 0.213463);
    EXPECT_DOUBLE_EQ(rates.at({"2", "11063"}), 0.0);
    EXPECT_DOUBLE_EQ(rates.at({"3", "11062"}), 1.0);
    EXPECT_EQ(rates.count({"2", "11064"}), 0U);
}

TEST(L2CacheCsv, ARateOutsideZeroToOneOrAMissingColumnNamesFileLineAndField) {
    std::string bad = kL2CacheHeader;
    bad.append("2,1,N/A,0.5,A\n").append("2,2,N/A,1.5,B\n");
    try {
        parseL2CacheCsv(bad, "dir/l2_cache.csv");
        FAIL() << "a victim rate of 1.5 was accepted";
    } catch (const ReplayInputError& e) {
        EXPECT_NE(std::string(e.what()).find("dir/l2_cache.csv:3: field 'Victim Rate'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseL2CacheCsv("Stream Id,Task Id,Hit Rate\n2,1,N/A\n", "l2_cache.csv"), ReplayInputError);
}

TEST(L2CacheCsv, AnExportWithoutTheFileHasNoRates) {
    const replay_fixtures::fs::path absent = replay_fixtures::fs::temp_directory_path() / "ascendsim-no-such-dir" / "l2_cache.csv";
    EXPECT_TRUE(readL2CacheCsv(absent).empty());
}

TEST(L2CacheCsv, KernelDetailsKeepsEachRowsTaskIdToJoinOn) {
    const RealProfile profile = parseKernelDetailsCsv(replay_fixtures::kernelDetails83(), "kernel_details.csv");
    ASSERT_GE(profile.kernels.size(), 2U);
    EXPECT_EQ(profile.kernels[0].taskId, "100");
    EXPECT_EQ(profile.kernels[0].stream, "2");
    EXPECT_EQ(profile.kernels[1].taskId, "101");
}

// A row of `inputs` fp32 ND tensors of `elements` each, on stream 2 as task `task`.
RealKernel rowReading(const std::string& task, std::size_t inputs, std::size_t elements) {
    RealKernel k;
    k.name = "aclnnAdd_AddAiCore_Add";
    k.type = "Add";
    k.stream.assign(1, '2');
    k.taskId = task;
    k.acceleratorCore = "AI_VECTOR_CORE";
    k.blockDim = 40;
    for (std::size_t i = 0; i < inputs; ++i) {
        const char* separator = i == 0 ? "" : ";";
        k.inputShapes.append(separator).append(std::to_string(elements));
        k.inputDtypes.append(separator).append("FLOAT");
        k.inputFormats.append(separator).append("ND");
    }
    k.outputShapes = std::to_string(elements);
    k.outputDtypes = "FLOAT";
    k.outputFormats = "ND";
    return k;
}

TEST(L2ResidencyCheck, GroupsRowsByHowManyInputsTheReplayHolds) {
    constexpr std::size_t kMiBOfFloats = 262144;
    RealProfile profile;
    profile.kernels = {rowReading("1", 2, kMiBOfFloats), rowReading("2", 2, kMiBOfFloats),
                       rowReading("3", 2, kMiBOfFloats), rowReading("4", 2, kMiBOfFloats),
                       rowReading("5", 1, kMiBOfFloats), rowReading("6", 1, 1024),
                       rowReading("7", 2, kMiBOfFloats)};
    const std::vector<std::vector<std::size_t>> resident = {{0, 1}, {1, 0}, {0}, {}, {}, {0}, {0, 1}};
    // Task 6 reads 4 KiB (left out), task 7 has no rate.
    const L2VictimRates rates = {{{"2", "1"}, 0.0},  {{"2", "2"}, 0.02}, {{"2", "3"}, 0.2},
                                 {{"2", "4"}, 0.3},  {{"2", "5"}, 0.5},  {{"2", "6"}, 0.9}};
    const std::vector<ResidencyGroup> groups = residencyAgainstVictimRates(profile, resident, rates);
    ASSERT_EQ(groups.size(), 3U);
    EXPECT_EQ(groups[0].held, "all inputs");
    EXPECT_EQ(groups[0].rows, 2U);
    EXPECT_DOUBLE_EQ(groups[0].medianVictimRate, 0.01);
    EXPECT_EQ(groups[1].held, "some inputs");
    EXPECT_EQ(groups[1].rows, 1U);
    EXPECT_DOUBLE_EQ(groups[1].medianVictimRate, 0.2);
    EXPECT_EQ(groups[2].held, "no input");
    EXPECT_EQ(groups[2].rows, 2U);
    EXPECT_DOUBLE_EQ(groups[2].medianVictimRate, 0.4);
    EXPECT_THROW(residencyAgainstVictimRates(profile, {{0}}, rates), std::invalid_argument);
}

TEST(L2ResidencyCheck, TheSummaryReportsTheGroupsOnlyWhenThereAreAny) {
    ReplayReport report;
    report.l2 = L2State::Timeline;
    EXPECT_EQ(renderReplaySummary(report).find("l2_cache.csv"), std::string::npos);
    report.residencyCheck = {ResidencyGroup{"all inputs", 92, 0.005}, ResidencyGroup{"no input", 38, 0.0784}};
    const std::string summary = renderReplaySummary(report);
    EXPECT_NE(summary.find("l2_cache.csv"), std::string::npos) << summary;
    EXPECT_NE(summary.find("all inputs 92 rows 0.005; no input 38 rows 0.078"), std::string::npos) << summary;
}

}  // namespace
}  // namespace ascendsim
