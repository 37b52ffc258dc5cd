// forEachPartialLine and l2.partialWriteFill: which lines a write covers only in part, and what
// filling them from HBM costs the write (docs/fidelity.md §92).
#include <gtest/gtest.h>

#include <vector>

#include "models/memory/partial_line_writes.h"
#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

constexpr std::uint32_t kLine = 512;

std::vector<std::uint64_t> partialLinesOf(const L2Bursts& bursts) {
    std::vector<std::uint64_t> lines;
    forEachPartialLine(bursts, kLine, [&](std::uint64_t line) { lines.push_back(line); });
    return lines;
}

TEST(PartialLineWrites, AWholeLineAlignedRangeHasNone) {
    EXPECT_TRUE(partialLinesOf({0, 4 * kLine, 1, 0}).empty());
    // Back-to-back bursts are one range.
    EXPECT_TRUE(partialLinesOf({kLine, 64, 16, 64}).empty());
}

TEST(PartialLineWrites, AnUnalignedRangeHasItsTwoEndLines) {
    // Bytes 32 .. 32 + 3 × 512: line 0 from byte 32, lines 1 and 2 whole, line 3 up to byte 32.
    EXPECT_EQ(partialLinesOf({32, 3 * kLine, 1, 0}), (std::vector<std::uint64_t>{0, 3}));
    EXPECT_EQ(partialLinesOf({0, 100, 1, 0}), (std::vector<std::uint64_t>{0}));
}

TEST(PartialLineWrites, TheNzStoresBurstsCoverTwoOrThreeLinesInPart) {
    // §88's conversion: 608 B bursts (19 rows × 32 B) 128 KiB apart; row block 1 starts at 608.
    const std::uint64_t stride = 128 * 1024;
    const std::vector<std::uint64_t> lines = partialLinesOf({608, 608, 3, stride});
    // Bytes 608 .. 1216 of each 128 KiB: line 1 from byte 96, line 2 to byte 192 of it.
    const std::uint64_t linesPerStride = stride / kLine;
    EXPECT_EQ(lines, (std::vector<std::uint64_t>{1, 2, 1 + linesPerStride, 2 + linesPerStride,
                                                 1 + 2 * linesPerStride, 2 + 2 * linesPerStride}));
    // Row block 3 (bytes 1824 .. 2432): the end of line 3 and the start of line 4.
    EXPECT_EQ(partialLinesOf({1824, 608, 1, 0}), (std::vector<std::uint64_t>{3, 4}));
    // Row block 2 (bytes 1216 .. 1824): parts of lines 2 and 3.
    EXPECT_EQ(partialLinesOf({1216, 608, 1, 0}), (std::vector<std::uint64_t>{2, 3}));
}

TEST(PartialLineWrites, BurstsThatShareALineAddUp) {
    // Two 256 B bursts 768 apart leave both their lines half written.
    EXPECT_EQ(partialLinesOf({0, 256, 2, 768}), (std::vector<std::uint64_t>{0, 1}));
    // 32 B bursts 64 B apart: each line gets 8 of its 16 blocks; 256 B bursts 256 apart
    // (back to back) fill theirs.
    EXPECT_EQ(partialLinesOf({0, 32, 16, 64}), (std::vector<std::uint64_t>{0, 1}));
    EXPECT_TRUE(partialLinesOf({0, 256, 2, 256}).empty());
    // 384 B bursts 448 apart: line 0 gets 384 + 64, line 1 the rest of burst 1 (320): both partial.
    EXPECT_EQ(partialLinesOf({0, 384, 2, 448}), (std::vector<std::uint64_t>{0, 1}));
}

ChipConfig fillingChip(std::uint32_t partialWriteFill) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.l2.partialWriteFill = partialWriteFill;
    return chip;
}

GmAccess writeOf(std::uint64_t address, std::uint64_t bytes, std::uint64_t startPs = 0) {
    return GmAccess{startPs, 0, address, bytes, true};
}

TEST(PartialWriteFill, APartialLineMissIsFilledFromHbmWhileTheWriteIsPosted) {
    PmuCounters off;
    PmuCounters on;
    SharedMemorySystem noFill(fillingChip(0));
    SharedMemorySystem filling(fillingChip(1));
    const std::uint64_t doneOff = noFill.access(writeOf(0, 100), off);
    const std::uint64_t doneOn = filling.access(writeOf(0, 100), on);
    EXPECT_EQ(off[PmuEvent::MainMemRead], 0u);
    EXPECT_EQ(on[PmuEvent::MainMemRead], kLine / 8);
    EXPECT_EQ(filling.hbmBytesRead(), kLine);
    // The fill's 512 B pass HBM (1 B/ps) ahead of the write, which then completes at the L2 hit
    // latency (10 cycles of 1 ns), not the HBM read latency (100 cycles): it is posted.
    EXPECT_EQ(doneOff, 20u + 10'000u);  // 100 B through L2 at 5 B/ps, then the hit latency
    EXPECT_EQ(doneOn, 512u + 10'000u);   // the fill through HBM first
    EXPECT_LT(doneOn, 20'000u);
}

TEST(PartialWriteFill, WholeLinesAndLinesL2HoldsAreNotFilled) {
    SharedMemorySystem memory(fillingChip(1));
    PmuCounters counters;
    memory.access(writeOf(0, 2 * kLine), counters);  // whole lines: allocated without a fill
    EXPECT_EQ(memory.hbmBytesRead(), 0u);
    memory.access(writeOf(kLine + 64, 64, 1'000'000), counters);  // line 1 is held: merged
    EXPECT_EQ(memory.hbmBytesRead(), 0u);
    memory.access(writeOf(2 * kLine + 64, 64, 2'000'000), counters);  // line 2 is not
    EXPECT_EQ(memory.hbmBytesRead(), kLine);
}

}  // namespace
}  // namespace ascendsim
