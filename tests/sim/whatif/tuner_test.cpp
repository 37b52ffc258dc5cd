// `ascendsim tune` on the unit MatMul: the choice is the argmin of what the search measured, the
// overrides file it writes applies that choice, and the confirmation is a real re-run.
#include <gtest/gtest.h>

#include <sstream>

#include "sim/engine/e2e_support.h"
#include "sim/whatif/overrides_file.h"
#include "sim/whatif/tuner.h"
#include "sim/workload/workload_error.h"

namespace ascendsim::e2e {
namespace {

TEST(Tuner, ChoosesTheFastestMeasuredBlockDimAndConfirmsIt) {
    TempDir dir;
    TuneRequest request;
    request.base = commandOptions(unitWorkload("matmul.yaml"), dir.path());
    request.base.level = "Level1";
    request.all = true;
    request.jobs = 2;
    request.overridesPath = (dir.path() / "overrides.yaml").string();
    std::ostringstream progress;
    const TuneResult result = runTune(request, progress);
    ASSERT_EQ(result.ops.size(), 1u);
    const TunedOp& op = result.ops.front();
    EXPECT_EQ(op.op, "matmul");
    ASSERT_FALSE(op.measured.empty());
    double best = op.defaultUs;
    for (const auto& [dim, us] : op.measured) best = std::min(best, us);
    EXPECT_EQ(op.predictedUs, best);
    // The confirmation re-ran the workload with the choice: same op, the chosen block dim.
    EXPECT_GT(op.confirmedUs, 0.0);
    EXPECT_NEAR(op.confirmedUs, op.predictedUs, op.predictedUs * 0.05);  // one op: same context as its search run

    std::ostringstream out, err;
    ASSERT_EQ(runTuneCommand(request, out, err), 0) << err.str();
    const auto sets = readOverridesFile(request.overridesPath);
    if (op.chosenBlockDim != op.defaultBlockDim) {
        ASSERT_EQ(sets.size(), 1u);
        EXPECT_EQ(sets[0], "op.matmul.block_dim=" + std::to_string(op.chosenBlockDim));
    } else {
        EXPECT_TRUE(sets.empty());
    }
    EXPECT_NE(out.str().find("confirmed by a re-run"), std::string::npos) << out.str();
}

TEST(Tuner, ChartShowsTheChangedOpsLargestChangeFirstElseTheHeaviest) {
    const auto op = [](std::string name, std::uint32_t from, std::uint32_t to, double before, double after) {
        TunedOp t;
        t.op = std::move(name);
        t.defaultBlockDim = from;
        t.chosenBlockDim = to;
        t.defaultUs = before;
        t.confirmedUs = after;
        return t;
    };
    const std::vector<TunedOp> ops = {op("a", 24, 24, 100, 100), op("b", 32, 42, 5, 4), op("c", 48, 24, 40, 30),
                                      op("d", 8, 30, 7, 6.5)};
    EXPECT_EQ(tuneChartOps(ops), (std::vector<std::size_t>{2, 1, 3}));  // a did not change
    EXPECT_EQ(tuneChartOps(ops, 2), (std::vector<std::size_t>{2, 1}));
    const std::vector<TunedOp> unchanged = {op("a", 24, 24, 10, 10), op("b", 24, 24, 30, 30), op("c", 24, 24, 20, 20)};
    EXPECT_EQ(tuneChartOps(unchanged), (std::vector<std::size_t>{1, 2, 0}));
}

TEST(Tuner, OnlyAMeasurableGainReplacesTheDefault) {
    EXPECT_TRUE(isMeasurableGain(4.97, 3.83));
    EXPECT_TRUE(isMeasurableGain(3.88, 3.85));   // 0.8 %, 30 ns
    EXPECT_FALSE(isMeasurableGain(31.54, 31.53));  // 0.03 %
    EXPECT_FALSE(isMeasurableGain(1.0, 0.996));    // 0.4 %
    EXPECT_FALSE(isMeasurableGain(1.0, 1.2));      // slower
    EXPECT_FALSE(isMeasurableGain(1.5, 1.492));    // 0.53 % but 8 ns
}

TEST(Tuner, CandidatesAreFractionsOfTheCores) {
    const auto c = blockDimCandidates(24);
    EXPECT_EQ(c.front(), 3u);
    EXPECT_NE(std::find(c.begin(), c.end(), 24u), c.end());
    EXPECT_EQ(c.back(), 48u);
    EXPECT_EQ(blockDimCandidates(1).size(), c.size());
    EXPECT_EQ(blockDimCandidates(1).front(), 1u);
}

TEST(Tuner, UnknownOpIsExitTwo) {
    TempDir dir;
    TuneRequest request;
    request.base = commandOptions(unitWorkload("matmul.yaml"), dir.path());
    request.base.level = "Level1";
    request.ops = {"nosuchop"};
    request.overridesPath = (dir.path() / "o.yaml").string();
    std::ostringstream out, err;
    EXPECT_EQ(runTuneCommand(request, out, err), 2);
    EXPECT_NE(err.str().find("no op named 'nosuchop'"), std::string::npos) << err.str();
    EXPECT_FALSE(fs::exists(request.overridesPath));
}

TEST(OverridesFile, RoundTripAndErrors) {
    TempDir dir;
    const fs::path file = dir.path() / "o.yaml";
    {
        std::ofstream out(file);
        writeOverridesFile(out, {"header"}, {{"op.a.block_dim", "8"}, {"batch", "4"}});
    }
    EXPECT_EQ(readOverridesFile(file.string()), (std::vector<std::string>{"op.a.block_dim=8", "batch=4"}));
    {
        std::ofstream out(file);
        out << "op.a.block_dim: [1, 2]\n";
    }
    try {
        readOverridesFile(file.string());
        ADD_FAILURE() << "a list value was accepted";
    } catch (const WorkloadError& e) {
        EXPECT_NE(std::string(e.what()).find(file.string() + ":1:"), std::string::npos) << e.what();
    }
    EXPECT_THROW(readOverridesFile((dir.path() / "absent.yaml").string()), WorkloadError);
}

}  // namespace
}  // namespace ascendsim::e2e
