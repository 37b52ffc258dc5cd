// Parallel groups and distinct ranks end to end (workloads/unit/tp_dp.yaml: TP2 x DP2): every
// collective names its group, and a slow rank delays exactly the ranks that share a collective
// with it, each waiting in a long first Notify_Wait.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/engine/cluster/cluster_run.h"
#include "sim/engine/e2e_support.h"
#include "sim/engine/ranks/rank_records.h"

namespace ascendsim::e2e {
namespace {

SimulationOptions tpDpOptions(std::vector<std::string> sets = {}) {
    SimulationOptions options = commandOptions(unitWorkload("tp_dp.yaml"), fs::temp_directory_path());
    options.setOverrides = std::move(sets);
    return options;
}

std::uint64_t computeNs(const RunRecord& r) {
    std::uint64_t busy = 0;
    for (const auto& k : r.kernels) busy += k.device.endNs - k.device.startNs;
    return busy;
}

const HcclTask* firstNotifyWait(const CommunicationOpRecord& op) {
    for (const HcclTask& t : op.tasks)
        if (t.kind == HcclTaskKind::NotifyWait) return &t;
    return nullptr;
}

TEST(ClusterRun, EveryCollectiveNamesItsGroupAndTheRankKnowsItsGroups) {
    const ClusterResult cluster = runCluster(tpDpOptions());
    ASSERT_EQ(cluster.classOfRank.size(), 4u);
    EXPECT_EQ(cluster.simulations, 1u);  // alike ranks are simulated once
    std::vector<RunRecord> ranks;
    for (std::uint32_t r = 0; r < 4; ++r) ranks.push_back(recordOfRank(cluster.of(r), r));
    const auto groupOf = [&](std::uint32_t rank, std::size_t op) { return ranks[rank].communicationOps[op].groupName; };
    // Op 0 is the tp allreduce, op 1 the dp one (step 0).
    EXPECT_EQ(groupOf(0, 0), groupOf(1, 0));
    EXPECT_NE(groupOf(0, 0), groupOf(2, 0));
    EXPECT_EQ(groupOf(0, 1), groupOf(2, 1));
    EXPECT_NE(groupOf(0, 1), groupOf(1, 1));
    EXPECT_NE(groupOf(0, 0), groupOf(0, 1));
    // Each communicator numbers its own ops: both are the first of their group in the step.
    EXPECT_EQ(ranks[0].communicationOps[0].name.substr(ranks[0].communicationOps[0].name.size() - 4), "_0_1");
    EXPECT_EQ(ranks[0].communicationOps[1].name.substr(ranks[0].communicationOps[1].name.size() - 4), "_0_1");
    EXPECT_EQ(ranks[3].communicationOps[0].rankSize, 2u);
    ASSERT_TRUE(ranks[3].distributed.has_value());
    const auto& groups = ranks[3].distributed->groups;
    const auto tp = std::find_if(groups.begin(), groups.end(), [](const auto& g) { return g.name == "tp"; });
    ASSERT_NE(tp, groups.end());
    EXPECT_EQ(tp->globalRanks, (std::vector<std::uint32_t>{2, 3}));
    EXPECT_EQ(tp->groupRank, 1u);
}

TEST(ClusterRun, ASlowRankMakesItsGroupsWaitInTheirFirstNotifyWait) {
    const ClusterResult even = runCluster(tpDpOptions());
    const ClusterResult slow = runCluster(tpDpOptions({"slow_rank=1:1.5"}));
    EXPECT_GE(slow.rounds, 2u);
    std::vector<RunRecord> r;
    for (std::uint32_t rank = 0; rank < 4; ++rank) r.push_back(recordOfRank(slow.of(rank), rank));
    const RunRecord evenRank0 = recordOfRank(even.of(0), 0);
    // The slow rank computes longer (its cores' clock is 1/1.5: the GEMM takes 1.5x, the
    // memory-bound Muls hardly longer).
    EXPECT_GT(static_cast<double>(computeNs(r[1])) / static_cast<double>(computeNs(r[0])), 1.3);
    // Rank 0's own work is the same; its kernels start at other absolute times (after waits), so
    // the cycle-to-ns rounding of each kernel's dispatch may differ by 1 ns.
    EXPECT_NEAR(static_cast<double>(computeNs(r[0])), static_cast<double>(computeNs(evenRank0)),
                static_cast<double>(r[0].kernels.size()));
    // Rank 0 shares the tp allreduce with rank 1: it arrives first and waits for it.
    const CommunicationOpRecord& early = r[0].communicationOps[0];
    const CommunicationOpRecord& late = r[1].communicationOps[0];
    EXPECT_LT(early.startNs, late.startNs);
    EXPECT_EQ(early.endNs, late.endNs);
    // hccl's timeline: the early rank's first Notify_Wait spans the other's lateness on top of
    // the handshake the late rank waits for alone.
    const HcclTask* earlyWait = firstNotifyWait(early);
    const HcclTask* lateWait = firstNotifyWait(late);
    ASSERT_NE(earlyWait, nullptr);
    ASSERT_NE(lateWait, nullptr);
    EXPECT_EQ(earlyWait->durationNs - lateWait->durationNs, late.startNs - early.startNs);
    // Ranks 2 and 3 share no tp collective with rank 1, but rank 2's dp allreduce waits for
    // rank 0, which waited for rank 1.
    EXPECT_EQ(r[2].communicationOps[0].endNs, recordOfRank(even.of(2), 2).communicationOps[0].endNs);
    EXPECT_EQ(r[2].communicationOps[1].endNs, r[0].communicationOps[1].endNs);
    EXPECT_GT(r[2].communicationOps[1].endNs, recordOfRank(even.of(2), 2).communicationOps[1].endNs);
}

TEST(ClusterRun, HostJitterIsDeterministicPerRank) {
    const ClusterResult a = runCluster(tpDpOptions({"host_jitter=300"}));
    const ClusterResult b = runCluster(tpDpOptions({"host_jitter=300"}));
    for (std::uint32_t rank = 0; rank < 4; ++rank) {
        EXPECT_EQ(recordOfRank(a.of(rank), rank).steps.front().startNs, recordOfRank(b.of(rank), rank).steps.front().startNs);
        EXPECT_EQ(a.of(rank).variant.hostStartNs, initialVariantOf(a.of(0).workload, rank).hostStartNs);
    }
    EXPECT_NE(a.of(0).variant.hostStartNs, a.of(1).variant.hostStartNs);
}

}  // namespace
}  // namespace ascendsim::e2e
