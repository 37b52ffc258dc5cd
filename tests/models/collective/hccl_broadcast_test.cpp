// The mesh Broadcast model against the e5a31957 sample (server test_data, hcom_broadcast__483_1,
// 131088 B over 8 ranks): 128 B slices, the root's and the others' transfers per peer, and one
// duration on every rank, the phases ending together on every plane.
#include "models/collective/hccl_broadcast.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "hccl_collective_test_support.h"

namespace ascendsim {
namespace {

using testing::linkBytesByPeer;
using testing::planeEnds;
using testing::roundFigureLink;
using testing::tasksOfKind;

constexpr std::uint64_t kSampleBytes = 131088;

TEST(HcclBroadcast, SlicesAreRoundedTo128BytesWithTheRemainderOnTheLastRank) {
    for (std::uint32_t r = 0; r < 7; ++r)
        EXPECT_EQ(broadcastSliceBytes(kSampleBytes, 8, r), 16512u);
    EXPECT_EQ(broadcastSliceBytes(kSampleBytes, 8, 7), 15504u);
}

TEST(HcclBroadcast, TheRootCopiesTheBufferAndReadsEveryPeersSliceOnce) {
    const CollectiveSchedule s = planMeshBroadcast(kSampleBytes, 8, 0, roundFigureLink());
    // The sample's rank 0: 0-0 LOCAL 131088 B; 0-k HCCS slice k.
    EXPECT_EQ(s.tasks.front().link, HcclLinkType::OnChip);
    EXPECT_EQ(s.tasks.front().sizeBytes, kSampleBytes);
    EXPECT_EQ(tasksOfKind(s, HcclTaskKind::Memcpy, HcclLinkType::OnChip).size(), 1u);
    std::map<std::uint32_t, std::uint64_t> expected;
    for (std::uint32_t peer = 1; peer < 8; ++peer) expected[peer] = peer == 7 ? 15504 : 16512;
    EXPECT_EQ(linkBytesByPeer(s), expected);
    EXPECT_EQ(tasksOfKind(s, HcclTaskKind::Memcpy, HcclLinkType::Hccs).size(), 7u);
    EXPECT_TRUE(tasksOfKind(s, HcclTaskKind::ReduceInline, HcclLinkType::Hccs).empty());
}

TEST(HcclBroadcast, AnotherRankReadsItsSliceFromTheRootThenEveryPeersSliceThenCopiesOut) {
    const CollectiveSchedule s = planMeshBroadcast(kSampleBytes, 8, 1, roundFigureLink());
    // The sample's rank 1: 1-0 HCCS 33024 B (its own slice, then slice 0), 1-k slice k.
    std::map<std::uint32_t, std::uint64_t> expected{{0, 2 * 16512}};
    for (std::uint32_t peer = 2; peer < 8; ++peer) expected[peer] = peer == 7 ? 15504 : 16512;
    EXPECT_EQ(linkBytesByPeer(s), expected);
    const auto transfers = tasksOfKind(s, HcclTaskKind::Memcpy, HcclLinkType::Hccs);
    ASSERT_EQ(transfers.size(), 8u);
    EXPECT_EQ(transfers.front().dstRank, 0u) << "the scatter comes first";
    EXPECT_EQ(s.tasks.back().link, HcclLinkType::OnChip);
    EXPECT_EQ(s.tasks.back().sizeBytes, kSampleBytes);
    EXPECT_EQ(s.tasks.back().startNs + s.tasks.back().durationNs, s.durationNs);
}

TEST(HcclBroadcast, EveryRankTakesTheSameTimeAndItsPhasesEndWithTheSlowestLink) {
    const HcclLinkConfig link = roundFigureLink();
    const std::uint64_t bytes = 3 << 20;  // 4 ranks: 786432 B slices
    const CollectiveSchedule root = planMeshBroadcast(bytes, 4, 0, link);
    const double copyNs = static_cast<double>(bytes) / 512.0;
    const double sliceNs = static_cast<double>(bytes / 4) / 16.0;
    // Root copy, scatter (one slice), all-gather (one slice), the others' copy.
    const double phaseOverheadNs = 1000.0 * (2 * 0.5 + 2 * 0.25 + 10.0);
    EXPECT_NEAR(static_cast<double>(root.durationNs), 2 * copyNs + 2 * (phaseOverheadNs + sliceNs),
                4.0);
    for (std::uint32_t rank = 0; rank < 4; ++rank) {
        const CollectiveSchedule s = planMeshBroadcast(bytes, 4, rank, link);
        EXPECT_EQ(s.durationNs, root.durationNs) << rank;
        for (const auto& [plane, endNs] : planeEnds(s))
            EXPECT_EQ(endNs, planeEnds(root).at(1)) << "rank " << rank << " plane " << plane;
    }
    // The last rank's slice is smaller, yet its scatter waits for the largest one.
    const std::uint64_t uneven = 3 * 16384 + 100;
    const CollectiveSchedule last = planMeshBroadcast(uneven, 4, 3, link);
    const CollectiveSchedule first = planMeshBroadcast(uneven, 4, 1, link);
    EXPECT_LT(broadcastSliceBytes(uneven, 4, 3), broadcastSliceBytes(uneven, 4, 1));
    // A non-root rank's scatter is five tasks on the root's plane; the all-gather starts next.
    ASSERT_GT(last.tasks.size(), 5u);
    EXPECT_EQ(last.tasks[4].kind, HcclTaskKind::NotifyWait);
    EXPECT_EQ(last.tasks[5].startNs, first.tasks[5].startNs);
    EXPECT_EQ(last.tasks[4].startNs + last.tasks[4].durationNs, last.tasks[5].startNs);
    EXPECT_EQ(planeEnds(last), planeEnds(first));
}

TEST(HcclBroadcast, RanksOutsideOneServerAreRejected) {
    EXPECT_THROW(planMeshBroadcast(1024, 9, 0, roundFigureLink()), std::invalid_argument);
    EXPECT_THROW(planMeshBroadcast(1024, 1, 0, roundFigureLink()), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
