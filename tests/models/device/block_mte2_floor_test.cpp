// The least MTE2 busy a block counts (pipes.block_mte2_floor_cycles, docs/fidelity.md §134): the
// 910A's one-block kernels that read nothing from GM count ~190 MTE2 cycles, those whose loads keep
// MTE2 busy longer count their loads alone. A floor on the counter, not a cost: no time moves.
#include <gtest/gtest.h>

#include "models/device/device_run.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kFloorCycles = 190;

ChipConfig chipWithMte2Floor(std::uint32_t floorCycles) {
    ChipConfig chip = deviceTestChip();
    chip.blockStartCycles = 300;  // the 910A's blocks outlast the floor by their start-up alone (375)
    chip.blockMte2FloorCycles = floorCycles;
    return chip;
}

PmuCounters runOnTimedMemory(const ChipConfig& chip, const std::vector<Instruction>& program, std::uint64_t latencyCycles) {
    return runVectorBlockOnTimedMemory(chip, program, latencyCycles, 0);
}

TEST(BlockMte2Floor, ABlockThatLoadsNothingCountsTheFloorAndTakesNoLonger) {
    const std::vector<Instruction> storeOnly = computeThenStores(1, 1024);
    const PmuCounters without = runOnTimedMemory(chipWithMte2Floor(0), storeOnly, 100);
    const PmuCounters with = runOnTimedMemory(chipWithMte2Floor(kFloorCycles), storeOnly, 100);
    EXPECT_EQ(without[PmuEvent::Mte2Busy], 0u);
    ASSERT_GE(with.totalCycles, kFloorCycles) << "the block must outlast the floor for this test";
    EXPECT_EQ(with[PmuEvent::Mte2Busy], kFloorCycles);
    EXPECT_EQ(with.totalCycles, without.totalCycles);
    EXPECT_EQ(with[PmuEvent::Mte3Busy], without[PmuEvent::Mte3Busy]);
}

TEST(BlockMte2Floor, LoadsThatKeepMte2BusyLongerCountAloneNotPlusTheFloor) {
    // One load whose round trip (300 cycles) is longer than the floor.
    const std::vector<Instruction> load = loadThenCompute();
    const PmuCounters without = runOnTimedMemory(chipWithMte2Floor(0), load, 300);
    const PmuCounters with = runOnTimedMemory(chipWithMte2Floor(kFloorCycles), load, 300);
    ASSERT_GT(without[PmuEvent::Mte2Busy], kFloorCycles);
    EXPECT_EQ(with[PmuEvent::Mte2Busy], without[PmuEvent::Mte2Busy]);
    EXPECT_EQ(with.totalCycles, without.totalCycles);
}

TEST(BlockMte2Floor, AShortLoadIsRaisedToTheFloor) {
    const std::vector<Instruction> load = loadThenCompute();
    const PmuCounters with = runOnTimedMemory(chipWithMte2Floor(kFloorCycles), load, 120);
    ASSERT_LT(runOnTimedMemory(chipWithMte2Floor(0), load, 120)[PmuEvent::Mte2Busy], kFloorCycles);
    EXPECT_EQ(with[PmuEvent::Mte2Busy], kFloorCycles);
}

TEST(BlockMte2Floor, NeverMoreThanTheBlocksCycles) {
    const PmuCounters c = runOnTimedMemory(chipWithMte2Floor(1'000'000), computeThenStores(1, 64), 10);
    EXPECT_EQ(c[PmuEvent::Mte2Busy], c.totalCycles);
}

TEST(BlockMte2Floor, OnlyThe910AShipsOne) {
    EXPECT_EQ(loadChipByName("Ascend910", defaultConfigDir()).blockMte2FloorCycles, kFloorCycles);
    for (const char* name : {"Ascend910B1", "Ascend910B2", "Ascend910B4_1650", "Ascend310P3"})
        EXPECT_EQ(loadChipByName(name, defaultConfigDir()).blockMte2FloorCycles, 0u) << name;
}

}  // namespace
}  // namespace ascendsim::test
