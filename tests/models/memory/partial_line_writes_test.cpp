// forEachWrittenLine: which lines a write covers only in part (docs/fidelity.md §92), the ones
// l2.partial_line_fill keeps partial (partial_lines_test.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "models/memory/partial_line_writes.h"

namespace ascendsim {
namespace {

constexpr std::uint32_t kLine = 512;

std::vector<std::uint64_t> partialLinesOf(const L2Bursts& bursts) {
    std::vector<std::uint64_t> lines;
    forEachWrittenLine(bursts, kLine, false, [&](std::uint64_t line, std::uint64_t, bool whole) {
        if (!whole) lines.push_back(line);
    });
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

}  // namespace
}  // namespace ascendsim
