// The link model pinned to the shipped figures: every phase of a plan is asserted against
// latency + bytes / bandwidth computed here from the figures written out below (configs/
// Ascend910B1.yaml, Ascend910_9391.yaml). Changing any link figure in a config changes an
// expected time, so such a change fails one of these tests until the figure here is updated
// with it.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "models/collective/collective_plan.h"
#include "sim/config/chip_config_loader.h"
#include "tests/sim/config/shipped_configs.h"

namespace ascendsim {
namespace {

// configs/Ascend910B1.yaml, hccl section.
constexpr double kHccsGBps = 21.15;
constexpr double kReduceGBps = 14.83;
constexpr double kLocalGBps = 435;
constexpr double kHccsLatencyNs = 50000;
constexpr double kRecordNs = 720;
constexpr double kWaitNs = 20;
constexpr double kRdmaGBps = 24.46;
constexpr double kRdmaLatencyNs = 8600 + 1000;  // rdma_latency_us + switch_latency_us
// configs/Ascend910_9391.yaml.
constexpr double kSioGBps = 42.3;
constexpr std::uint32_t k9391NpusPerServer = 16;

double ns(double bytes, double gbps) {
    return std::round(bytes / gbps);
}
// Both handshakes of a phase, before and after its transfer.
constexpr double kHandshakesNs = 2 * kRecordNs + 2 * kWaitNs;

ClusterTopology topologyOf(const std::string& chip) {
    return ClusterTopology(loadChipByName(chip, shippedConfigDir()).hccl);
}

CollectiveRequest over(CollectiveOp op, std::uint64_t bytes, std::uint32_t ranks) {
    CollectiveRequest r;
    r.op = op;
    r.bytes = bytes;
    r.groupRanks.resize(ranks);
    std::iota(r.groupRanks.begin(), r.groupRanks.end(), 0u);
    return r;
}

void expectPhase(const CollectivePhase& p, const std::string& name, std::uint32_t steps,
                 double expectedNs) {
    SCOPED_TRACE(p.name);
    EXPECT_EQ(p.name, name);
    EXPECT_EQ(p.steps, steps);
    // 1 ns: the model rounds the reduce rate once, the test per term.
    EXPECT_NEAR(static_cast<double>(p.durationNs), expectedNs, 1.0);
}

std::uint64_t sumOfPhases(const CollectivePlan& plan) {
    std::uint64_t sum = 0;
    for (const auto& p : plan.phases) sum += p.durationNs;
    return sum;
}

// The real 8-rank sample's bucket (e5a31957): 16388000 B, sliced into 2064384 B per rank.
constexpr std::uint64_t kBucketBytes = 16388000;
constexpr double kSlice = 2064384;

TEST(LinkModel, OneServerAllReducePhasesFollowTheHccsFigures) {
    const ClusterTopology topology = topologyOf("Ascend910B1");
    const CollectivePlan plan = planCollective(over(CollectiveOp::AllReduce, kBucketBytes, 8), topology);
    ASSERT_EQ(plan.phases.size(), 4u);
    EXPECT_EQ(plan.algorithmName, "MESH-RING");
    expectPhase(plan.phases[0], "copy input slice", 1, ns(kSlice, kLocalGBps));
    expectPhase(plan.phases[1], "intra reduce-scatter", 1,
                kHandshakesNs + kHccsLatencyNs + ns(kSlice, kReduceGBps));
    expectPhase(plan.phases[2], "copy reduced slice", 1, ns(kSlice, kLocalGBps));
    expectPhase(plan.phases[3], "intra all-gather", 1,
                kHandshakesNs + kHccsLatencyNs + ns(kSlice, kHccsGBps));
    EXPECT_EQ(plan.durationNs, sumOfPhases(plan));
}

TEST(LinkModel, TwoServerAllReduceAddsHalvingDoublingOverRdma) {
    const ClusterTopology topology = topologyOf("Ascend910B1");
    const CollectivePlan plan =
        planCollective(over(CollectiveOp::AllReduce, kBucketBytes, 16), topology);
    EXPECT_EQ(plan.servers, 2u);
    EXPECT_EQ(plan.interServer, InterServerAlgorithm::HalvingDoubling);
    EXPECT_EQ(plan.algorithmName, "MESH-HD");
    ASSERT_EQ(plan.phases.size(), 6u);
    const double half = kSlice / 2;  // each server's half of this rank's slice
    expectPhase(plan.phases[1], "intra reduce-scatter", 1,
                kHandshakesNs + kHccsLatencyNs + ns(kSlice, kReduceGBps));
    // RDMA write, then the peer's on-chip reduce: the two rates' times add.
    expectPhase(plan.phases[2], "inter halving reduce-scatter", 1,
                kHandshakesNs + kRdmaLatencyNs + std::round(half / kRdmaGBps + half / kLocalGBps));
    expectPhase(plan.phases[3], "inter doubling all-gather", 1,
                kHandshakesNs + kRdmaLatencyNs + ns(half, kRdmaGBps));
    expectPhase(plan.phases[5], "intra all-gather", 1,
                kHandshakesNs + kHccsLatencyNs + ns(kSlice, kHccsGBps));
    EXPECT_EQ(plan.durationNs, sumOfPhases(plan));
}

TEST(LinkModel, ThreeServerLargeAllReduceRingsOverRdma) {
    const ClusterTopology topology = topologyOf("Ascend910B1");
    const CollectivePlan plan =
        planCollective(over(CollectiveOp::AllReduce, kBucketBytes, 24), topology);
    EXPECT_EQ(plan.interServer, InterServerAlgorithm::Ring);
    ASSERT_EQ(plan.phases.size(), 6u);
    // Level 0 still slices over the 8 ranks of a server; level 1 cuts the slice in 3 blocks.
    const double block = std::ceil(kSlice / 3);
    expectPhase(plan.phases[2], "inter ring reduce-scatter", 2,
                2 * (kHandshakesNs + kRdmaLatencyNs +
                     std::round(block / kRdmaGBps + block / kLocalGBps)));
    expectPhase(plan.phases[3], "inter ring all-gather", 2,
                2 * (kHandshakesNs + kRdmaLatencyNs + ns(block, kRdmaGBps)));
}

TEST(LinkModel, SendAcrossServersIsOneRdmaTransferNearTheSample) {
    const ClusterTopology topology = topologyOf("Ascend910B1");
    CollectiveRequest r = over(CollectiveOp::Send, 0, 16);
    r.messages.push_back({0, 8, 20971520});
    const CollectivePlan plan = planCollective(r, topology);
    ASSERT_EQ(plan.phases.size(), 3u);
    expectPhase(plan.phases[1], "p2p transfer", 1,
                kHandshakesNs + kRdmaLatencyNs + ns(20971520, kRdmaGBps));
    // [D] e5a31957 test_rank_0 hcom_send__822_0: the RDMA transfer took 863.8 us.
    const CollectiveSchedule sender = memberSchedule(plan, 0, topology);
    for (const HcclTask& t : sender.tasks) {
        if (t.link == HcclLinkType::Rdma) {
            EXPECT_NEAR(static_cast<double>(t.durationNs) / 1000.0, 863.8, 863.8 * 0.01);
        }
    }
}

TEST(LinkModel, DualDieCardsTalkOverSioAndOtherCardsOverHccs) {
    const ClusterTopology topology = topologyOf("Ascend910_9391");
    EXPECT_EQ(topology.npusPerServer(), k9391NpusPerServer);
    const double bytes = 8388608;
    CollectiveRequest sio = over(CollectiveOp::Send, 0, 16);
    sio.messages.push_back({0, 1, 8388608});
    expectPhase(planCollective(sio, topology).phases[1], "p2p transfer", 1,
                kHandshakesNs + kHccsLatencyNs + ns(bytes, kSioGBps));
    CollectiveRequest hccs = sio;
    hccs.messages = {{0, 2, 8388608}};
    expectPhase(planCollective(hccs, topology).phases[1], "p2p transfer", 1,
                kHandshakesNs + kHccsLatencyNs + ns(bytes, kHccsGBps));
    EXPECT_EQ(topology.transportBetween(15, 16), HcclLinkType::Rdma);
}

// Issue 15's case: halving hccl.link_bandwidth_gbps used to change the step time silently. The
// all-gather phase moves the largest slice over HCCS, so it grows by exactly the slice's extra
// time at half the rate; the inline reduce cannot outrun its link, so at 10.575 GB/s the link
// rather than the 14.83 GB/s reduce rate bounds the reduce-scatter.
TEST(LinkModel, HalvingTheHccsBandwidthSlowsBothMeshPhasesByTheSliceTime) {
    ChipConfig chip = loadChipByName("Ascend910B1", shippedConfigDir());
    const CollectiveRequest r = over(CollectiveOp::AllReduce, kBucketBytes, 8);
    const CollectivePlan before = planCollective(r, ClusterTopology(chip.hccl));
    chip.hccl.linkBandwidthGBps /= 2;
    const CollectivePlan after = planCollective(r, ClusterTopology(chip.hccl));
    EXPECT_NEAR(static_cast<double>(after.phases[1].durationNs - before.phases[1].durationNs),
                ns(kSlice, kHccsGBps / 2) - ns(kSlice, kReduceGBps), 1.0);
    EXPECT_NEAR(static_cast<double>(after.phases[3].durationNs - before.phases[3].durationNs),
                ns(kSlice, kHccsGBps / 2) - ns(kSlice, kHccsGBps), 1.0);
}

}  // namespace
}  // namespace ascendsim
