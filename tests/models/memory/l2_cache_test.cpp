// L2Cache: set-associative, LRU, write-back with write-allocate.
#include <gtest/gtest.h>

#include "models/memory/l2_cache.h"

namespace ascendsim {
namespace {

// 4 sets x 2 ways of 512 B lines: lines 0, 4, 8 ... share set 0.
L2Cache smallCache() { return L2Cache(4 * 2 * 512, 512, 2); }

TEST(L2Cache, GeometryFollowsSizeLineAndWays) {
    const L2Cache cache(201326592, 512, 16);
    EXPECT_EQ(cache.setCount(), 24576u);
    EXPECT_THROW(L2Cache(1000, 512, 2), std::invalid_argument);
    EXPECT_THROW(L2Cache(4096, 512, 0), std::invalid_argument);
}

TEST(L2Cache, ReadMissAllocatesThenHits) {
    L2Cache cache = smallCache();
    EXPECT_FALSE(cache.access(7, false).hit);
    EXPECT_TRUE(cache.contains(7));
    EXPECT_TRUE(cache.access(7, false).hit);
    EXPECT_FALSE(cache.isDirty(7));
}

TEST(L2Cache, WriteMissAllocatesADirtyLine) {
    L2Cache cache = smallCache();
    EXPECT_FALSE(cache.access(3, true).hit);
    EXPECT_TRUE(cache.isDirty(3));
    EXPECT_TRUE(cache.access(3, false).hit);
    EXPECT_TRUE(cache.isDirty(3));
}

TEST(L2Cache, EvictsTheLeastRecentlyUsedWayOfTheSet) {
    L2Cache cache = smallCache();
    cache.access(0, false);
    cache.access(4, false);
    cache.access(0, false);  // 4 is now least recently used in set 0
    cache.access(8, false);
    EXPECT_TRUE(cache.contains(0));
    EXPECT_FALSE(cache.contains(4));
    EXPECT_TRUE(cache.contains(8));
    EXPECT_TRUE(cache.access(1, false).hit == false);  // other sets are unaffected
    EXPECT_TRUE(cache.contains(0));
}

TEST(L2Cache, DirtyVictimIsReportedForWriteBack) {
    L2Cache cache = smallCache();
    cache.access(0, true);
    cache.access(4, false);
    const L2LineOutcome outcome = cache.access(8, false);  // evicts dirty line 0
    EXPECT_FALSE(outcome.hit);
    EXPECT_TRUE(outcome.evictedDirty);
    EXPECT_EQ(outcome.evictedLine, 0u);
}

TEST(L2Cache, CleanVictimNeedsNoWriteBack) {
    L2Cache cache = smallCache();
    cache.access(0, false);
    cache.access(4, false);
    EXPECT_FALSE(cache.access(8, false).evictedDirty);
}

}  // namespace
}  // namespace ascendsim
