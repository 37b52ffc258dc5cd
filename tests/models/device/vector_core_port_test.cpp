// A vector core's GM port (docs/fidelity.md §29): an AIV's loads and stores of L2-resident data
// share one port at the UB→GM path's peak, so a double-buffered copy moves at most that many
// bytes per cycle in and out together; without the port each pipe ran at its own curve.
#include <gtest/gtest.h>

#include <utility>

#include "models/device/device.h"
#include "models/device/device_run.h"
#include "models/systemc/fresh_simulation_context.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kTileBytes = 32768;

// Copies the same two GM tiles again and again through two UB buffers: after the first pass
// every load hits L2 and every store lands on a line it already dirtied (no HBM at all).
std::vector<Instruction> residentCopy(int tiles) {
    constexpr std::uint64_t kSource = 0, kTarget = 1 << 20;
    std::vector<Instruction> p;
    for (int i = 0; i < tiles; ++i) {
        const auto buf = static_cast<std::uint8_t>(i % 2);
        const std::uint64_t ub = buf * kTileBytes;
        if (i >= 2) p.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Mte2, buf));
        p.push_back(gmToUb(ub, kTileBytes, kSource + buf * kTileBytes));
        p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Mte3, buf));
        p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Mte3, buf));
        p.push_back(ubToGm(ub, kTileBytes, kTarget + buf * kTileBytes));
        p.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Mte2, buf));
    }
    for (std::uint8_t buf = 0; buf < 2; ++buf) p.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Mte2, buf));
    return p;
}

// One AIV copying `tiles` resident tiles; returns (bytes in + out) per cycle and MTE2 + MTE3 busy.
std::pair<double, double> copyRate(const ChipConfig& chip, int tiles) {
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    KernelTask task = vectorTask({}, 1);
    task.program = [tiles](const BlockProgramRequest&) {
        return std::make_unique<FixedInstructionStream>(residentCopy(tiles));
    };
    device.submit(std::move(task), 0);
    device.runUntilIdle();
    EXPECT_EQ(observer.results.size(), 1u);
    const PmuCounters& c = observer.results.at(0).blocks.at(0).counters;
    const auto cycles = static_cast<double>(c.totalCycles);
    return {2.0 * tiles * kTileBytes / cycles, static_cast<double>(c[PmuEvent::Mte2Busy] + c[PmuEvent::Mte3Busy]) / cycles};
}

TEST(VectorCorePort, AResidentCopyMovesAtMostThePortRateInAndOutTogether) {
    const ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    const PathTiming* store = chip.findPath(MemSpace::UB, MemSpace::GM);
    ASSERT_NE(store, nullptr);
    const auto [bytesPerCycle, busy] = copyRate(chip, 64);
    EXPECT_LE(bytesPerCycle, store->peakBytesPerCycle);
    EXPECT_GT(bytesPerCycle, 0.8 * store->peakBytesPerCycle);  // the port, not the curves, sets it
    // Both pipes are in flight most of the time: the store queued behind the next load counts.
    EXPECT_GT(busy, 1.0);
}

// The 32 KiB tiles sit on the curves' measured points, so the path's peak only sets the port:
// with it far above, loads and stores run side by side at their curves, past the shipped peak.
TEST(VectorCorePort, WithoutThePortTheCurvesAloneRunFaster) {
    ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    const double shippedPeak = chip.findPath(MemSpace::UB, MemSpace::GM)->peakBytesPerCycle;
    for (PathTiming& p : chip.paths)
        if (p.src == MemSpace::UB && p.dst == MemSpace::GM) p.peakBytesPerCycle = 1000.0;
    EXPECT_GT(copyRate(chip, 64).first, 1.1 * shippedPeak);
}

}  // namespace
}  // namespace ascendsim::test
