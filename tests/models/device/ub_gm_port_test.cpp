// A core's GM port at its UB end (docs/fidelity.md "One GM port per core's UB, taken in turns"):
// a load-only or a store-only stream stays on its measured single-core curve; loads and stores
// of one core in flight together take turns on the port, each for its bytes at its path's peak.
#include <gtest/gtest.h>

#include <utility>

#include "models/device/device.h"
#include "models/device/device_run.h"
#include "models/core/ub_gm_port.h"
#include "models/systemc/fresh_simulation_context.h"
#include "models/timing/transfer_timing.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kMeasuredTileBytes = 32768;  // a measured point of both curves (hardware.md §1.3)
constexpr std::uint64_t kSource = 0, kTarget = 1 << 20;

enum class Stream { Loads, Stores, Copy };

// `tiles` transfers over the same two GM tiles through two UB buffers: after the first pass
// every load hits L2 and every store lands on a line it already dirtied (no HBM at all). A copy
// double-buffers: the next tile's load runs while the last one's store does.
std::vector<Instruction> residentStream(Stream kind, int tiles) {
    std::vector<Instruction> p;
    for (int i = 0; i < tiles; ++i) {
        const auto buf = static_cast<std::uint8_t>(i % 2);
        const std::uint64_t ub = buf * kMeasuredTileBytes;
        if (kind == Stream::Loads) {
            p.push_back(gmToUb(ub, kMeasuredTileBytes, kSource + buf * kMeasuredTileBytes));
            continue;
        }
        if (kind == Stream::Stores) {
            p.push_back(ubToGm(ub, kMeasuredTileBytes, kTarget + buf * kMeasuredTileBytes));
            continue;
        }
        if (i >= 2) p.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Mte2, buf));
        p.push_back(gmToUb(ub, kMeasuredTileBytes, kSource + buf * kMeasuredTileBytes));
        p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Mte3, buf));
        p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Mte3, buf));
        p.push_back(ubToGm(ub, kMeasuredTileBytes, kTarget + buf * kMeasuredTileBytes));
        p.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Mte2, buf));
    }
    if (kind == Stream::Copy)
        for (std::uint8_t buf = 0; buf < 2; ++buf) p.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Mte2, buf));
    return p;
}

// One AIV of the chip (its shared L2/HBM) running the stream; the block's counters.
PmuCounters runOneCore(const ChipConfig& chip, Stream kind, int tiles) {
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    KernelTask task = vectorTask({}, 1);
    task.program = [kind, tiles](const BlockProgramRequest&) {
        return std::make_unique<FixedInstructionStream>(residentStream(kind, tiles));
    };
    device.submit(std::move(task), 0);
    device.runUntilIdle();
    EXPECT_EQ(observer.results.size(), 1u);
    return observer.results.at(0).blocks.at(0).counters;
}

// Steady-state cycles per tile: the difference of two runs, so the block's start and the first
// (cold) pass cancel.
using Measure = double (*)(const PmuCounters&);
double cyclesPerTile(const ChipConfig& chip, Stream kind, Measure measure) {
    return (measure(runOneCore(chip, kind, 64)) - measure(runOneCore(chip, kind, 32))) / 32.0;
}
double total(const PmuCounters& c) { return static_cast<double>(c.totalCycles); }
double mte2(const PmuCounters& c) { return static_cast<double>(c[PmuEvent::Mte2Busy]); }
double mte3(const PmuCounters& c) { return static_cast<double>(c[PmuEvent::Mte3Busy]); }

double curveCycles(const ChipConfig& chip, const Instruction& move) {
    return static_cast<double>(TransferTiming(chip).cycles(std::get<DataMove>(move.operands)));
}

double peakOf(const ChipConfig& chip, MemSpace src, MemSpace dst) {
    const PathTiming* path = chip.findPath(src, dst);
    EXPECT_NE(path, nullptr);
    return path != nullptr ? path->peakBytesPerCycle : 0.0;
}

TEST(UbGmPort, ATransferIssuedWhileThePortIsHeldWaitsForIt) {
    UbGmPort port;
    EXPECT_EQ(port.pass(100, 50), 150u);  // free: holds it from its issue
    EXPECT_EQ(port.pass(120, 30), 180u);  // issued while held: after the first
    EXPECT_EQ(port.pass(400, 10), 410u);  // free again
    port.reset();
    EXPECT_EQ(port.pass(0, 5), 5u);
}

TEST(UbGmPort, ALoadOnlyStreamStaysOnItsMeasuredCurve) {
    const ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    EXPECT_NEAR(cyclesPerTile(chip, Stream::Loads, mte2), curveCycles(chip, gmToUb(0, kMeasuredTileBytes)), 1.0);
}

TEST(UbGmPort, AStoreOnlyStreamStaysOnItsMeasuredCurve) {
    const ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    EXPECT_NEAR(cyclesPerTile(chip, Stream::Stores, mte3), curveCycles(chip, ubToGm(0, kMeasuredTileBytes)),
                1.0);
}

// The curves alone would overlap the two pipes: a tile per max(load, store) curve, ~129 B/cycle
// in + out at 32 KiB. The port serves the tile's load at 113.3 and its store at 66.0 B/cycle in
// turn: at most 83 B/cycle in + out, and each pipe counts the cycles its transfer waits for the
// other.
TEST(UbGmPort, ACopysLoadsAndStoresTakeTurnsAtTheirPeaks) {
    const ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    const double load = peakOf(chip, MemSpace::GM, MemSpace::UB), store = peakOf(chip, MemSpace::UB, MemSpace::GM);
    const double portBound = 2.0 / (1.0 / load + 1.0 / store);
    const double perTile = cyclesPerTile(chip, Stream::Copy, total);
    const double inAndOut = 2.0 * kMeasuredTileBytes / perTile;
    EXPECT_LE(inAndOut, portBound * 1.001);
    // Not all of it: a load's data reaches the port only after its request's round trip, which
    // starts when the store before it frees the buffer, so the port idles part of each tile.
    EXPECT_GT(inAndOut, 0.85 * portBound);
    const double busy = cyclesPerTile(chip, Stream::Copy, mte2) +
                        cyclesPerTile(chip, Stream::Copy, mte3);
    EXPECT_GT(busy / perTile, 1.5);  // both in flight nearly all the time, one waiting
}

// With both peaks far above the curves the port is out of the way (the 32 KiB tiles sit on
// measured points, so the peaks change nothing else): the copy runs at the store's curve.
TEST(UbGmPort, WithThePortOutOfTheWayTheCurvesOverlap) {
    ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    const double load = peakOf(chip, MemSpace::GM, MemSpace::UB), store = peakOf(chip, MemSpace::UB, MemSpace::GM);
    const double portBound = 2.0 / (1.0 / load + 1.0 / store);
    for (PathTiming& p : chip.paths)
        if ((p.src == MemSpace::UB && p.dst == MemSpace::GM) || (p.src == MemSpace::GM && p.dst == MemSpace::UB))
            p.peakBytesPerCycle = 10000.0;
    const double perTile = cyclesPerTile(chip, Stream::Copy, total);
    EXPECT_GT(2.0 * kMeasuredTileBytes / perTile, 1.4 * portBound);
    EXPECT_NEAR(perTile, curveCycles(chip, ubToGm(0, kMeasuredTileBytes)), 0.05 * perTile);
}

}  // namespace
}  // namespace ascendsim::test
