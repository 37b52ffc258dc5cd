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
    // Writes of the rest that go burst by burst (§94's planar-row stores) do not make it whole; a
    // read fills it once.
    partial.noteWrite({300, 212, 1, 0}, true, l2);
    partial.noteWrite({0, 100, 1, 0}, true, l2);
    EXPECT_TRUE(partial.isPartial(0));
    EXPECT_EQ(partial.fillOnRead({0, 64, 1, 0}, l2), 1u);
    EXPECT_FALSE(partial.isPartial(0));
    EXPECT_EQ(partial.fillOnRead({0, 64, 1, 0}, l2), 0u);
}

TEST(LineBytesTouched, TheHullOfTheBurstsInALineAndWhetherTheyAreOnePiece) {
    // One burst, bytes 100 .. 300 of line 0; nothing of line 1.
    const LineBytesTouched one = lineBytesTouched({100, 200, 1, 0}, 0, kL2LineBytes);
    EXPECT_EQ(one.begin, 100u);
    EXPECT_EQ(one.end, 300u);
    EXPECT_EQ(one.bursts, 1u);
    EXPECT_TRUE(one.contiguous);
    EXPECT_EQ(lineBytesTouched({100, 200, 1, 0}, 1, kL2LineBytes).bursts, 0u);
    // 676 B planes back to back: line 1 (512 .. 1024) takes the end of the first and the start of
    // the second, which meet: one piece, two bursts.
    const LineBytesTouched planes = lineBytesTouched({0, kPlane, 2, kPlane}, 1, kL2LineBytes);
    EXPECT_EQ(planes.begin, 0u);
    EXPECT_EQ(planes.end, kL2LineBytes);
    EXPECT_EQ(planes.bursts, 2u);
    EXPECT_TRUE(planes.contiguous);
    // 32 B every 64 B: gaps between the bursts.
    const LineBytesTouched strided = lineBytesTouched({kL2LineBytes + 16, 32, 4, 64}, 1, kL2LineBytes);
    EXPECT_EQ(strided.begin, 16u);
    EXPECT_EQ(strided.end, 16u + 3 * 64 + 32);
    EXPECT_EQ(strided.bursts, 4u);
    EXPECT_FALSE(strided.contiguous);
    // A line past the bursts' first ones: only the bursts that reach into it count.
    const LineBytesTouched later = lineBytesTouched({0, 100, 20, 200}, 3, kL2LineBytes);  // 1536 .. 2048
    EXPECT_EQ(later.bursts, 3u);  // bursts at 1400 (to 1500: no), 1600, 1800, 2000
    EXPECT_EQ(later.begin, 1600u - 3 * kL2LineBytes);
    EXPECT_EQ(later.end, kL2LineBytes);
}

TEST(PartialLines, AReadOfOnlyTheBytesTheAllocatingWritePutThereIsServedWithoutAFill) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    // A one-block kernel stores a [32] fp32 tensor: bytes 0 .. 128 of line 0 (§129: the 910B2's
    // next kernel reads it in an L2 hit's MTE2 time).
    partial.noteWrite({0, 128, 1, 0}, false, l2);
    l2.access(0, true);
    EXPECT_EQ(partial.fillOnRead({0, 128, 1, 0}, l2), 0u);
    EXPECT_EQ(partial.fillOnRead({32, 64, 1, 0}, l2), 0u);
    EXPECT_TRUE(partial.isPartial(0));  // still partial: its other bytes are not there
    // A read that wants bytes past the write's fills it once.
    EXPECT_EQ(partial.fillOnRead({0, 256, 1, 0}, l2), 1u);
    EXPECT_FALSE(partial.isPartial(0));
}

TEST(PartialLines, ALineTwoBurstsOfOneWriteShareHasNoOneWritesPiece) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    // Burst by burst (§94b): line 1 takes the first plane's end and the second's start as two
    // writes. Even a read of the first plane's bytes alone fills it.
    partial.noteWrite({0, kPlane, 2, kPlane}, true, l2);
    l2.access(1, true);
    EXPECT_TRUE(partial.isPartial(1));
    EXPECT_EQ(partial.fillOnRead({kL2LineBytes, kPlane - kL2LineBytes, 1, 0}, l2), 1u);
    // The same store as one range: line 2 (1024 .. 1352 written) holds one piece.
    partial.noteWrite({0, kPlane, 2, kPlane}, false, l2);
    l2.access(2, true);
    EXPECT_EQ(partial.fillOnRead({2 * kL2LineBytes, 2 * kPlane - 2 * kL2LineBytes, 1, 0}, l2), 0u);
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
    // So is one the read wants only the written bytes of: the miss fills it whole, it is forgotten.
    partial.noteWrite({8, 8, 1, 0}, false, l2);
    EXPECT_EQ(partial.fillOnRead({8, 8, 1, 0}, l2), 0u);
    EXPECT_FALSE(partial.isPartial(0));
}

// A bias gradient's store (§138f): a ReduceSum on many cores writes 24 B a core (6 fp32 channels),
// one write each, not in address order.
TEST(PartialLines, SingleRangePiecesOfSeveralCoresJoinAndAReadOfThemIsAHit) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    constexpr std::uint64_t kPiece = 24;
    const std::vector<std::uint32_t> cores{0, 1, 2, 5, 3, 4, 6, 7};  // core c writes bytes 24c .. 24c + 24
    for (const std::uint32_t core : cores) {
        partial.noteWrite({core * kPiece, kPiece, 1, 0}, false, l2);
        l2.access(0, true);
    }
    EXPECT_TRUE(partial.isPartial(0));
    // Cores 0..7 wrote bytes 0 .. 192 together: a read of them is served without a fill, even
    // though core 5's piece came before core 3's and 4's.
    EXPECT_EQ(partial.fillOnRead({0, 8 * kPiece, 1, 0}, l2), 0u);
    EXPECT_TRUE(partial.isPartial(0));
    // A read past them fills the line.
    EXPECT_EQ(partial.fillOnRead({0, 9 * kPiece, 1, 0}, l2), 1u);
    EXPECT_FALSE(partial.isPartial(0));
}

TEST(PartialLines, PiecesThatCoverTheLineMakeItWhole) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    partial.noteWrite({0, 200, 1, 0}, false, l2);
    l2.access(0, true);
    partial.noteWrite({200, kL2LineBytes - 200 + 64, 1, 0}, false, l2);  // into line 1 too
    EXPECT_FALSE(partial.isPartial(0));
}

// The fills of a read of line 0 whole after `first` allocates it in part and `second` writes more
// of it (held). Which core writes is not an input: pieces join whoever writes them (§167).
std::uint64_t fillsOfAWholeReadAfterTwoWrites(const L2Bursts& first, const L2Bursts& second, bool secondApart) {
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    partial.noteWrite(first, false, l2);
    l2.access(0, true);
    partial.noteWrite(second, secondApart, l2);
    return partial.fillOnRead({0, kL2LineBytes, 1, 0}, l2);
}

TEST(PartialLines, StridedAndBurstByBurstWritesDoNotJoin) {
    // The control: a single range that completes the line makes it whole (another core's piece, or
    // the same core's next row store, MaxPoolWithArgmaxV1's y, §167), and one that covers only
    // part of the rest leaves the line partial.
    EXPECT_EQ(fillsOfAWholeReadAfterTwoWrites({0, 224, 1, 0}, {224, 288, 1, 0}, false), 0u);
    EXPECT_EQ(fillsOfAWholeReadAfterTwoWrites({0, 224, 1, 0}, {224, 200, 1, 0}, false), 1u);
    // A strided write (288 B every 9216 B, a FRACTAL_Z -> NCHW TransData's rows, §134f): not a
    // single range, so its bytes do not join.
    EXPECT_EQ(fillsOfAWholeReadAfterTwoWrites({0, 224, 1, 0}, {224, 288, 16, 9216}, false), 1u);
    // Nor does a move that goes burst by burst.
    EXPECT_EQ(fillsOfAWholeReadAfterTwoWrites({0, 224, 1, 0}, {224, 288, 1, 0}, true), 1u);
    // Nor a write into a line whose allocating write left no one piece (32 B every 64 B).
    EXPECT_EQ(fillsOfAWholeReadAfterTwoWrites({0, 32, 8, 64}, {32, 480, 1, 0}, false), 1u);
}

// MaxPoolWithArgmaxV1's y ([32,4,27,27,16] fp32, §167): a core stores its output rows of 1728 B one
// by one, back to back; the lines two rows share are completed by the next row's store, so the
// TransData that reads y back whole pays no fill (on the chip its MTE2 is a whole line's).
TEST(PartialLines, ACoresSuccessiveRowStoresCompleteTheLinesTheyShare) {
    constexpr std::uint64_t kRow = 27 * 16 * 4;
    L2Cache l2(64 * kL2LineBytes, kL2LineBytes, 4);
    PartialLines partial;
    for (std::uint64_t row = 0; row < 3; ++row) {
        partial.noteWrite({row * kRow, kRow, 1, 0}, false, l2);
        for (std::uint64_t line = row * kRow / kL2LineBytes; line <= ((row + 1) * kRow - 1) / kL2LineBytes; ++line)
            l2.access(line, true);
    }
    EXPECT_FALSE(partial.isPartial(3));  // bytes 1536 .. 2048: rows 0 and 1
    EXPECT_FALSE(partial.isPartial(6));  // bytes 3072 .. 3584: rows 1 and 2
    EXPECT_TRUE(partial.isPartial(10));  // bytes 5120 .. 5184 of row 2; the rest not written
    EXPECT_EQ(partial.fillOnRead({0, 3 * kRow, 1, 0}, l2), 0u);
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
    // Every line the planes do not cover whole within one burst is filled from HBM by the read,
    // but the last (line 21): the read wants only the bytes 10752 .. 10816 the last plane put
    // there (§129).
    std::set<std::uint64_t> partialLines;
    forEachWrittenLine({0, kPlane, 16, kPlane}, kL2LineBytes, true, [&](std::uint64_t first, std::uint64_t, bool whole) {
        if (!whole) partialLines.insert(first);
    });
    EXPECT_GT(partialLines.size(), 10u);
    EXPECT_EQ(*partialLines.rbegin(), bytes / kL2LineBytes);
    EXPECT_EQ(on.hbmBytesRead(), (partialLines.size() - 1) * kL2LineBytes);
    EXPECT_GT(onPs, offPs);  // the read waits for HBM (its read latency) instead of the hit latency
    EXPECT_EQ(onCounters[PmuEvent::L2R0ReadMissAllocate] + onCounters[PmuEvent::L2R1ReadMissAllocate], 0u);
}

struct ReadBack {
    std::uint64_t ps = 0;
    std::uint64_t hbmBytesRead = 0;
};

// A 128 B store into line 0, then a read of `readBytes` from its start: the read's time and the
// HBM bytes read.
ReadBack readAfterSmallStore(PartialLineFill fill, std::uint64_t readBytes) {
    SharedMemorySystem memory(partialChip(fill));
    PmuCounters counters;
    memory.access(testing_support::gmWriteOf(0, 128, 0), counters);
    const std::uint64_t start = 10'000'000;
    const std::uint64_t ps = memory.access(GmAccess{start, 1, 0, readBytes, false}, counters) - start;
    return {ps, memory.hbmBytesRead()};
}

TEST(PartialReadFill, ASmallTensorReadBackAsItWasWrittenIsAnL2Hit) {
    const ReadBack off = readAfterSmallStore(PartialLineFill::None, 128);
    const ReadBack on = readAfterSmallStore(PartialLineFill::OnReadOrEvict, 128);
    EXPECT_EQ(on.ps, off.ps);
    EXPECT_EQ(on.hbmBytesRead, 0u);
    // Reading the whole line wants bytes no write put there: the fill.
    const ReadBack whole = readAfterSmallStore(PartialLineFill::OnReadOrEvict, kL2LineBytes);
    EXPECT_GT(whole.ps, off.ps);
    EXPECT_EQ(whole.hbmBytesRead, kL2LineBytes);
}

TEST(PartialReadFill, TheSameStoreAsOneRangeLeavesWholeLines) {
    SharedMemorySystem on(partialChip(PartialLineFill::OnRead));
    PmuCounters counters;
    readAfterPlanarStore(on, 16 * kPlane, false, counters);
    // Only the range's last line is partial (10816 = 21 × 512 + 64), and the read wants only the
    // 64 B the store put there: no fill (§129).
    EXPECT_EQ(on.hbmBytesRead(), 0u);
    // A read of its whole last line fills it.
    on.access(GmAccess{20'000'000, 1, 21 * kL2LineBytes, kL2LineBytes, false}, counters);
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
