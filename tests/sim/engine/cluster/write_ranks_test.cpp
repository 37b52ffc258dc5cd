// --write-ranks: a big cluster run writes the directories of the ranks asked for only; every rank
// is still simulated, so what the written ranks show is the whole cluster's.
#include <gtest/gtest.h>

#include "sim/engine/cluster/rank_selection.h"
#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

TEST(WriteRanks, ListsAndRangesSelectRanks) {
    EXPECT_EQ(parseRankSelection("0-3,7,5-5", 8), (std::set<std::uint32_t>{0, 1, 2, 3, 5, 7}));
    EXPECT_THROW(parseRankSelection("8", 8), std::invalid_argument);
    EXPECT_THROW(parseRankSelection("3-1", 8), std::invalid_argument);
    EXPECT_THROW(parseRankSelection("a", 8), std::invalid_argument);
    EXPECT_THROW(parseRankSelection("1,,2", 8), std::invalid_argument);
}

TEST(WriteRanks, OnlyTheSelectedRanksGetDirectoriesAndTheyMatchAFullRun) {
    TempDir all, some;
    SimulationOptions options = commandOptions(unitWorkload("tp_dp.yaml"), all.path());
    ASSERT_EQ(runCommand(options).exitCode, 0);
    options.outputParent = some.path().string();
    options.writeRanks = "1,3";
    const CommandOutcome outcome = runCommand(options);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    const auto written = entriesOf(some.path());
    ASSERT_EQ(written.size(), 2u);
    const auto full = entriesOf(all.path());
    ASSERT_EQ(full.size(), 4u);
    // Directory names differ by the process id of the rank: ranks 1 and 3 are the 2nd and 4th.
    EXPECT_EQ(written[0].filename(), full[1].filename());
    EXPECT_EQ(written[1].filename(), full[3].filename());
    EXPECT_EQ(readFile(written[1] / "ASCEND_PROFILER_OUTPUT" / "communication.json"),
              readFile(full[3] / "ASCEND_PROFILER_OUTPUT" / "communication.json"));
    options.writeRanks = "2-9";
    TempDir bad;
    options.outputParent = bad.path().string();
    const CommandOutcome rejected = runCommand(options);
    EXPECT_EQ(rejected.exitCode, 2);
    EXPECT_NE(rejected.err.find("--write-ranks"), std::string::npos) << rejected.err;
}

}  // namespace
}  // namespace ascendsim::e2e
