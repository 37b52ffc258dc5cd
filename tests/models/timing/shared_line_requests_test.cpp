// A GM read's line requests (docs/fidelity.md §111): each burst asks for the L2 lines its bytes
// touch, and R cores reading the same lines at once wait (R − 1) / 2 line turns a request, spread
// over the requests MTE2 keeps in flight, on top of the move's single-core curve.
#include <gtest/gtest.h>

#include "models/timing/shared_line_requests.h"
#include "models/timing/transfer_timing.h"

namespace ascendsim {
namespace {

DataMove rows(std::uint64_t addr, std::uint32_t count, std::uint32_t bytes, std::uint32_t stride) {
    DataMove move;
    move.src = MemSpace::GM;
    move.dst = MemSpace::L1;
    move.srcAddr = addr;
    move.burstCount = count;
    move.burstBytes = bytes;
    move.srcGapBytes = stride - bytes;
    move.conversion = LayoutConversion::Nd2Nz;
    return move;
}

ChipConfig lineChip() {
    ChipConfig chip;
    chip.l2.lineBytes = 512;
    chip.l2.sameLineReadCycles = 90;
    chip.mte2LineRequestsInFlight = 45;
    PathTiming path;
    path.src = MemSpace::GM;
    path.dst = MemSpace::L1;
    path.peakBytesPerCycle = 128.0;
    path.curve.bytes = {1024, 131072};
    path.curve.cycles = {100, 1024};
    chip.paths.push_back(path);
    return chip;
}

TEST(SharedLineRequests, EachBurstRequestsTheLinesItTouches) {
    // A transposed A strip: 512 K rows of 256 B, 2 KiB apart — one request each, half a line.
    EXPECT_EQ(gmLineRequests(rows(0, 512, 256, 2048), 512), 512u);
    // The neighbouring strip starts mid-line: still one line a row.
    EXPECT_EQ(gmLineRequests(rows(256, 512, 256, 2048), 512), 512u);
    // 1 KiB rows on the line grid: two; 512 B rows straddling a line boundary: two.
    EXPECT_EQ(gmLineRequests(rows(0, 4, 1024, 4096), 512), 8u);
    EXPECT_EQ(gmLineRequests(rows(256, 4, 512, 4096), 512), 8u);
    // Rows not a whole number of lines apart sit differently on the grid: 384 B rows 640 B apart
    // touch 1, 2, 1, 2 lines.
    EXPECT_EQ(gmLineRequests(rows(0, 4, 384, 640), 512), 6u);
}

TEST(SharedLineRequests, QueuedReadersWaitHalfTheirTurnsARequest) {
    const ChipConfig chip = lineChip();
    DataMove move = rows(0, 512, 256, 2048);
    EXPECT_EQ(sharedLineWaitCycles(chip, move), 0u);  // no reader count
    move.concurrentLineReaders = 1.0f;                 // alone: no wait
    EXPECT_EQ(sharedLineWaitCycles(chip, move), 0u);
    move.concurrentLineReaders = 7.0f;  // six others ahead or behind: 3 turns of 90 over 45 in flight
    EXPECT_EQ(sharedLineWaitCycles(chip, move), 512u * 6u);
    ChipConfig off = chip;
    off.mte2LineRequestsInFlight = 0;
    EXPECT_EQ(sharedLineWaitCycles(off, move), 0u);
    DataMove store = move;
    store.src = MemSpace::L0C;
    store.dst = MemSpace::GM;
    EXPECT_EQ(sharedLineWaitCycles(chip, store), 0u);  // only GM reads queue on lines
}

TEST(SharedLineRequests, TheWaitAddsToTheMovesCurveCost) {
    const ChipConfig chip = lineChip();
    const TransferTiming timing(chip);
    DataMove move = rows(0, 512, 256, 2048);
    const std::uint64_t alone = timing.cycles(move);  // the curve: 128 KiB in 1024 cycles
    EXPECT_EQ(alone, 1024u);
    move.concurrentLineReaders = 7.0f;
    EXPECT_EQ(timing.cycles(move), alone + 512u * 6u);
    // Whole-line rows: half the requests for the same bytes, half the wait.
    DataMove wholeLines = rows(0, 256, 512, 4096);
    wholeLines.concurrentLineReaders = 7.0f;
    EXPECT_EQ(timing.cycles(wholeLines), alone + 256u * 6u);
}

// A read every block of the launch makes of the same lines at once moves at most the chip's
// shared-line rate (pipes.mte2_shared_line_read_bytes_per_cycle): its bytes at that rate when the
// curve is faster, the curve when it is slower; unmarked reads, stores and a chip without the rate
// keep the curve.
TEST(SharedLineRequests, AReadEveryBlockMakesMovesAtTheSharedLineRate) {
    ChipConfig chip = lineChip();
    chip.mte2SharedLineReadBytesPerCycle = 52;
    const TransferTiming timing(chip);
    DataMove move = rows(0, 256, 512, 512);  // 128 KiB contiguous: the curve's 1024 cycles
    EXPECT_EQ(sharedLineReadCycles(chip, move), 0u);
    EXPECT_EQ(timing.cycles(move), 1024u);
    move.linesReadByEveryBlock = true;
    EXPECT_EQ(sharedLineReadCycles(chip, move), (131072u + 51u) / 52u);  // 2521
    EXPECT_EQ(timing.cycles(move), 2521u);
    chip.mte2SharedLineReadBytesPerCycle = 200;  // faster than the curve: the curve
    EXPECT_EQ(TransferTiming(chip).cycles(move), 1024u);
    chip.mte2SharedLineReadBytesPerCycle = 0;
    EXPECT_EQ(sharedLineReadCycles(chip, move), 0u);
    chip.mte2SharedLineReadBytesPerCycle = 52;
    DataMove store = move;
    store.src = MemSpace::L0C;
    store.dst = MemSpace::GM;
    EXPECT_EQ(sharedLineReadCycles(chip, store), 0u);
}

}  // namespace
}  // namespace ascendsim
