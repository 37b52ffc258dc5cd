#include <gtest/gtest.h>

#include "models/core/flag_table.h"

namespace ascendsim {
namespace {

TEST(FlagTable, PendingSetsAreConsumedOldestFirst) {
    FlagTable<128> flags;
    EXPECT_FALSE(flags.isSet(70));
    for (std::uint64_t cycle : {10u, 20u, 30u, 40u}) flags.set(70, cycle);
    EXPECT_TRUE(flags.full(70));
    for (std::uint64_t cycle : {10u, 20u, 30u}) {
        ASSERT_TRUE(flags.isSet(70));
        EXPECT_EQ(flags.oldestSetCycle(70), cycle);
        flags.consume(70);
    }
    flags.set(70, 50);  // the ring of later sets wraps
    flags.set(70, 60);
    for (std::uint64_t cycle : {40u, 50u, 60u}) {
        ASSERT_TRUE(flags.isSet(70));
        EXPECT_EQ(flags.oldestSetCycle(70), cycle);
        flags.consume(70);
    }
    EXPECT_FALSE(flags.isSet(70));
}

TEST(FlagTable, ResetClearsEverySetSlotAndOnlyPendingSetsMatter) {
    FlagTable<128> flags;
    flags.set(3, 5);
    flags.set(127, 7);
    flags.set(127, 8);
    flags.reset();
    EXPECT_FALSE(flags.isSet(3));
    EXPECT_FALSE(flags.isSet(127));
    flags.set(127, 9);  // after a reset a single set is the oldest, not a stale later one
    flags.set(127, 11);
    EXPECT_EQ(flags.oldestSetCycle(127), 9u);
    flags.consume(127);
    EXPECT_EQ(flags.oldestSetCycle(127), 11u);
}

}  // namespace
}  // namespace ascendsim
