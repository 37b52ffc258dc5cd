#include <gtest/gtest.h>

#include <cmath>

#include "models/core/core_clock.h"

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

// psOfCycle and cycleAtOrAfter switch from 64- to 128-bit arithmetic where c · 1e9 (or ps · f)
// stops fitting 64 bits; both sides of that limit must match the exact formula.
TEST(CoreClock, ConversionsAreExactOnBothSidesOfThe64BitLimit) {
    __extension__ typedef unsigned __int128 Wide;
    for (double mhz : {1850.0, 933.3}) {
        const CoreClock clock(mhz);
        const auto khz = static_cast<std::uint64_t>(std::llround(mhz * 1000.0));
        const std::uint64_t cycleLimit = ~std::uint64_t{0} / 1'000'000'000;
        const std::uint64_t psLimit = ~std::uint64_t{0} / khz;
        for (std::uint64_t delta = 0; delta < 4; ++delta) {
            for (std::uint64_t c : {cycleLimit - delta, cycleLimit + delta, 3 * cycleLimit + delta}) {
                const auto expected = static_cast<std::uint64_t>((Wide{c} * 1'000'000'000 + khz - 1) / khz);
                EXPECT_EQ(clock.psOfCycle(c), expected) << mhz << " MHz cycle " << c;
            }
            for (std::uint64_t ps : {psLimit - delta, psLimit + delta, 3 * psLimit + delta}) {
                const auto expected = static_cast<std::uint64_t>(Wide{ps - 1} * khz / 1'000'000'000 + 1);
                EXPECT_EQ(clock.cycleAtOrAfter(ps), expected) << mhz << " MHz at " << ps << " ps";
            }
        }
    }
}

}  // namespace
}  // namespace ascendsim
