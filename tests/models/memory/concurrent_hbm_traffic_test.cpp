// ConcurrentHbmTraffic and SharedMemorySystem::setConcurrentTraffic (docs/fidelity.md §108): a
// background's HBM rate takes its share of HBM from the simulated requests while its window runs;
// of hbm.concurrent_capacity_gbps when the chip sets it, not of one stream's rate (§114).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "models/memory/concurrent_hbm_traffic.h"
#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

TEST(ConcurrentHbmTraffic, RatesAddInsideTheirWindowsOnly) {
    const ConcurrentHbmTraffic traffic({{100.0, 200.0, 0.25}, {150.0, 300.0, 0.25}});
    EXPECT_DOUBLE_EQ(traffic.bytesPerPsAt(50.0), 0.0);
    EXPECT_DOUBLE_EQ(traffic.bytesPerPsAt(100.0), 0.25);
    EXPECT_DOUBLE_EQ(traffic.bytesPerPsAt(160.0), 0.5);
    EXPECT_DOUBLE_EQ(traffic.bytesPerPsAt(200.0), 0.25);  // end exclusive
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(160.0, 1.0, 1.0), 2.0);
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(300.0, 1.0, 1.0), 1.0);
}

TEST(ConcurrentHbmTraffic, ABackgroundAtTheHbmRateLeavesTheGuardShare) {
    const ConcurrentHbmTraffic traffic({{0.0, 10.0, 2.0}});
    EXPECT_NEAR(traffic.slowdownAt(5.0, 1.0, 1.0), 1.0 / (1.0 - ConcurrentHbmTraffic::kMaxShare), 1e-9);
}

// Capacity C above one stream's rate S: a background that fits in C - S costs the stream nothing;
// past that the stream gets the rest, S / (C - r); the guard share is of C.
TEST(ConcurrentHbmTraffic, ABackgroundThatFitsBesideTheStreamCostsItNothing) {
    const ConcurrentHbmTraffic traffic({{0.0, 10.0, 0.25}, {10.0, 20.0, 0.75}, {20.0, 30.0, 5.0}});
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(5.0, 1.0, 1.25), 1.0);   // 0.25 fits in 1.25 - 1
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(15.0, 1.0, 1.25), 2.0);  // 1 / (1.25 - 0.75)
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(15.0, 1.0, 1.0), 4.0);   // the default C = S: 1 / (1 - 0.75)
    EXPECT_NEAR(traffic.slowdownAt(25.0, 1.0, 1.25),
                1.0 / (1.25 * (1.0 - ConcurrentHbmTraffic::kMaxShare)), 1e-9);
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(35.0, 1.0, 1.25), 1.0);  // outside every window
}

TEST(ConcurrentHbmTraffic, RejectsACapacityBelowOneStreamsRate) {
    const ConcurrentHbmTraffic traffic({{0.0, 10.0, 0.25}});
    EXPECT_THROW((void)traffic.slowdownAt(5.0, 1.0, 0.9), std::invalid_argument);
    EXPECT_THROW((void)traffic.slowdownAt(5.0, 0.0, 1.0), std::invalid_argument);
}

TEST(ConcurrentHbmTraffic, RejectsReversedWindowsAndNegativeRates) {
    EXPECT_THROW(ConcurrentHbmTraffic({{10.0, 10.0, 0.1}}), std::invalid_argument);
    EXPECT_THROW(ConcurrentHbmTraffic({{0.0, 10.0, -0.1}}), std::invalid_argument);
}

// The small chip's HBM is 1 B/ps. A background holding half of it leaves a lone 8 KiB miss as fast
// as alone (its transfer does not queue), but a stream of misses that keeps HBM busy drains at
// the other half: 8 back-to-back misses take twice their HBM time inside the window, their own
// time once it has passed.
TEST(ConcurrentHbmTraffic, LeavesTheMemorySystemTheRestOfHbmsThroughput) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.readLatencyCycles = 0;
    chip.l2.hitLatencyCycles = 0;
    chip.l2.sizeBytes = 1 << 20;  // no evictions in the streams below
    SharedMemorySystem memory(chip);
    memory.setConcurrentTraffic(ConcurrentHbmTraffic({{1'000'000.0, 2'000'000.0, 0.5}}));
    PmuCounters counters;
    std::uint64_t address = 0;
    const auto streamAt = [&](std::uint64_t startPs, int misses) {
        std::uint64_t done = startPs;
        for (int i = 0; i < misses; ++i, address += 8192)
            done = std::max(done, memory.access(testing_support::gmReadOf(address, 8192, startPs, i), counters));
        return done - startPs;
    };
    EXPECT_EQ(streamAt(1'000'000, 1), 8192u);         // lone: not slowed
    EXPECT_EQ(streamAt(1'100'000, 8), 2u * 8 * 8192u);  // a stream: half of HBM
    EXPECT_EQ(streamAt(3'000'000, 8), 8u * 8192u);      // after the window: all of it
}

// hbm.concurrent_capacity_gbps in the memory system: one stream gets half of the small chip's HBM
// (read efficiency 0.5, 0.5 B/ps); a background of 0.25 B/ps halves a stream of misses when
// concurrent streams share only that half (the default), and leaves it as fast as alone when they
// share the whole 1 B/ps.
TEST(ConcurrentHbmTraffic, TheMemorySystemChargesTheBackgroundAgainstTheConcurrentCapacity) {
    const auto streamTimes = [](double concurrentCapacityGBps) {
        ChipConfig chip = testing_support::smallMemoryChip();
        chip.hbm.readLatencyCycles = 0;
        chip.l2.hitLatencyCycles = 0;
        chip.l2.sizeBytes = 1 << 20;
        chip.hbm.readEfficiency = 0.5;
        chip.hbm.concurrentCapacityGBps = concurrentCapacityGBps;
        SharedMemorySystem memory(chip);
        memory.setConcurrentTraffic(ConcurrentHbmTraffic({{1'000'000.0, 2'000'000.0, 0.25}}));
        PmuCounters counters;
        std::uint64_t address = 0;
        const auto streamAt = [&](std::uint64_t startPs) {
            std::uint64_t done = startPs;
            for (int i = 0; i < 8; ++i, address += 8192)
                done = std::max(done, memory.access(testing_support::gmReadOf(address, 8192, startPs, i), counters));
            return done - startPs;
        };
        const std::uint64_t inside = streamAt(1'100'000);
        return std::make_pair(inside, streamAt(3'000'000));
    };
    const auto [sharedHalfInside, sharedHalfAfter] = streamTimes(0.0);
    EXPECT_EQ(sharedHalfAfter, 8u * 16384u);
    EXPECT_EQ(sharedHalfInside, 2u * sharedHalfAfter);
    const auto [sharedWholeInside, sharedWholeAfter] = streamTimes(1000.0);
    EXPECT_EQ(sharedWholeInside, sharedWholeAfter);
    EXPECT_EQ(sharedWholeAfter, sharedHalfAfter);
}

}  // namespace
}  // namespace ascendsim
