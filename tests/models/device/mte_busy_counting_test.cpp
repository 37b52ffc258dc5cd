// What an MTE pipe's busy counter counts (docs/fidelity.md "What MTE2/MTE3 busy counts"): every
// cycle one of its instructions is in flight, including the cycles it waits for L2/HBM, not only
// the cycles data moves. And the vector queue deep enough that a tile's vector instructions do
// not stop the scalar unit from issuing the next tile's loads.
#include <gtest/gtest.h>

#include "models/device/device.h"
#include "models/device/device_run.h"
#include "models/systemc/fresh_simulation_context.h"
#include "sim/config/chip_config_loader.h"
#include "tests/models/device/load_compute_store_stream.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kTileBytes = 16384;

// Double-buffered loads of distinct GM tiles; the vector pipe consumes each with one vadds.
std::vector<Instruction> streamLoads(int tiles, std::uint64_t gmBase, int vectorOpsPerTile,
                                     std::uint16_t repeats = 1) {
    std::vector<Instruction> p;
    for (int i = 0; i < tiles; ++i) {
        const auto buf = static_cast<std::uint8_t>(i % 2);
        const std::uint64_t ub = buf * kTileBytes;
        if (i >= 2) p.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte2, buf));
        p.push_back(gmToUb(ub, kTileBytes, gmBase + std::uint64_t(i) * kTileBytes));
        p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, buf));
        p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, buf));
        // Destinations in the next 64 KiB bank slice: no vadds reads and writes one bank.
        for (int k = 0; k < vectorOpsPerTile; ++k) p.push_back(vadds(0x10000 + 256 * k, ub, repeats));
        p.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte2, buf));
    }
    return p;
}

double ratio(const PmuCounters& c, PmuEvent e) {
    return static_cast<double>(c[e]) / static_cast<double>(c.totalCycles);
}

// Every vector core streams cold tiles from HBM at once: the chip's HBM, not a core's MTE2, is
// the limit. Each core's MTE2 moves data at a small fraction of its path's peak, yet its busy
// counter reads ~1: the hardware shows the same on its HBM-bound streams (Qwen3 rank 0 Cast
// fp32->bf16 [151936,1024], Add, Mul: aiv_mte2_ratio 0.96-1.00 at ~6 B/cycle per core).
TEST(MteBusyCounting, HbmBoundStreamCountsEveryCycleInFlight) {
    ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    chip.hbm.bandwidthGBps = 200.0;  // ~3 B/cycle per core: far below a core's GM->UB rate
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    const int tiles = 24;
    KernelTask task = vectorTask({}, chip.vectorCoreCount);
    task.program = [tiles](const BlockProgramRequest& r) {  // each block its own cold GM range
        return std::make_unique<FixedInstructionStream>(
            streamLoads(tiles, std::uint64_t{r.blockIdx} * tiles * kTileBytes, 1));
    };
    device.submit(std::move(task), 0);
    device.runUntilIdle();
    ASSERT_EQ(observer.results.size(), 1u);
    double peak = 0.0;
    for (const PathTiming& p : chip.paths)
        if (p.src == MemSpace::GM && p.dst == MemSpace::UB) peak = p.peakBytesPerCycle;
    ASSERT_GT(peak, 0.0);
    for (const BlockResult& b : observer.results[0].blocks) {
        const PmuCounters& c = b.counters;
        const double movingShare =
            static_cast<double>(tiles) * kTileBytes / peak / static_cast<double>(c.totalCycles);
        EXPECT_LT(movingShare, 0.1) << "the stream must be HBM-bound for this test";
        EXPECT_GT(ratio(c, PmuEvent::Mte2Busy), 0.9);
        EXPECT_LE(c[PmuEvent::Mte2Busy], c.totalCycles);
    }
}

// One isolated load: busy = its whole round trip, though its bytes alone move in a few cycles
// (the hardware's one-block kernels: a 512 B load is busy ~190 cycles, Qwen3 rank 0 Cast [128]).
TEST(MteBusyCounting, IsolatedLoadCountsItsRoundTrip) {
    DeviceRun run;
    run.memory.latencyPs = 300'000;  // 300 cycles at the test chip's 1 GHz
    const PmuCounters c = onlyBlock(run.runOne(vectorTask({gmToUb(0, 512, 0x4000)})));
    EXPECT_EQ(c[PmuEvent::Mte2Busy], 300u);  // 512 B alone: 8 cycles at 64 B/cycle
}

// A Cast-like stream on every vector core: load a tile, one vector op, store half of it to the
// core's own output range. The same program with the outputs fitting the L2 and written far past
// it: past it, each store evicts dirty lines and waits its turn at HBM (docs/fidelity.md §60), so
// MTE3 busy grows while MTE2 stays in flight (real Qwen3 rank 0 Cast fp32 -> bf16: MTE3 0.38-0.42
// on [2097152]-[6291456], 0.56-0.665 on [77791232] and [151936,1024], MTE2 0.92-1.00 on both).
TEST(MteBusyCounting, StoresPastTheL2WaitTheirTurnAtHbm) {
    const int tiles = 24;
    constexpr std::uint32_t kStoreBytes = kTileBytes / 2;
    auto mteShares = [&](std::uint64_t l2Bytes) {
        ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
        chip.hbm.bandwidthGBps = 200.0;  // HBM-bound, as in HbmBoundStreamCountsEveryCycleInFlight
        chip.l2.sizeBytes = l2Bytes;
        FreshSimulationContext context;
        RecordingObserver observer;
        Device device(chip, observer);
        KernelTask task = vectorTask({}, chip.vectorCoreCount);
        task.program = [tiles](const BlockProgramRequest& r) {
            const std::uint64_t in = std::uint64_t{r.blockIdx} * tiles * kTileBytes;
            const std::uint64_t out = (std::uint64_t{1} << 32) + std::uint64_t{r.blockIdx} * tiles * kStoreBytes;
            return std::make_unique<FixedInstructionStream>(loadComputeStoreStream(in, out, tiles, kTileBytes, kStoreBytes));
        };
        device.submit(std::move(task), 0);
        device.runUntilIdle();
        EXPECT_EQ(observer.results.size(), 1u);
        double mte2 = 0.0;
        double mte3 = 0.0;
        const auto& blocks = observer.results.at(0).blocks;
        for (const BlockResult& b : blocks) {
            mte2 += ratio(b.counters, PmuEvent::Mte2Busy) / static_cast<double>(blocks.size());
            mte3 += ratio(b.counters, PmuEvent::Mte3Busy) / static_cast<double>(blocks.size());
        }
        return std::make_pair(mte2, mte3);
    };
    // 40 cores x 24 tiles: 15 MiB read, 7.5 MiB written. Fits: a 96 MiB L2. Past: a 1 MiB L2
    // (16 ways x 512 B lines x 128 sets), full of the stream's own dirty output after a few tiles.
    const auto [fitsMte2, fitsMte3] = mteShares(std::uint64_t{96} << 20);
    const auto [pastMte2, pastMte3] = mteShares(std::uint64_t{1} << 20);
    EXPECT_GT(fitsMte2, 0.85);
    EXPECT_GT(pastMte2, 0.85);
    EXPECT_GT(pastMte3, fitsMte3 * 1.3) << "fits " << fitsMte3 << ", past " << pastMte3;
}

// A tile with more vector instructions than the vector queue holds: the scalar unit stalls on
// the full queue until the vector pipe drains it, which it cannot start before the tile's load
// lands, so the next load is issued late and MTE2 idles between tiles. The hardware's HBM-bound
// kernels with long vector tiles keep MTE2 in flight (ApplyAdamWV2 aiv_mte2_ratio 0.95-0.99 with
// ~22 vector instructions a tile; SwiGluGrad 0.94): the shipped queue holds such a tile.
TEST(MteBusyCounting, VectorQueueHoldsALongTileSoLoadsStayInFlight) {
    const int vectorOps = 22;
    const int tiles = 16;
    auto mte2Share = [&](std::uint32_t depth) {
        ChipConfig chip = deviceTestChip();
        chip.queueDepth[pipeIndex(Pipe::Vector)] = depth;
        DeviceRun run(chip);
        run.memory.latencyPs = 2'000'000;  // 2000 cycles: loads are the bottleneck
        // 64 repeats: 67 cycles a vadds, ~1500 a tile: less than a load, so loads are the limit.
        return ratio(onlyBlock(run.runOne(vectorTask(streamLoads(tiles, 0, vectorOps, 64)))), PmuEvent::Mte2Busy);
    };
    const double shallow = mte2Share(8);
    EXPECT_LT(shallow, 0.8) << "loads wait for the vector pipe to drain the queue";
    const ChipConfig shipped = loadChipByName("Ascend910B1", defaultConfigDir());
    const std::uint32_t shippedDepth = shipped.queueDepth[pipeIndex(Pipe::Vector)];
    EXPECT_GE(shippedDepth, static_cast<std::uint32_t>(vectorOps + 2));  // + the tile's wait and set
    // In flight but for the first issue and the last tile's vector work (16 x 2000 of ~33600 cycles).
    EXPECT_GT(mte2Share(shippedDepth), 0.94);
}

}  // namespace
}  // namespace ascendsim::test
