#include <gtest/gtest.h>

#include "models/device/core_clock.h"

namespace ascendsim {
namespace {

TEST(CoreClock, CycleOfACyclesStartTimeIsThatCycle) {
    for (double mhz : {1850.0, 1800.0, 1500.0, 1060.0, 1000.0, 933.3}) {
        const CoreClock clock(mhz);
        for (std::uint64_t c : {0ull, 1ull, 2ull, 3ull, 999ull, 123457ull, 98765432101ull}) {
            EXPECT_EQ(clock.cycleAtOrAfter(clock.psOfCycle(c)), c) << mhz << " MHz cycle " << c;
            if (c > 0) {
                EXPECT_EQ(clock.cycleAtOrAfter(clock.psOfCycle(c - 1) + 1), c);
            }
        }
    }
}

TEST(CoreClock, CyclesAt1850MhzStartOnRoundedUpPicoseconds) {
    const CoreClock clock(1850.0);
    EXPECT_EQ(clock.psOfCycle(1), 541u);   // 540.54 ps
    EXPECT_EQ(clock.psOfCycle(1850), 1'000'000u);
}

}  // namespace
}  // namespace ascendsim
