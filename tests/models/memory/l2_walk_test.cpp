// The L2 walk (l2_cache.cpp: walkLines, inlined into each transfer, the most-recently-used keys'
// fast path, the packed sets' per-way last-use clocks renumbered before they wrap) must do
// exactly what access() on each line in order does. Driven with long transfers over many sets
// (walks that wrap to set 0 and cover a whole small cache, sets used hundreds of times so their
// clocks renumber), reads and writes, re-reads the keys answer and tags too wide for a key: the
// same hits and misses per parity, the same dirty victims in the same order, the same lines left
// and dirty.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/memory/l2_cache.h"

namespace ascendsim {
namespace {

struct LineByLine {
    L2RangeOutcome outcome;
    std::vector<std::uint64_t> dirtyVictims;
};

LineByLine accessEachLine(L2Cache& cache, std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite) {
    LineByLine result;
    for (std::uint64_t line = firstLine; line < firstLine + lineCount; ++line) {
        const L2LineOutcome o = cache.access(line, isWrite);
        if (o.hit) {
            ++result.outcome.hits[line % 2];
        } else {
            ++result.outcome.misses[line % 2];
        }
        if (o.evictedDirty) {
            ++result.outcome.dirtyEvictions;
            result.dirtyVictims.push_back(o.evictedLine);
        }
    }
    return result;
}

// `sets` sets of `ways` ways; transfers of 1 to 3 × sets lines, mostly over a region twice the
// cache (so many re-reads hit the set's last line), some `tagOffset` sets × lines higher.
void expectWalkMatchesLineByLine(std::uint64_t sets, std::uint32_t ways, std::uint64_t tagOffset,
                                 std::uint64_t seed) {
    L2Cache byWalk(sets * ways * 512, 512, ways);
    L2Cache byLine(sets * ways * 512, 512, ways);
    std::uint64_t state = seed;
    std::uint64_t hits = 0;
    std::uint64_t victims = 0;
    const std::uint64_t region = sets * ways * 2;
    for (int transfer = 0; transfer < 1500; ++transfer) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        std::uint64_t first = (state >> 33) % region;
        if ((state >> 7) % 5 == 0) first += sets * tagOffset;
        const std::uint64_t count = 1 + (state >> 20) % (3 * sets);
        const bool isWrite = (state >> 13) % 3 == 0;
        std::vector<std::uint64_t> walkVictims;
        L2RangeOutcome got;
        got.dirtyVictims = &walkVictims;
        byWalk.accessRange(first, count, isWrite, got);
        const LineByLine expected = accessEachLine(byLine, first, count, isWrite);
        SCOPED_TRACE("transfer " + std::to_string(transfer));
        ASSERT_EQ(got.hits[0], expected.outcome.hits[0]);
        ASSERT_EQ(got.hits[1], expected.outcome.hits[1]);
        ASSERT_EQ(got.misses[0], expected.outcome.misses[0]);
        ASSERT_EQ(got.misses[1], expected.outcome.misses[1]);
        ASSERT_EQ(got.dirtyEvictions, expected.outcome.dirtyEvictions);
        ASSERT_EQ(walkVictims, expected.dirtyVictims);
        hits += got.hits[0] + got.hits[1];
        victims += got.dirtyEvictions;
    }
    for (std::uint64_t base : {std::uint64_t{0}, sets * tagOffset}) {
        for (std::uint64_t line = base; line < base + region; ++line) {
            ASSERT_EQ(byWalk.contains(line), byLine.contains(line)) << "line " << line;
            ASSERT_EQ(byWalk.isDirty(line), byLine.isDirty(line)) << "line " << line;
        }
    }
    EXPECT_GT(hits, 0u) << "the sequence must exercise hits";
    EXPECT_GT(victims, 0u) << "the sequence must exercise write-backs";
}

TEST(L2Walk, AgreesWithLineByLineAccessesOnRandomTransfers) {
    // One set to many; 16 ways (the compiled-apart geometry), 4 (packed) and 20 (wide sets);
    // tags past the keys' 15 bits and past the partial tags' 16.
    for (std::uint64_t sets : {1u, 5u, 16u, 37u, 100u}) {
        for (std::uint32_t ways : {4u, 16u, 20u}) {
            for (std::uint64_t tagOffset : {std::uint64_t{40000}, std::uint64_t{70000}}) {
                SCOPED_TRACE(std::to_string(sets) + " sets, " + std::to_string(ways) + " ways, tags from " +
                             std::to_string(tagOffset));
                ASSERT_NO_FATAL_FAILURE(expectWalkMatchesLineByLine(sets, ways, tagOffset, sets * 31 + ways));
            }
        }
    }
}

}  // namespace
}  // namespace ascendsim
