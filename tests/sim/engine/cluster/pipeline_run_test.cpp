// The 1F1B pipeline end to end (workloads/unit/pipeline_1f1b.yaml: 4 stages, 4 micro-batches,
// at a quarter of its rows):
// every stage is its own rank kind, each Send meets its Receive on the neighbouring stage, the
// later stages wait for the earlier ones' forwards, and step_trace_time.csv reports the
// receives' time as Bubble, as torch_npu computes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/cluster/cluster_run.h"
#include "sim/engine/ranks/rank_records.h"
#include "sim/engine/rank_directories_run.h"

namespace ascendsim::e2e {
namespace {

constexpr std::uint32_t kPipelineStages = 4;
// A quarter of the workload's 4096 activation rows: GEMMs of about 25 us instead of 100 us still
// leave each stage waiting on its neighbours, and each test (its own process) simulates a
// quarter of the work, which under ASan (scripts/run_sanitized_tests.sh) was 2-4 minutes.
const std::vector<std::string> kQuarterRows = {"rows=1024"};

SimulationOptions pipelineOptions() {
    SimulationOptions options = commandOptions(unitWorkload("pipeline_1f1b.yaml"), fs::temp_directory_path());
    options.setOverrides = kQuarterRows;
    return options;
}

const ClusterResult& pipelineCluster() {
    static const ClusterResult cluster = runCluster(pipelineOptions());
    return cluster;
}

// The same pipeline with the device simulated again in every round (the replay's reference).
const ClusterResult& simulatedRoundsCluster() {
    static const ClusterResult cluster = [] {
        SimulationOptions options = pipelineOptions();
        options.simulateClusterRounds = true;
        return runCluster(options);
    }();
    return cluster;
}

std::uint64_t absDiff(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : b - a; }

// The first kernel of the stage's first forward (its first fc1 GEMM).
const KernelRecord& firstForwardKernel(const RunRecord& r) {
    for (const KernelRecord& k : r.kernels)
        if (k.opType == "MatMul") return k;
    throw std::logic_error("the stage ran no GEMM");
}

std::vector<const CommunicationOpRecord*> opsOfType(const RunRecord& r, const std::string& type) {
    std::vector<const CommunicationOpRecord*> ops;
    for (const auto& op : r.communicationOps)
        if (op.opType == type) ops.push_back(&op);
    return ops;
}

TEST(PipelineRun, EveryStageIsSimulatedOnceAndTheRoundsSettleOnReplays) {
    const ClusterResult& cluster = pipelineCluster();
    ASSERT_EQ(cluster.classOfRank.size(), kPipelineStages);
    for (std::uint32_t s = 0; s < kPipelineStages; ++s) EXPECT_EQ(cluster.of(s).variant.pipelineStage, s);
    // One device simulation per stage (the first round, no waits); every later round replays.
    EXPECT_EQ(cluster.simulations, kPipelineStages);
    EXPECT_GE(cluster.replays, kPipelineStages);
    EXPECT_GE(cluster.rounds, 2u);
    std::cout << "1F1B, 4 stages x 4 micro-batches: " << cluster.rounds << " rounds, " << cluster.simulations
              << " simulations, " << cluster.replays << " replays\n";
}

// The replayed rounds settle where simulating the device in every round settles: the same
// rounds, every kernel and collective of every stage within a few ns (the cores' clock phase
// at a moved kernel's start), and each stage's step as long.
TEST(PipelineRun, ReplayedRoundsMatchSimulatedRounds) {
    const ClusterResult& replayed = pipelineCluster();
    const ClusterResult& simulated = simulatedRoundsCluster();
    EXPECT_EQ(simulated.replays, 0u);
    EXPECT_GT(simulated.simulations, kPipelineStages);
    EXPECT_EQ(replayed.rounds, simulated.rounds);
    constexpr std::uint64_t kToleranceNs = 5;
    std::uint64_t worst = 0;
    for (std::uint32_t s = 0; s < kPipelineStages; ++s) {
        const RunRecord a = recordOfRank(replayed.of(s), s);
        const RunRecord b = recordOfRank(simulated.of(s), s);
        ASSERT_EQ(a.kernels.size(), b.kernels.size()) << "stage " << s;
        for (std::size_t i = 0; i < a.kernels.size(); ++i) {
            ASSERT_EQ(a.kernels[i].name, b.kernels[i].name);
            worst = std::max({worst, absDiff(a.kernels[i].device.startNs, b.kernels[i].device.startNs),
                              absDiff(a.kernels[i].device.endNs, b.kernels[i].device.endNs)});
        }
        ASSERT_EQ(a.communicationOps.size(), b.communicationOps.size()) << "stage " << s;
        for (std::size_t i = 0; i < a.communicationOps.size(); ++i)
            worst = std::max({worst, absDiff(a.communicationOps[i].startNs, b.communicationOps[i].startNs),
                              absDiff(a.communicationOps[i].endNs, b.communicationOps[i].endNs)});
        EXPECT_LE(absDiff(replayed.of(s).simulatedEndNs, simulated.of(s).simulatedEndNs), kToleranceNs)
            << "stage " << s;
    }
    EXPECT_LE(worst, kToleranceNs);
    std::cout << "replayed vs simulated rounds: largest difference of a kernel or collective time " << worst
              << " ns\n";
}

// 1F1B's fill: stage s's first forward waits for the activation of stage s-1's, so the stages
// start their first GEMM in stage order, each at least one forward (two GEMMs) after the last.
TEST(PipelineRun, StagesStartTheirFirstForwardInStageOrder) {
    const ClusterResult& cluster = pipelineCluster();
    std::vector<RunRecord> stages;
    for (std::uint32_t s = 0; s < kPipelineStages; ++s) stages.push_back(recordOfRank(cluster.of(s), s));
    for (std::uint32_t s = 1; s < kPipelineStages; ++s) {
        const KernelRecord& previous = firstForwardKernel(stages[s - 1]);
        const KernelRecord& own = firstForwardKernel(stages[s]);
        const std::uint64_t gemmNs = previous.device.endNs - previous.device.startNs;
        EXPECT_GT(own.device.startNs, previous.device.startNs + 2 * gemmNs) << "stage " << s;
    }
}

TEST(PipelineRun, EachSendMeetsItsReceiveOnTheNextStage) {
    const ClusterResult& cluster = pipelineCluster();
    std::vector<RunRecord> stages;
    for (std::uint32_t s = 0; s < kPipelineStages; ++s) stages.push_back(recordOfRank(cluster.of(s), s));
    // Stage s receives 4 activations from s-1 and 4 gradients from s+1, and sends as many.
    for (std::uint32_t s = 0; s < kPipelineStages; ++s) {
        const std::size_t neighbours = (s > 0 ? 1 : 0) + (s + 1 < kPipelineStages ? 1 : 0);
        EXPECT_EQ(opsOfType(stages[s], "hcom_receive_").size(), 4 * neighbours) << "stage " << s;
        EXPECT_EQ(opsOfType(stages[s], "hcom_send_").size(), 4 * neighbours) << "stage " << s;
    }
    // Stage 3 (last) receives its first activation only after three stages' forwards: it arrives
    // early and waits; stage 0 receives no activation at all.
    const auto lastReceives = opsOfType(stages[3], "hcom_receive_");
    ASSERT_EQ(lastReceives.size(), 4u);
    const auto& first = *lastReceives.front();
    const auto wait = std::find_if(first.tasks.begin(), first.tasks.end(),
                                   [](const HcclTask& t) { return t.kind == HcclTaskKind::NotifyWait; });
    ASSERT_NE(wait, first.tasks.end());
    const auto firstStageSends = opsOfType(stages[0], "hcom_send_");
    ASSERT_EQ(firstStageSends.size(), 4u);  // activations only
    // Stage 2's first activation send is stage 3's first receive: they end together or the
    // receive ends after the send arrived.
    const auto stage2Sends = opsOfType(stages[2], "hcom_send_");
    ASSERT_FALSE(stage2Sends.empty());
    EXPECT_GE(first.endNs, stage2Sends.front()->startNs);
    EXPECT_GT(wait->durationNs, (first.endNs - first.startNs) / 2);  // most of it is the wait
    // The pipeline fill: stage 0 waits for its first output gradient longer than stage 2 does.
    const auto grad0 = opsOfType(stages[0], "hcom_receive_");
    const auto grad2 = opsOfType(stages[2], "hcom_receive_");
    ASSERT_EQ(grad0.size(), 4u);
    ASSERT_EQ(grad2.size(), 8u);  // 4 activations, 4 gradients
    EXPECT_GT(grad0.front()->endNs - grad0.front()->startNs, 0u);
}

class PipelineDirectories : public RankDirectoriesRun {
  protected:
    static void SetUpTestSuite() { runWorkload("pipeline_1f1b.yaml", kQuarterRows); }
};

TEST_F(PipelineDirectories, StepTraceBubbleIsTheTimeInReceives) {
    ASSERT_EQ(dirs_->size(), kPipelineStages);
    const ClusterResult& cluster = pipelineCluster();
    double firstBubble = 0.0, lastBubble = 0.0;
    for (std::uint32_t s = 0; s < kPipelineStages; ++s) {
        const CsvTable table = readCsv(output(s) / "step_trace_time.csv");
        ASSERT_EQ(table.rows.size(), 1u);
        const double bubble = std::stod(table.cell(0, "Bubble"));
        const double stage = std::stod(table.cell(0, "Stage"));
        double receivesUs = 0.0;
        const RunRecord r = recordOfRank(cluster.of(s), s);
        for (const auto* op : opsOfType(r, "hcom_receive_")) receivesUs += static_cast<double>(op->endNs - op->startNs) / 1000.0;
        EXPECT_NEAR(bubble, receivesUs, 0.01) << "stage " << s;
        EXPECT_GT(bubble, 0.0) << "stage " << s;
        EXPECT_GT(stage, 0.0) << "stage " << s;
        const double notOverlapped = std::stod(table.cell(0, "Communication(Not Overlapped)"));
        const double excludeReceive = std::stod(table.cell(0, "Communication(Not Overlapped and Exclude Receive)"));
        EXPECT_NEAR(excludeReceive, std::max(notOverlapped - bubble, 0.0), 0.01) << "stage " << s;
        if (s == 0) firstBubble = bubble;
        lastBubble = bubble;
    }
    // The last stage waits longest: for the pipeline to fill before its first forward.
    EXPECT_GT(lastBubble, firstBubble);
}

TEST_F(PipelineDirectories, CommunicationJsonListsTheTransfersAsP2p) {
    for (std::uint32_t s = 0; s < kPipelineStages; ++s) {
        const json comm = readJson(output(s) / "communication.json");
        ASSERT_EQ(comm.size(), 1u);
        const json& step = comm.begin().value();
        ASSERT_TRUE(step.contains("p2p"));
        std::size_t receives = 0, sends = 0;
        for (const auto& [name, op] : step["p2p"].items()) {
            (void)op;
            if (name.rfind("hcom_receive_", 0) == 0) ++receives;
            if (name.rfind("hcom_send_", 0) == 0) ++sends;
        }
        const std::size_t neighbours = (s > 0 ? 1 : 0) + (s + 1 < kPipelineStages ? 1 : 0);
        EXPECT_EQ(receives, 4 * neighbours) << "stage " << s;
        EXPECT_EQ(sends, 4 * neighbours) << "stage " << s;
    }
}

}  // namespace
}  // namespace ascendsim::e2e
