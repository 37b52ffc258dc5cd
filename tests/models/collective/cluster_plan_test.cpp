// Collective plans over groups spanning servers: HCCL's algorithm choice, the phases of each
// level, and the tasks the real cluster sample shows (e5a31957 test_rank_0/1: GPT-3 over 16
// ranks on 2 servers). Round link figures (hccl_collective_test_support.h) keep the arithmetic
// readable.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <stdexcept>

#include "models/collective/collective_plan.h"
#include "tests/models/collective/hccl_collective_test_support.h"

namespace ascendsim {
namespace {

ClusterTopology roundFigureCluster() {
    HcclLinkConfig link = testing::roundFigureLink();
    link.rdmaBandwidthGBps = 20.0;
    link.rdmaLatencyUs = 4.0;
    link.switchLatencyUs = 1.0;
    return ClusterTopology(link);
}

CollectiveRequest over(CollectiveOp op, std::uint64_t bytes, std::vector<std::uint32_t> ranks) {
    CollectiveRequest r;
    r.op = op;
    r.bytes = bytes;
    r.groupRanks = std::move(ranks);
    return r;
}

std::vector<std::uint32_t> firstRanks(std::uint32_t n) {
    std::vector<std::uint32_t> ranks(n);
    std::iota(ranks.begin(), ranks.end(), 0u);
    return ranks;
}

// Bytes of this member's transfers by (transport, peer group rank).
std::map<std::pair<HcclLinkType, std::uint32_t>, std::uint64_t> bytesByLink(
    const CollectiveSchedule& s) {
    std::map<std::pair<HcclLinkType, std::uint32_t>, std::uint64_t> out;
    for (const HcclTask& t : s.tasks)
        if (t.kind == HcclTaskKind::Memcpy || t.kind == HcclTaskKind::ReduceInline)
            out[{t.link, t.dstRank}] += t.sizeBytes;
    return out;
}

TEST(ClusterPlan, HcclChoosesTheInterServerAlgorithmBySizeAndServerCount) {
    using A = InterServerAlgorithm;
    EXPECT_EQ(chooseInterServerAlgorithm(CollectiveOp::AllReduce, 1, 1 << 30), A::None);
    EXPECT_EQ(chooseInterServerAlgorithm(CollectiveOp::AllReduce, 4, 1 << 30), A::HalvingDoubling);
    EXPECT_EQ(chooseInterServerAlgorithm(CollectiveOp::AllReduce, 3, 1 << 30), A::Ring);
    EXPECT_EQ(chooseInterServerAlgorithm(CollectiveOp::AllReduce, 3, kHalvingDoublingSmallBytes),
              A::HalvingDoubling);
    EXPECT_EQ(chooseInterServerAlgorithm(CollectiveOp::AllGather, 3, 1024), A::Ring);
    EXPECT_EQ(chooseInterServerAlgorithm(CollectiveOp::AllToAll, 4, 1024), A::Pairwise);
    EXPECT_EQ(chooseInterServerAlgorithm(CollectiveOp::Send, 4, 1024), A::None);
}

// [D] hcom_allGather__822_4: rank 0 moves its 100 B chunk to each of 7 HCCS peers, then the
// server's 800 B to rank 8 in one RDMA transfer.
TEST(ClusterPlan, AllGatherOverTwoServersMatchesTheSamplesLinks) {
    const ClusterTopology topology = roundFigureCluster();
    const CollectivePlan plan = planCollective(over(CollectiveOp::AllGather, 100, firstRanks(16)),
                                               topology);
    const auto links = bytesByLink(memberSchedule(plan, 0, topology));
    for (std::uint32_t peer = 1; peer < 8; ++peer)
        EXPECT_EQ((links.at({HcclLinkType::Hccs, peer})), 100u) << peer;
    EXPECT_EQ((links.at({HcclLinkType::Rdma, 8})), 800u);
    EXPECT_EQ(links.size(), 9u);  // the 7 peers, rank 8 and the local copies
}

// [D] hcom_allReduce__459_0 over global ranks (0, 8): RDMA 131.072 MB in two 65.536 MB
// transfers, on the link "0-1" (group ranks).
TEST(ClusterPlan, AllReduceOfOneRankPerServerIsHalvingDoublingOnGroupRanks) {
    const ClusterTopology topology = roundFigureCluster();
    const CollectivePlan plan =
        planCollective(over(CollectiveOp::AllReduce, 131072000, {0, 8}), topology);
    const CollectiveSchedule s = memberSchedule(plan, 0, topology);
    std::vector<std::uint64_t> rdma;
    for (const HcclTask& t : s.tasks)
        if (t.link == HcclLinkType::Rdma) {
            rdma.push_back(t.sizeBytes);
            EXPECT_EQ(t.srcRank, 0u);
            EXPECT_EQ(t.dstRank, 1u);
        }
    EXPECT_EQ(rdma, (std::vector<std::uint64_t>{65536000, 65536000}));
}

// [D] hcom_send__822_0 (0 -> 8): the sender copies and writes over RDMA; hcom_receive__822_0:
// the receiver only copies.
TEST(ClusterPlan, SendAndReceiveSplitTheMessageBetweenTheirOps) {
    const ClusterTopology topology = roundFigureCluster();
    CollectiveRequest send = over(CollectiveOp::Send, 0, firstRanks(16));
    send.messages.push_back({0, 8, 1000000});
    CollectiveRequest recv = send;
    recv.op = CollectiveOp::Recv;
    const CollectivePlan sendPlan = planCollective(send, topology);
    const CollectivePlan recvPlan = planCollective(recv, topology);
    const auto sender = bytesByLink(memberSchedule(sendPlan, 0, topology));
    EXPECT_EQ((sender.at({HcclLinkType::Rdma, 8})), 1000000u);
    EXPECT_EQ((sender.at({HcclLinkType::OnChip, 0})), 1000000u);
    const auto receiver = bytesByLink(memberSchedule(recvPlan, 8, topology));
    EXPECT_EQ(receiver.size(), 1u);
    EXPECT_EQ((receiver.at({HcclLinkType::OnChip, 8})), 1000000u);
    EXPECT_TRUE(memberSchedule(sendPlan, 3, topology).tasks.empty());  // a bystander
    // The sender is done when its write is; the receiver when its copy is.
    EXPECT_LT(memberSchedule(sendPlan, 0, topology).durationNs, recvPlan.durationNs);
    EXPECT_EQ(memberSchedule(recvPlan, 8, topology).durationNs, recvPlan.durationNs);
}

TEST(ClusterPlan, AllToAllRegroupsInsideServersThenSwapsServerBlocksPairwise) {
    const ClusterTopology topology = roundFigureCluster();
    // 2 servers x 2 members: ranks 0, 1 on server 0, ranks 8, 9 on server 1.
    const CollectivePlan plan =
        planCollective(over(CollectiveOp::AllToAll, 1000, {0, 1, 8, 9}), topology);
    EXPECT_EQ(plan.interServer, InterServerAlgorithm::Pairwise);
    ASSERT_EQ(plan.phases.size(), 3u);
    EXPECT_EQ(plan.phases[1].bytesPerStep, 2000u);  // for the peer and its counterpart
    EXPECT_EQ(plan.phases[2].bytesPerStep, 2000u);  // the server's data for one member
    const auto links = bytesByLink(memberSchedule(plan, 0, topology));
    EXPECT_EQ((links.at({HcclLinkType::Hccs, 1})), 2000u);
    EXPECT_EQ((links.at({HcclLinkType::Rdma, 2})), 2000u);
}

TEST(ClusterPlan, AllToAllVStepsLastAsLongAsTheLargestBlock) {
    const ClusterTopology topology = roundFigureCluster();
    CollectiveRequest r = over(CollectiveOp::AllToAllV, 0, {0, 1, 2});
    r.sendBytes = {{0, 10, 20}, {30, 0, 40}, {50, 60, 0}};
    const CollectivePlan plan = planCollective(r, topology);
    ASSERT_EQ(plan.phases.size(), 2u);
    EXPECT_EQ(plan.phases[1].bytesPerStep, 60u);
    const auto links = bytesByLink(memberSchedule(plan, 1, topology));
    EXPECT_EQ((links.at({HcclLinkType::Hccs, 0})), 30u);
    EXPECT_EQ((links.at({HcclLinkType::Hccs, 2})), 40u);
}

TEST(ClusterPlan, EveryOpsPhasesAddUpToItsDurationAndEveryMemberEndsThen) {
    const ClusterTopology topology = roundFigureCluster();
    const std::vector<std::uint32_t> group = {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19};
    for (CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::AllGather,
                            CollectiveOp::ReduceScatter, CollectiveOp::Broadcast,
                            CollectiveOp::Reduce, CollectiveOp::AllToAll}) {
        CollectiveRequest r = over(op, 3 << 20, group);
        r.root = 5;
        const CollectivePlan plan = planCollective(r, topology);
        std::uint64_t sum = 0;
        for (const auto& p : plan.phases) sum += p.durationNs;
        EXPECT_EQ(sum, plan.durationNs) << static_cast<int>(op);
        for (std::uint32_t m = 0; m < group.size(); ++m) {
            const CollectiveSchedule s = memberSchedule(plan, m, topology);
            EXPECT_EQ(s.durationNs, plan.durationNs);
            for (const HcclTask& t : s.tasks) EXPECT_LE(t.startNs + t.durationNs, plan.durationNs);
        }
    }
}

TEST(ClusterPlan, BadRequestsAreRejectedWithTheReason) {
    const ClusterTopology topology = roundFigureCluster();
    EXPECT_THROW(planCollective(over(CollectiveOp::AllReduce, 8, {}), topology),
                 std::invalid_argument);
    EXPECT_THROW(planCollective(over(CollectiveOp::AllReduce, 8, {0, 0}), topology),
                 std::invalid_argument);
    CollectiveRequest root = over(CollectiveOp::Broadcast, 8, {0, 1});
    root.root = 2;
    EXPECT_THROW(planCollective(root, topology), std::invalid_argument);
    try {
        planCollective(over(CollectiveOp::AllReduce, 8, firstRanks(9)), topology);
        FAIL() << "an asymmetric group was planned";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("asymmetric"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace ascendsim
