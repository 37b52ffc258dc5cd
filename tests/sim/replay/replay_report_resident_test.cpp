// replay_kernels.csv names the L2 state each group was replayed with under --l2 producer /
// timeline, so a kernel the state splits into a held and a cold group can be told apart.
#include <gtest/gtest.h>

#include "profiler/format/csv_reader.h"
#include "sim/replay/report/replay_report.h"

namespace ascendsim {
namespace {

ReplayedKernel addKernel(std::vector<std::size_t> inputs, std::vector<std::size_t> outputs) {
    ReplayedKernel k;
    k.sample.name = "aclnnAdd_AddAiCore_Add";
    k.sample.type = "Add";
    k.family = "elementwise";
    k.occurrences = 1;
    k.realUs = 10.0;
    k.simulated = SimulatedKernel{8.0, {}};
    k.residentInputs = std::move(inputs);
    k.residentOutputs = std::move(outputs);
    return k;
}

ReplayReport reportIn(L2State l2) {
    ReplayReport report;
    report.l2 = l2;
    report.kernels = {addKernel({}, {}), addKernel({0, 1}, {}), addKernel({1}, {0})};
    return report;
}

TEST(ReplayReportResidency, TimelineRowsNameTheInputsAndTargetsTheyPreloaded) {
    const CsvTable table = parseCsv(renderReplayKernelsCsv(reportIn(L2State::Timeline)));
    const auto column = csvColumn(table, "L2 Resident");
    ASSERT_TRUE(column.has_value());
    ASSERT_EQ(table.rows.size(), 3u);
    EXPECT_EQ(table.rows[0][*column], "none");
    EXPECT_EQ(table.rows[1][*column], "inputs 0 1");
    EXPECT_EQ(table.rows[2][*column], "inputs 1; outputs 0");
    // The column sits after Status, before the pipe ratios.
    EXPECT_EQ(*column, *csvColumn(table, "Status") + 1);
}

TEST(ReplayReportResidency, ProducerStateHasTheColumnAndColdHasNone) {
    EXPECT_TRUE(csvColumn(parseCsv(renderReplayKernelsCsv(reportIn(L2State::Producer))), "L2 Resident"));
    EXPECT_FALSE(csvColumn(parseCsv(renderReplayKernelsCsv(reportIn(L2State::Cold))), "L2 Resident"));
    EXPECT_FALSE(csvColumn(parseCsv(renderReplayKernelsCsv(reportIn(L2State::Warm))), "L2 Resident"));
}

}  // namespace
}  // namespace ascendsim
