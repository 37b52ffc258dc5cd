// The mesh AllReduce model: slice sizes as HCCL cuts them, the tasks of one rank, and its time
// (two phases of one slice over a peer link: 2 (N-1)/N S over the N-1 links of a rank).
#include "models/collective/hccl_all_reduce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "hccl_collective_test_support.h"

namespace ascendsim {
namespace {

using testing::roundFigureLink;

TEST(HcclAllReduce, SlicesAreRoundedTo16KiBWithTheRemainderOnTheLastRank) {
    // The e5a31957 Level1 sample: 4097000 and 16781312 fp32 elements over 8 ranks.
    for (std::uint32_t r = 0; r < 7; ++r) EXPECT_EQ(allReduceSliceBytes(16388000, 8, r), 2064384u);
    EXPECT_EQ(allReduceSliceBytes(16388000, 8, 7), 1937312u);
    EXPECT_EQ(allReduceSliceBytes(67125248, 8, 0), 8404992u);
    std::uint64_t total = 0;
    for (std::uint32_t r = 0; r < 8; ++r) total += allReduceSliceBytes(67125248, 8, r);
    EXPECT_EQ(total, 67125248u);
}

TEST(HcclAllReduce, TimeIsTwoSlicesOverOnePeerLinkPlusLatencies) {
    const HcclLinkConfig link = roundFigureLink();
    for (std::uint32_t ranks : {2u, 4u, 8u}) {
        const std::uint64_t bytes = 64ull << 20;  // divides evenly into 16 KiB slices
        const std::uint64_t slice = bytes / ranks;
        const CollectiveSchedule s = planMeshAllReduce(bytes, ranks, 0, link);
        // Per phase: record + wait, transfer (latency + slice / bandwidth), record + wait; two
        // local copies of the slice. Slice / (GB/s) is ns; every term is rounded to 1 ns.
        const double expectedNs =
            2 * 1000.0 * (2 * 0.5 + 2 * 0.25 + 10.0) + static_cast<double>(slice) / 8.0 +
            static_cast<double>(slice) / 16.0 + 2 * static_cast<double>(slice) / 512.0;
        EXPECT_NEAR(static_cast<double>(s.durationNs), expectedNs, 8.0) << ranks << " ranks";
        // With one bandwidth B for both phases, the link time is the ring formula's 2 (N-1)/N S
        // spread over the N-1 links every rank drives at once: 2 (N-1)/N S / ((N-1) B).
        HcclLinkConfig same = link;
        same.reduceBandwidthGBps = same.linkBandwidthGBps;
        const double latencyTermsNs =
            2 * 1000.0 * (2 * 0.5 + 2 * 0.25 + 10.0) + 2 * static_cast<double>(slice) / 512.0;
        const double ringTermNs =
            2.0 * (ranks - 1) / ranks * static_cast<double>(bytes) / ((ranks - 1) * 16.0);
        EXPECT_NEAR(static_cast<double>(planMeshAllReduce(bytes, ranks, 0, same).durationNs),
                    ringTermNs + latencyTermsNs, 8.0);
    }
}

TEST(HcclAllReduce, EveryRankTalksToEveryPeerTwiceAndEndsAtTheSameTime) {
    const HcclLinkConfig link = roundFigureLink();
    const std::uint64_t bytes = 16388000;  // uneven: the last slice is smaller
    const std::uint64_t duration0 = planMeshAllReduce(bytes, 8, 0, link).durationNs;
    for (std::uint32_t rank = 0; rank < 8; ++rank) {
        const CollectiveSchedule s = planMeshAllReduce(bytes, 8, rank, link);
        EXPECT_EQ(s.durationNs, duration0) << "rank " << rank;
        std::map<std::uint32_t, int> reduces, copies;
        for (const HcclTask& t : s.tasks) {
            EXPECT_EQ(t.srcRank, rank);
            EXPECT_LE(t.startNs + t.durationNs, s.durationNs);
            if (t.link != HcclLinkType::Hccs) continue;
            EXPECT_EQ(t.sizeBytes, allReduceSliceBytes(bytes, 8, t.dstRank)) << "peer slice";
            (t.kind == HcclTaskKind::ReduceInline ? reduces : copies)[t.dstRank]++;
        }
        EXPECT_EQ(reduces.size(), 7u);
        EXPECT_EQ(copies.size(), 7u);
        EXPECT_FALSE(reduces.contains(rank));
        for (const auto& [peer, n] : reduces) EXPECT_EQ(n, 1) << peer;
    }
}

TEST(HcclAllReduce, TheFasterSliceWaitsForTheSlowestPeerAtThePhaseEnd) {
    const HcclLinkConfig link = roundFigureLink();
    const CollectiveSchedule s = planMeshAllReduce(16388000, 8, 0, link);
    // Plane 7 talks to rank 7 (the small slice): its closing waits are longer than plane 1's.
    auto closingWait = [&s](std::uint32_t plane) {
        std::uint64_t longest = 0;
        for (const HcclTask& t : s.tasks)
            if (t.plane == plane && t.kind == HcclTaskKind::NotifyWait)
                longest = std::max(longest, t.durationNs);
        return longest;
    };
    EXPECT_GT(closingWait(7), closingWait(1));
    EXPECT_EQ(closingWait(1), 250u);  // the slowest plane only waits the notify itself
}

TEST(HcclAllReduce, RejectsAChipWithoutLinksAndGroupsBeyondTheServer) {
    EXPECT_THROW(planMeshAllReduce(1 << 20, 2, 0, HcclLinkConfig{}), std::invalid_argument);
    EXPECT_THROW(planMeshAllReduce(1 << 20, 9, 0, roundFigureLink()), std::invalid_argument);
    EXPECT_THROW(planMeshAllReduce(1 << 20, 1, 0, roundFigureLink()), std::invalid_argument);
    EXPECT_THROW(planMeshAllReduce(1 << 20, 4, 4, roundFigureLink()), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
