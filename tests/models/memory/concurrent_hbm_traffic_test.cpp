// ConcurrentHbmTraffic and SharedMemorySystem::setConcurrentTraffic (docs/fidelity.md §108): a
// background's HBM rate takes its share of HBM from the simulated requests while its window runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

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
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(160.0, 1.0), 2.0);
    EXPECT_DOUBLE_EQ(traffic.slowdownAt(300.0, 1.0), 1.0);
}

TEST(ConcurrentHbmTraffic, ABackgroundAtTheHbmRateLeavesTheGuardShare) {
    const ConcurrentHbmTraffic traffic({{0.0, 10.0, 2.0}});
    EXPECT_NEAR(traffic.slowdownAt(5.0, 1.0), 1.0 / (1.0 - ConcurrentHbmTraffic::kMaxShare), 1e-9);
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

}  // namespace
}  // namespace ascendsim
