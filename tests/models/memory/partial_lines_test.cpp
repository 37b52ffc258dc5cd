// l2.partial_line_fill: a line a write allocates in part holds only the written bytes, and the first
// read of it fills it from HBM (read, docs/fidelity.md §94), or, if L2 evicts it first, its
// write-back does (read_or_evict, §103) (models/memory/partial_lines.h).
#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "models/memory/partial_line_writes.h"
#include "models/memory/partial_lines.h"
#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

constexpr std::uint32_t kL2LineBytes = 512;
// The fp32 13 × 13 plane of an NC1HWC0 -> NCHW TransData's planar stores (§74, §94).
constexpr std::uint64_t kPlane = 676;

using LineRun = std::tuple<std::uint64_t, std::uint64_t, bool>;  // first line, count, whole

std::vector<LineRun> writtenLinesOf(const L2Bursts& bursts, bool burstsApart) {
    std::vector<LineRun> runs;
    forEachWrittenLine(bursts, kL2LineBytes, burstsApart,
                       [&](std::uint64_t first, std::uint64_t count, bool whole) { runs.emplace_back(first, count, whole); });
    return runs;
}

TEST(WrittenLines, BackToBackBurstsAreOneRangeUnlessTheyGoApart) {
    // Two 676 B planes back to back: bytes 0 .. 1352, lines 0 and 1 whole, line 2 in part.
    EXPECT_EQ(writtenLinesOf({0, kPlane, 2, kPlane}, false),
              (std::vector<LineRun>{{0, 1, true}, {1, 1, true}, {2, 1, false}}));
    // Burst by burst, line 1 gets two writes of its own, neither whole.
    EXPECT_EQ(writtenLinesOf({0, kPlane, 2, kPlane}, true),
              (std::vector<LineRun>{{0, 1, true}, {1, 1, false}, {1, 1, false}, {2, 1, false}}));
    // A long burst reports the lines between its ends as one run.
    EXPECT_EQ(writtenLinesOf({256, 4 * kL2LineBytes, 1, 0}, true),
              (std::vector<LineRun>{{0, 1, false}, {1, 3, true}, {4, 1, false}}));
}

TEST(PartialLines, AWriteMissInPartLeavesTheLinePartialUntilAReadFillsIt) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    // Bytes 100 .. 300 of line 0: L2 does not hold it.
    partial.noteWrite({100, 200, 1, 0}, false, l2);
    EXPECT_TRUE(partial.isPartial(0));
    l2.access(0, true);
    // A second write of the rest does not make it whole; a read fills it once.
    partial.noteWrite({300, 212, 1, 0}, false, l2);
    partial.noteWrite({0, 100, 1, 0}, false, l2);
    EXPECT_TRUE(partial.isPartial(0));
    EXPECT_EQ(partial.fillOnRead({0, 64, 1, 0}, l2), 1u);
    EXPECT_FALSE(partial.isPartial(0));
    EXPECT_EQ(partial.fillOnRead({0, 64, 1, 0}, l2), 0u);
}

TEST(PartialLines, WholeWritesAndHeldLinesStayWhole) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    l2.access(1, false);                               // line 1 held (read in)
    partial.noteWrite({kL2LineBytes + 8, 8, 1, 0}, false, l2);  // merged into a whole line
    EXPECT_FALSE(partial.isPartial(1));
    partial.noteWrite({2 * kL2LineBytes + 8, 8, 1, 0}, false, l2);
    EXPECT_TRUE(partial.isPartial(2));
    partial.noteWrite({2 * kL2LineBytes, kL2LineBytes, 1, 0}, false, l2);  // a write of the whole line
    EXPECT_FALSE(partial.isPartial(2));
}

TEST(PartialLines, AnEvictedPartialLineIsCountedOnceAndForgotten) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    partial.noteWrite({8, 8, 1, 0}, false, l2);
    partial.noteWrite({3 * kL2LineBytes + 8, 8, 1, 0}, false, l2);
    // Dirty victims 0 (partial), 1 (whole) and 3 (partial).
    EXPECT_EQ(partial.evicted({0, 1, 3}), 2u);
    EXPECT_EQ(partial.count(), 0u);
    EXPECT_EQ(partial.evicted({0, 3}), 0u);
}

TEST(PartialLines, APartialLineL2NoLongerHoldsIsAMissNotAFill) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    partial.noteWrite({8, 8, 1, 0}, false, l2);  // line 0 partial, but never allocated here
    EXPECT_EQ(partial.fillOnRead({0, kL2LineBytes, 1, 0}, l2), 0u);
    EXPECT_FALSE(partial.isPartial(0));
}

ChipConfig partialChip(PartialLineFill fill) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.l2.partialLineFill = fill;
    return chip;
}

// The time a read of `bytes` at 0 takes after a planar store of them, 676 B bursts back to back.
std::uint64_t readAfterPlanarStore(SharedMemorySystem& memory, std::uint64_t bytes, bool burstsApart,
                                   PmuCounters& counters) {
    GmAccess store{0, 0, 0, bytes, true, static_cast<std::uint32_t>(bytes / kPlane), kPlane, burstsApart};
    memory.access(store, counters);
    const std::uint64_t start = 10'000'000;
    return memory.access(GmAccess{start, 1, 0, bytes, false}, counters) - start;
}

TEST(PartialReadFill, AReadOfPlanarRowsWrittenBurstByBurstPaysTheirFillsWithoutEvicting) {
    const std::uint64_t bytes = 16 * kPlane;  // 10816 B: lines 0 .. 21, few of them inside one plane
    SharedMemorySystem off(partialChip(PartialLineFill::None));
    SharedMemorySystem on(partialChip(PartialLineFill::OnRead));
    PmuCounters offCounters;
    PmuCounters onCounters;
    const std::uint64_t offPs = readAfterPlanarStore(off, bytes, true, offCounters);
    const std::uint64_t onPs = readAfterPlanarStore(on, bytes, true, onCounters);
    EXPECT_EQ(off.hbmBytesRead(), 0u);  // every line a hit
    // Every line the planes do not cover whole within one burst is filled from HBM by the read.
    std::set<std::uint64_t> partialLines;
    forEachWrittenLine({0, kPlane, 16, kPlane}, kL2LineBytes, true, [&](std::uint64_t first, std::uint64_t, bool whole) {
        if (!whole) partialLines.insert(first);
    });
    EXPECT_GT(partialLines.size(), 10u);
    EXPECT_EQ(on.hbmBytesRead(), partialLines.size() * kL2LineBytes);
    EXPECT_GT(onPs, offPs);  // the read waits for HBM (its read latency) instead of the hit latency
    EXPECT_EQ(onCounters[PmuEvent::L2R0ReadMissAllocate] + onCounters[PmuEvent::L2R1ReadMissAllocate], 0u);
}

TEST(PartialReadFill, TheSameStoreAsOneRangeLeavesWholeLines) {
    SharedMemorySystem on(partialChip(PartialLineFill::OnRead));
    PmuCounters counters;
    readAfterPlanarStore(on, 16 * kPlane, false, counters);
    // Only the range's last line is partial (10816 = 21 × 512 + 64).
    EXPECT_EQ(on.hbmBytesRead(), kL2LineBytes);
}

// The small chip's L2 has 16 sets of 2 ways: lines 0, 16 and 32 share set 0.
constexpr std::uint64_t kSameSetStride = 16 * kL2LineBytes;

// Writes bytes 8 .. 108 of line 0, then whole lines 16 and 32 (set 0 again: line 0 is evicted);
// returns the HBM bytes read.
std::uint64_t hbmReadAfterEvictingAPartialLine(PartialLineFill fill, bool readItFirst) {
    SharedMemorySystem memory(partialChip(fill));
    PmuCounters counters;
    memory.access(testing_support::gmWriteOf(8, 100, 0), counters);
    if (readItFirst) memory.access(GmAccess{1'000'000, 0, 0, 64, false}, counters);
    memory.access(testing_support::gmWriteOf(kSameSetStride, kL2LineBytes, 2'000'000), counters);
    memory.access(testing_support::gmWriteOf(2 * kSameSetStride, kL2LineBytes, 3'000'000), counters);
    return memory.hbmBytesRead();
}

TEST(PartialLineEvictFill, APartialLineEvictedBeforeAnyReadIsCompletedOnItsWayOut) {
    EXPECT_EQ(hbmReadAfterEvictingAPartialLine(PartialLineFill::None, false), 0u);
    // A byte-masked write-back needs no fill.
    EXPECT_EQ(hbmReadAfterEvictingAPartialLine(PartialLineFill::OnRead, false), 0u);
    // Whole lines only: the write-back reads the line's other bytes first.
    EXPECT_EQ(hbmReadAfterEvictingAPartialLine(PartialLineFill::OnReadOrEvict, false), kL2LineBytes);
}

TEST(PartialLineEvictFill, ALineAReadFilledIsWholeWhenEvicted) {
    // Whichever comes first: the read fills it once, the eviction finds it whole.
    EXPECT_EQ(hbmReadAfterEvictingAPartialLine(PartialLineFill::OnRead, true), kL2LineBytes);
    EXPECT_EQ(hbmReadAfterEvictingAPartialLine(PartialLineFill::OnReadOrEvict, true), kL2LineBytes);
}

TEST(PartialLineEvictFill, TheEvictingWriteWaitsForTheFillBesideTheWriteBack) {
    // The same eviction, lazy write-back: the write that evicts waits for its victim's HBM work,
    // one line more with the fill.
    auto evictingWriteTime = [](PartialLineFill fill) {
        SharedMemorySystem memory(partialChip(fill));
        PmuCounters counters;
        memory.access(testing_support::gmWriteOf(8, 100, 0), counters);
        memory.access(testing_support::gmWriteOf(kSameSetStride, kL2LineBytes, 2'000'000), counters);
        return memory.access(testing_support::gmWriteOf(2 * kSameSetStride, kL2LineBytes, 3'000'000), counters) - 3'000'000;
    };
    EXPECT_EQ(evictingWriteTime(PartialLineFill::OnReadOrEvict), evictingWriteTime(PartialLineFill::OnRead) + kL2LineBytes);
}

}  // namespace
}  // namespace ascendsim
