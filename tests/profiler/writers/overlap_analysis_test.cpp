#include "profiler/writers/timeline/overlap_analysis.h"

#include <gtest/gtest.h>

namespace ascendsim {
namespace {

KernelRecord kernel(std::uint64_t start, std::uint64_t end) {
    KernelRecord k;
    k.device.startNs = start;
    k.device.endNs = end;
    return k;
}

TEST(OverlapAnalysis, MergeJoinsOverlappingAndTouchingIntervals) {
    const auto merged = mergeIntervals({{10, 20}, {15, 30}, {30, 40}, {50, 60}, {70, 70}});
    ASSERT_EQ(merged.size(), 2u);
    EXPECT_EQ(merged[0], (TimeInterval{10, 40}));
    EXPECT_EQ(merged[1], (TimeInterval{50, 60}));
}

TEST(OverlapAnalysis, SubtractLeavesOnlyUncoveredParts) {
    const auto rest = subtractIntervals({{0, 100}}, {{10, 20}, {50, 120}});
    ASSERT_EQ(rest.size(), 2u);
    EXPECT_EQ(rest[0], (TimeInterval{0, 10}));
    EXPECT_EQ(rest[1], (TimeInterval{20, 50}));
}

TEST(OverlapAnalysis, FreeIsTheGapsBetweenComputeTasks) {
    const auto events = computeOverlapAnalysis({kernel(100, 200), kernel(150, 260), kernel(400, 500)}, {});
    std::uint64_t computing = 0, free = 0;
    for (const auto& e : events) {
        const auto len = e.span.endNs - e.span.startNs;
        if (e.kind == OverlapKind::Computing) computing += len;
        if (e.kind == OverlapKind::Free) free += len;
        EXPECT_NE(e.kind, OverlapKind::Communication);
    }
    EXPECT_EQ(computing, 160u + 100u);
    EXPECT_EQ(free, 140u);
}

TEST(OverlapAnalysis, CommunicationHiddenByComputeIsNotCountedAsNotOverlapped) {
    const auto events = computeOverlapAnalysis({kernel(100, 200)}, {{150, 300}});
    std::uint64_t notOverlapped = 0, communication = 0;
    for (const auto& e : events) {
        if (e.kind == OverlapKind::CommunicationNotOverlapped) notOverlapped += e.span.endNs - e.span.startNs;
        if (e.kind == OverlapKind::Communication) communication += e.span.endNs - e.span.startNs;
    }
    EXPECT_EQ(communication, 150u);
    EXPECT_EQ(notOverlapped, 100u);
}

TEST(OverlapAnalysis, EventsAreOrderedByStartTime) {
    const auto events = computeOverlapAnalysis({kernel(100, 200), kernel(300, 400)}, {});
    for (std::size_t i = 1; i < events.size(); ++i) EXPECT_LE(events[i - 1].span.startNs, events[i].span.startNs);
}

}  // namespace
}  // namespace ascendsim
