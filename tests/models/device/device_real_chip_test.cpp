// The device on a shipped chip config with the real SharedMemorySystem.
#include <gtest/gtest.h>

#include "models/device/device.h"
#include "models/device/device_test_chip.h"
#include "models/systemc/fresh_simulation_context.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim::test {
namespace {

std::vector<Instruction> copyTiles(int tiles) {
    std::vector<Instruction> p;
    for (int i = 0; i < tiles; ++i) {
        p.push_back(gmToUb(0, 16384, std::uint64_t(i) * 16384));
        p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, 0));
        p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, 0));
        p.push_back(vadds(32768, 0, 64));
        p.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte3, 0));
        p.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, 0));
        p.push_back(ubToGm(32768, 16384, (1ull << 30) + std::uint64_t(i) * 16384));
        p.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Mte2, 0));
        p.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Mte2, 0));
    }
    return p;
}

TEST(DeviceOnAscend910B1, AllVectorCoresShareL2AndHbm) {
    const ChipConfig chip = loadChipByName("Ascend910B1", defaultConfigDir());
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    device.submit(vectorTask(copyTiles(8), chip.vectorCoreCount), 0);
    device.runUntilIdle();
    ASSERT_EQ(observer.results.size(), 1u);
    const TaskResult& r = observer.results[0];
    EXPECT_EQ(r.blocks.size(), chip.vectorCoreCount);
    EXPECT_GT(r.vectorSum[PmuEvent::L2Read], 0u);
    EXPECT_GT(r.vectorSum[PmuEvent::L2Write], 0u);
    EXPECT_EQ(r.vectorSum[PmuEvent::BytesGmToUb], std::uint64_t{chip.vectorCoreCount} * 8 * 16384);
    for (const BlockResult& b : r.blocks) {
        EXPECT_LE(b.counters[PmuEvent::Mte2Busy], b.counters.totalCycles);
        EXPECT_LE(b.counters[PmuEvent::VecBusy], b.counters.totalCycles);
        // The block runs through its code image once (cold); its 72 instructions lie in it.
        EXPECT_EQ(b.counters[PmuEvent::IcacheMiss], chip.icache.kernelCodeBytes / chip.icache.fillBytes);
    }
}

// A column tile of a row-major matrix: 16 rows of 128 B, one every 8 KiB (16 L2 lines of 512 B).
TEST(DeviceOnAscend910B1, StridedGmReadMissesOnlyTheLinesItsRowsTouch) {
    ChipConfig chip = loadChipByName("Ascend910B1", defaultConfigDir());
    chip.blockArgumentReadBytes = 0;  // the launch's argument record (docs/fidelity.md §58) is a line of its own
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    Instruction tile = gmToUb(0, 128);
    std::get<DataMove>(tile.operands).burstCount = 16;
    std::get<DataMove>(tile.operands).srcGapBytes = 8192 - 128;
    device.submit(vectorTask({tile}), 0);
    device.runUntilIdle();
    ASSERT_EQ(observer.results.size(), 1u);
    const PmuCounters& c = observer.results[0].vectorSum;
    const std::uint64_t misses =
        c[PmuEvent::L2R0ReadMissAllocate] + c[PmuEvent::L2R1ReadMissAllocate];
    EXPECT_EQ(misses, 16u);  // one line per row, not the 241 lines from the first to the last byte
    EXPECT_EQ(c[PmuEvent::MainMemRead], 16u * chip.l2.lineBytes / 8);
    EXPECT_EQ(c[PmuEvent::L2Read], 16u * 128 / 256);
    EXPECT_EQ(c[PmuEvent::BytesGmToUb], 16u * 128);
}

}  // namespace
}  // namespace ascendsim::test
