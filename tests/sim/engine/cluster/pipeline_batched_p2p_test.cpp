// The 1F1B pipeline with Megatron's batch_p2p_comm (workloads/unit/pipeline_1f1b.yaml
// `--set batch_p2p=1`, a quarter of its rows): each p2p call is one hcom_batchSendRecv_, a call
// meets its neighbour's matching call (both end when the later of the two has arrived, plus the
// transfer), its receiver moves each message, and step_trace_time.csv has no Bubble, as torch_npu counts only hcom_receive_ there
// ([D] ef63bc64 level2: Bubble 0 beside 158 ms batch ops).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/engine/cluster/cluster_run.h"
#include "sim/engine/ranks/rank_records.h"
#include "sim/engine/rank_directories_run.h"
#include "sim/workload/parallel/pipeline_schedule.h"

namespace ascendsim::e2e {
namespace {

constexpr std::uint32_t kStages = 4, kMicroBatches = 4;
const std::vector<std::string> kBatched = {"rows=1024", "batch_p2p=1"};

const ClusterResult& batchedCluster() {
    static const ClusterResult cluster = [] {
        SimulationOptions options = commandOptions(unitWorkload("pipeline_1f1b.yaml"), fs::temp_directory_path());
        options.setOverrides = kBatched;
        return runCluster(options);
    }();
    return cluster;
}

// Per p2p call of `stage`, in issue order: whether it goes to the next stage (else the previous).
std::vector<bool> callsToNext(std::uint32_t stage) {
    std::vector<bool> calls;
    const auto steps = oneForwardOneBackward(stage, kStages, kMicroBatches);
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const PipelineStepKind kind = steps[k].kind;
        if (kind == PipelineStepKind::Forward || kind == PipelineStepKind::Backward) continue;
        calls.push_back(kind == PipelineStepKind::SendForward || kind == PipelineStepKind::RecvBackward);
        if (steps[k].callWithNext) ++k;
    }
    return calls;
}

std::vector<const CommunicationOpRecord*> batches(const RunRecord& r) {
    std::vector<const CommunicationOpRecord*> ops;
    for (const auto& op : r.communicationOps) {
        EXPECT_EQ(op.opType, "hcom_batchSendRecv_") << op.name;
        if (op.opType == "hcom_batchSendRecv_") ops.push_back(&op);
    }
    return ops;
}

TEST(PipelineBatchedP2p, EachCallMeetsItsNeighboursCallAndEndsWithIt) {
    const ClusterResult& cluster = batchedCluster();
    EXPECT_EQ(cluster.simulations, kStages);
    std::vector<RunRecord> stages;
    for (std::uint32_t s = 0; s < kStages; ++s) stages.push_back(recordOfRank(cluster.of(s), s));
    for (std::uint32_t s = 0; s + 1 < kStages; ++s) {
        const auto own = batches(stages[s]), next = batches(stages[s + 1]);
        const std::vector<bool> ownTo = callsToNext(s), nextTo = callsToNext(s + 1);
        ASSERT_EQ(own.size(), ownTo.size()) << "stage " << s;
        ASSERT_EQ(next.size(), nextTo.size()) << "stage " << s + 1;
        // The n-th call of s to s+1 and the n-th call of s+1 to s are one batch: both end together.
        std::vector<const CommunicationOpRecord*> down, up;
        for (std::size_t k = 0; k < own.size(); ++k)
            if (ownTo[k]) down.push_back(own[k]);
        for (std::size_t k = 0; k < next.size(); ++k)
            if (!nextTo[k]) up.push_back(next[k]);
        ASSERT_EQ(down.size(), up.size()) << "stages " << s << ", " << s + 1;
        for (std::size_t n = 0; n < down.size(); ++n) {
            const std::uint64_t a = down[n]->endNs, b = up[n]->endNs;
            // Within the local copies at either end (a few us for these 1 MiB messages).
            EXPECT_LT(a > b ? a - b : b - a, 20'000u) << "stages " << s << ", " << s + 1 << " call " << n;
            EXPECT_GE(a, up[n]->startNs) << "a call cannot end before its partner arrived";
            EXPECT_GE(b, down[n]->startNs) << "a call cannot end before its partner arrived";
        }
    }
}

class BatchedPipelineDirectories : public RankDirectoriesRun {
  protected:
    static void SetUpTestSuite() { runWorkload("pipeline_1f1b.yaml", kBatched); }
};

TEST_F(BatchedPipelineDirectories, CommunicationJsonHasBatchOpsAndStepTraceNoBubble) {
    ASSERT_EQ(dirs_->size(), kStages);
    for (std::uint32_t s = 0; s < kStages; ++s) {
        const json comm = readJson(output(s) / "communication.json");
        ASSERT_EQ(comm.size(), 1u);
        const json& p2p = comm.begin().value().at("p2p");
        std::size_t batchOps = 0;
        for (const auto& [name, op] : p2p.items()) {
            (void)op;
            EXPECT_TRUE(name.rfind("hcom_batchSendRecv__", 0) == 0 || name == "Total Op Info") << name;
            batchOps += name.rfind("hcom_batchSendRecv__", 0) == 0;
        }
        EXPECT_EQ(batchOps, callsToNext(s).size()) << "stage " << s;
        const CsvTable table = readCsv(output(s) / "step_trace_time.csv");
        ASSERT_EQ(table.rows.size(), 1u);
        EXPECT_EQ(std::stod(table.cell(0, "Bubble")), 0.0) << "stage " << s;
        EXPECT_GT(std::stod(table.cell(0, "Communication(Not Overlapped)")), 0.0) << "stage " << s;
    }
}

TEST_F(BatchedPipelineDirectories, TheReceiverOfABatchMovesItsMessage) {
    // As in ef63bc64 level2 rank 0: a send-only batch shows no HCCS bytes, a batch that receives
    // shows the one message it receives (here 1024 x 2048 fp16 = 4.194304 MB).
    const json comm = readJson(output(0) / "communication.json");
    const json& p2p = comm.begin().value().at("p2p");
    std::vector<double> hccs;
    for (const auto& [name, op] : p2p.items())
        if (name != "Total Op Info") hccs.push_back(op.at("Communication Bandwidth Info").at("HCCS").at("Transit Size(MB)").get<double>());
    // Stage 0: 4 send_forward (3 warm-up alone, the 4th with the first gradient), 3 recv_backward.
    ASSERT_EQ(hccs.size(), 7u);
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(hccs[k], 0.0) << "send-only batch " << k;
    for (std::size_t k = 3; k < 7; ++k) EXPECT_NEAR(hccs[k], 4.194304, 1e-6) << "receiving batch " << k;
}

}  // namespace
}  // namespace ascendsim::e2e
