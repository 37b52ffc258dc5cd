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
        EXPECT_EQ(b.counters[PmuEvent::IcacheMiss], 1u);  // 72 instructions fit one 2 KiB fill
    }
}

}  // namespace
}  // namespace ascendsim::test
