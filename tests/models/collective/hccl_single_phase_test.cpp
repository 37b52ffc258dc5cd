// The mesh AllGather and ReduceScatter models: one local copy of the rank's chunk, one phase in
// which every peer plane moves one chunk (Memcpy for AllGather, Reduce_Inline for
// ReduceScatter), one more local copy; the phase ends on all planes when the slowest link does.
#include "models/collective/hccl_single_phase.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "hccl_collective_test_support.h"

namespace ascendsim {
namespace {

using testing::linkBytesByPeer;
using testing::planeEnds;
using testing::roundFigureLink;
using testing::tasksOfKind;

// record + wait, transfer latency, record + wait, in ns (roundFigureLink's figures).
constexpr double kPhaseOverheadNs = 1000.0 * (2 * 0.5 + 2 * 0.25 + 10.0);

TEST(HcclAllGather, EveryPeerPlaneWritesOneChunkBetweenTwoLocalCopies) {
    const std::uint64_t chunk = 1 << 20;
    const CollectiveSchedule s = planMeshAllGather(chunk, 4, 1, roundFigureLink());
    ASSERT_EQ(s.tasks.size(), 2u + 3u * 5u);
    EXPECT_EQ(s.tasks.front().kind, HcclTaskKind::Memcpy);
    EXPECT_EQ(s.tasks.front().link, HcclLinkType::OnChip);
    EXPECT_EQ(s.tasks.front().sizeBytes, chunk);
    EXPECT_EQ(s.tasks.back().link, HcclLinkType::OnChip);
    EXPECT_EQ(s.tasks.back().sizeBytes, chunk);
    EXPECT_TRUE(tasksOfKind(s, HcclTaskKind::ReduceInline, HcclLinkType::Hccs).empty());
    const auto transfers = tasksOfKind(s, HcclTaskKind::Memcpy, HcclLinkType::Hccs);
    ASSERT_EQ(transfers.size(), 3u);
    std::set<std::uint32_t> planes;
    for (const auto& t : transfers) {
        EXPECT_EQ(t.srcRank, 1u);
        EXPECT_EQ(t.plane, (t.dstRank + 4 - 1) % 4) << "plane k is the peer k ranks on";
        planes.insert(t.plane);
    }
    EXPECT_EQ(planes, (std::set<std::uint32_t>{1, 2, 3}));
    EXPECT_EQ(linkBytesByPeer(s),
              (std::map<std::uint32_t, std::uint64_t>{{0, chunk}, {2, chunk}, {3, chunk}}));
}

TEST(HcclAllGather, TimeIsOneChunkOverOneLinkPlusTwoCopiesAndTheHandshakes) {
    const std::uint64_t chunk = 4 << 20;
    for (std::uint32_t ranks : {2u, 4u, 8u}) {
        const CollectiveSchedule s = planMeshAllGather(chunk, ranks, 0, roundFigureLink());
        const double copyNs = static_cast<double>(chunk) / 512.0;
        EXPECT_NEAR(static_cast<double>(s.durationNs),
                    kPhaseOverheadNs + static_cast<double>(chunk) / 16.0 + 2 * copyNs, 3.0)
            << ranks;
        // The phase ends on every plane together, a copy before the op does.
        for (const auto& [plane, endNs] : planeEnds(s))
            EXPECT_NEAR(static_cast<double>(endNs), static_cast<double>(s.durationNs) - copyNs, 1.0)
                << "plane " << plane;
    }
}

TEST(HcclReduceScatter, EveryPeerPlaneReducesOneChunkAtTheReduceBandwidth) {
    const std::uint64_t chunk = 2 << 20;
    const CollectiveSchedule s = planMeshReduceScatter(chunk, 8, 5, roundFigureLink());
    const auto reduces = tasksOfKind(s, HcclTaskKind::ReduceInline, HcclLinkType::Hccs);
    ASSERT_EQ(reduces.size(), 7u);
    for (const auto& t : reduces) EXPECT_EQ(t.sizeBytes, chunk);
    EXPECT_TRUE(tasksOfKind(s, HcclTaskKind::Memcpy, HcclLinkType::Hccs).empty());
    EXPECT_EQ(tasksOfKind(s, HcclTaskKind::Memcpy, HcclLinkType::OnChip).size(), 2u);
    EXPECT_EQ(linkBytesByPeer(s).size(), 7u);
    EXPECT_FALSE(linkBytesByPeer(s).contains(5u));
    const double copyNs = static_cast<double>(chunk) / 512.0;
    EXPECT_NEAR(static_cast<double>(s.durationNs),
                kPhaseOverheadNs + static_cast<double>(chunk) / 8.0 + 2 * copyNs, 3.0);
    // Identical on every rank: the engine times the op once.
    for (std::uint32_t rank = 0; rank < 8; ++rank)
        EXPECT_EQ(planMeshReduceScatter(chunk, 8, rank, roundFigureLink()).durationNs,
                  s.durationNs);
}

TEST(HcclSinglePhase, RanksOutsideOneServerOrNoLinkModelAreRejected) {
    const HcclLinkConfig link = roundFigureLink();
    EXPECT_THROW(planMeshAllGather(1024, 1, 0, link), std::invalid_argument);
    EXPECT_THROW(planMeshAllGather(1024, 9, 0, link), std::invalid_argument);
    EXPECT_THROW(planMeshReduceScatter(1024, 4, 4, link), std::invalid_argument);
    try {
        planMeshReduceScatter(1024, 9, 0, link);
        FAIL() << "9 ranks accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "a reducescatter over 9 ranks needs 2..8 ranks (one server)");
    }
    EXPECT_THROW(planMeshAllGather(1024, 2, 0, HcclLinkConfig{}), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
