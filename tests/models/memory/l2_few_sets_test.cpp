// An L2 with very few sets: `--chip-set l2.size_bytes=16384` gives 2 sets of 16 ways. The walk's
// prefetch index (removed in session 26: GCC compiled the prefetches away) used to wrap only once
// and read past the set array (ASan: heap-buffer-overflow in walkLines); the sanitizer run
// (docs/reliability.md) checks these walks.
#include <gtest/gtest.h>

#include <vector>

#include "models/memory/l2_cache.h"

namespace ascendsim {
namespace {

// Walks `lines` consecutive lines twice: the first pass misses every line; in the second, the
// lines of a set that holds them all hit, and every line of a set with more lines than ways
// misses (LRU under a cyclic sweep larger than the set).
void expectCyclicSweep(std::uint64_t sets, std::uint32_t ways, std::uint64_t lines) {
    L2Cache cache(sets * ways * 512, 512, ways);
    ASSERT_EQ(cache.setCount(), sets);
    const std::uint64_t firstLine = 3;
    const L2RangeOutcome first = cache.accessRange(firstLine, lines, false);
    EXPECT_EQ(first.totalMisses(), lines);
    std::vector<std::uint64_t> perSet(sets, 0);
    for (std::uint64_t l = firstLine; l < firstLine + lines; ++l) ++perSet[l % sets];
    std::uint64_t expectedMisses = 0;
    for (auto n : perSet) expectedMisses += n > ways ? n : 0;
    const L2RangeOutcome second = cache.accessRange(firstLine, lines, false);
    EXPECT_EQ(second.totalMisses(), expectedMisses) << sets << " sets, " << lines << " lines";
}

TEST(L2FewSets, OneAndTwoSetCachesWalkLongRanges) {
    for (std::uint64_t sets : {1, 2, 3, 7}) {
        expectCyclicSweep(sets, 16, sets * 16);       // fits exactly
        expectCyclicSweep(sets, 16, sets * 16 + 1);   // one line too many: LRU thrashes
        expectCyclicSweep(sets, 2, 100);
    }
}

}  // namespace
}  // namespace ascendsim
