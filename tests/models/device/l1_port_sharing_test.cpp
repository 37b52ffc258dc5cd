// MTE1's reads out of L1 and MTE2's GM→L1 writes take turns on L1 (docs/fidelity.md §38): an
// L1→L0A/L0B move loses the share of its cycles that the GM→L1 transfer in flight holds L1 (the
// transfer's rate ÷ the GM→L1 peak). Alone it runs on its curve. The other half (§45): a GM→L1
// transfer's port cycles (its bytes at the GM→L1 peak) stretch by the share of L1 MTE1's reads held
// (their bytes at L1's read peak) since the previous GM→L1 transfer started.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kL1Bytes = 65536;  // the GM→L1 transfer: 1024 cycles on the test chip
constexpr std::uint32_t kL0Bytes = 16384;  // the MTE1 move: 256 cycles

Instruction l1Move(MemSpace src, MemSpace dst, std::uint64_t srcAddr, std::uint32_t bytes) {
    DataMove m;
    m.src = src;
    m.dst = dst;
    m.srcAddr = srcAddr;
    m.burstBytes = bytes;
    return Instruction::move(m);
}

// The counters of one cube block running `program`.
PmuCounters runBlock(const ChipConfig& chip, std::vector<Instruction> program) {
    DeviceRun device(chip);
    KernelTask t;
    t.type = TaskType::AiCore;
    t.program = sameProgram(std::move(program));
    return onlyBlock(device.runOne(std::move(t)));
}

// One cube block: optionally a GM→L1 transfer, and an L1→L0A move of other L1 bytes issued right
// behind it (no flag between them, so both run at once).
PmuCounters run(const ChipConfig& chip, bool withGmToL1, MemSpace l0 = MemSpace::L0A) {
    std::vector<Instruction> program;
    if (withGmToL1) program.push_back(l1Move(MemSpace::GM, MemSpace::L1, 0, kL1Bytes));
    program.push_back(l1Move(MemSpace::L1, l0, kL1Bytes, kL0Bytes));
    return runBlock(chip, std::move(program));
}

// The test chip with a GM→L1 peak of 128 B/cycle, twice the transfer's rate (its curve kept at
// 64 B/cycle through the 64 KiB point): a transfer's bytes hold L1 half of its curve cycles.
ChipConfig chipWithGmToL1PeakTwiceItsRate() {
    ChipConfig chip = deviceTestChip();
    for (PathTiming& p : chip.paths)
        if (p.src == MemSpace::GM && p.dst == MemSpace::L1) {
            p.curve = TransferCurve{{1024, kL1Bytes}, {1024 / 64.0, kL1Bytes / 64.0}};
            p.peakBytesPerCycle = 128.0;
        }
    return chip;
}

TEST(L1PortSharing, Mte1MoveAloneRunsOnItsCurve) {
    const PmuCounters alone = run(deviceTestChip(), false);
    EXPECT_EQ(alone[PmuEvent::Mte1Busy], kL0Bytes / 64u);
}

// The test chip's GM→L1 transfer runs at its peak (64 B/cycle): it holds L1 all the time, and an
// MTE1 move it overlaps throughout takes twice its curve, to L0A or L0B alike.
TEST(L1PortSharing, GmToL1TransferAtItsPeakDoublesAnOverlappedMte1Move) {
    for (MemSpace l0 : {MemSpace::L0A, MemSpace::L0B}) {
        const PmuCounters shared = run(deviceTestChip(), true, l0);
        EXPECT_EQ(shared[PmuEvent::Mte1Busy], 2u * kL0Bytes / 64u);
        EXPECT_EQ(shared[PmuEvent::Mte2Busy], kL1Bytes / 64u);  // the transfer is not slowed
    }
}

// With a GM→L1 peak twice the transfer's rate (its curve kept through the 64 KiB point) it holds
// L1 half the time: the move takes 1.5×.
TEST(L1PortSharing, StallIsTheTransfersShareOfL1) {
    const ChipConfig chip = chipWithGmToL1PeakTwiceItsRate();
    const PmuCounters half = run(chip, true);
    EXPECT_EQ(half[PmuEvent::Mte1Busy], 3u * kL0Bytes / 64u / 2u);
}

// Two GM→L1 transfers back to back with an L1→L0A move under the first: the second loses the share
// of L1 the move held in the first one's window. Without the move both run on their curve.
PmuCounters runTwoLoads(const ChipConfig& chip, bool withMte1Read) {
    std::vector<Instruction> program;
    program.push_back(l1Move(MemSpace::GM, MemSpace::L1, 0, kL1Bytes));
    if (withMte1Read) program.push_back(l1Move(MemSpace::L1, MemSpace::L0A, 2 * kL1Bytes, kL0Bytes));
    program.push_back(l1Move(MemSpace::GM, MemSpace::L1, kL1Bytes, kL1Bytes));
    return runBlock(chip, std::move(program));
}

TEST(L1PortSharing, GmToL1TransfersAloneRunOnTheirCurve) {
    EXPECT_EQ(runTwoLoads(deviceTestChip(), false)[PmuEvent::Mte2Busy], 2u * kL1Bytes / 64u);
}

// The move holds L1 for 16 KiB / 64 B = 256 of the first transfer's 1024 cycles: the second
// transfer's 1024 port cycles stretch by a quarter.
TEST(L1PortSharing, GmToL1TransferLosesTheShareMte1HeldBeforeIt) {
    const PmuCounters shared = runTwoLoads(deviceTestChip(), true);
    EXPECT_EQ(shared[PmuEvent::Mte2Busy], kL1Bytes / 64u + (kL1Bytes / 64u) * 5u / 4u);
}

// With a GM→L1 peak of 128 B/cycle the second transfer's bytes hold L1 for 512 of its 1024 curve
// cycles; only those stretch (the rest is its fixed cost): 1024 + 512 / 4.
TEST(L1PortSharing, OnlyTheTransfersPortCyclesStretch) {
    const ChipConfig chip = chipWithGmToL1PeakTwiceItsRate();
    const PmuCounters shared = runTwoLoads(chip, true);
    EXPECT_EQ(shared[PmuEvent::Mte2Busy], kL1Bytes / 64u + kL1Bytes / 64u + kL1Bytes / 128u / 4u);
}

}  // namespace
}  // namespace ascendsim::test
