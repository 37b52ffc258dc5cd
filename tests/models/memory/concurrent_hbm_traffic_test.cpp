// ConcurrentHbmTraffic and SharedMemorySystem::setConcurrentTraffic (docs/fidelity.md §108): a
// background's HBM rate takes its share of HBM from the simulated requests while its window runs;
// of hbm.concurrent_capacity_gbps when the chip sets it, not of one stream's rate (§114).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/memory/concurrent_hbm_traffic.h"
#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

// The small chip with no latencies and an L2 the streams below never evict from.
ChipConfig missStreamChip() {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.readLatencyCycles = 0;
    chip.l2.hitLatencyCycles = 0;
    chip.l2.sizeBytes = 1 << 20;
    return chip;
}

// `misses` back-to-back 8 KiB read misses from startPs (fresh lines from `address` on): how long
// until the last one is done.
std::uint64_t missStreamTime(SharedMemorySystem& memory, std::uint64_t& address, std::uint64_t startPs, int misses) {
    PmuCounters counters;
    std::uint64_t done = startPs;
    for (int i = 0; i < misses; ++i, address += 8192)
        done = std::max(done, memory.access(testing_support::gmReadOf(address, 8192, startPs, i), counters));
    return done - startPs;
}

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

// The engine adds its collectives' windows one op at a time (§118): added windows count as the
// constructor's do, a rate is exactly 0 again once every window has ended (no residue of running
// sums: a kernel after the collectives is not slowed by 1e-17), and the step function gives what
// the sum over all windows gives at every edge and between.
TEST(ConcurrentHbmTraffic, AddedWindowsCountAsTheConstructorsDo) {
    ConcurrentHbmTraffic traffic({{100.0, 200.0, 0.1}});
    traffic.add({{150.0, 400.0, 0.2}, {150.0, 250.0, 0.3}});
    traffic.add({});
    EXPECT_EQ(traffic.windows().size(), 3u);
    EXPECT_DOUBLE_EQ(traffic.bytesPerPsAt(99.0), 0.0);
    EXPECT_DOUBLE_EQ(traffic.bytesPerPsAt(120.0), 0.1);
    EXPECT_EQ(traffic.bytesPerPsAt(150.0), 0.1 + 0.2 + 0.3);
    EXPECT_EQ(traffic.bytesPerPsAt(200.0), 0.2 + 0.3);
    EXPECT_DOUBLE_EQ(traffic.bytesPerPsAt(300.0), 0.2);
    EXPECT_EQ(traffic.bytesPerPsAt(400.0), 0.0);
    EXPECT_EQ(traffic.slowdownAt(1e9, 1.0, 1.0), 1.0);
    EXPECT_THROW(traffic.add({{10.0, 5.0, 0.1}}), std::invalid_argument);

    std::vector<ConcurrentHbmWindow> many;
    for (int i = 0; i < 200; ++i)
        many.push_back({37.0 * i, 37.0 * i + 100.0 + (i % 7) * 13.0, 0.01 * (1 + i % 5)});
    const ConcurrentHbmTraffic stepped(many);
    for (double at = -10.0; at < 37.0 * 200 + 200.0; at += 3.5) {
        double sum = 0.0;
        for (const ConcurrentHbmWindow& w : many)
            if (at >= w.startPs && at < w.endPs) sum += w.hbmBytesPerPs;
        ASSERT_EQ(stepped.bytesPerPsAt(at), sum) << at;
    }
}

// SharedMemorySystem::addConcurrentTraffic: a background added after the memory system was built
// (the engine places a collective once its stream reaches it) slows the requests served after it.
TEST(ConcurrentHbmTraffic, WindowsAddedToTheMemorySystemSlowTheRequestsAfter) {
    SharedMemorySystem memory(missStreamChip());
    std::uint64_t address = 0;
    EXPECT_EQ(missStreamTime(memory, address, 100'000, 8), 8u * 8192u);
    memory.addConcurrentTraffic({{1'000'000.0, 2'000'000.0, 0.5}});
    EXPECT_EQ(missStreamTime(memory, address, 1'100'000, 8), 2u * 8 * 8192u);
    EXPECT_EQ(missStreamTime(memory, address, 3'000'000, 8), 8u * 8192u);
}

// The small chip's HBM is 1 B/ps. A background holding half of it leaves a lone 8 KiB miss as fast
// as alone (its transfer does not queue), but a stream of misses that keeps HBM busy drains at
// the other half: 8 back-to-back misses take twice their HBM time inside the window, their own
// time once it has passed.
TEST(ConcurrentHbmTraffic, LeavesTheMemorySystemTheRestOfHbmsThroughput) {
    SharedMemorySystem memory(missStreamChip());
    memory.setConcurrentTraffic(ConcurrentHbmTraffic({{1'000'000.0, 2'000'000.0, 0.5}}));
    std::uint64_t address = 0;
    EXPECT_EQ(missStreamTime(memory, address, 1'000'000, 1), 8192u);         // lone: not slowed
    EXPECT_EQ(missStreamTime(memory, address, 1'100'000, 8), 2u * 8 * 8192u);  // a stream: half of HBM
    EXPECT_EQ(missStreamTime(memory, address, 3'000'000, 8), 8u * 8192u);      // after the window: all of it
}

// hbm.concurrent_capacity_gbps in the memory system: one stream gets half of the small chip's HBM
// (read efficiency 0.5, 0.5 B/ps); a background of 0.25 B/ps halves a stream of misses when
// concurrent streams share only that half (the default), and leaves it as fast as alone when they
// share the whole 1 B/ps.
TEST(ConcurrentHbmTraffic, TheMemorySystemChargesTheBackgroundAgainstTheConcurrentCapacity) {
    const auto streamTimes = [](double concurrentCapacityGBps) {
        ChipConfig chip = missStreamChip();
        chip.hbm.readEfficiency = 0.5;
        chip.hbm.concurrentCapacityGBps = concurrentCapacityGBps;
        SharedMemorySystem memory(chip);
        memory.setConcurrentTraffic(ConcurrentHbmTraffic({{1'000'000.0, 2'000'000.0, 0.25}}));
        std::uint64_t address = 0;
        const std::uint64_t inside = missStreamTime(memory, address, 1'100'000, 8);
        return std::make_pair(inside, missStreamTime(memory, address, 3'000'000, 8));
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
