// TransferTiming reproduces every single-core measurement of hardware.md §1.3 within ±10 %
// (GiB/s at the 1.8 GHz the MSKPP tables were measured at), and its interpolation rules hold.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "models/timing/transfer_timing.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim {
namespace {

constexpr double kMeasuredClockHz = 1.8e9;  // hardware.md §1.3: MSKPP tables at 1.8 GHz
constexpr double kBytesPerGiB = 1073741824.0;

ChipConfig shippedChip(const std::string& name) {
    const char* src = std::getenv("ASCENDSIM_SOURCE_DIR");
    return loadChipByName(name, (std::filesystem::path(src ? src : ".") / "configs").string());
}

const ChipConfig& chip910B1() {
    static const ChipConfig chip = shippedChip("Ascend910B1");
    return chip;
}

// The 910B1 without its Load3D start (pipes.mte1_load3d_start_cycles): an img2col's bytes alone.
const ChipConfig& chip910B1WithoutLoad3dStart() {
    static const ChipConfig chip = [] {
        ChipConfig c = shippedChip("Ascend910B1");
        c.mte1Load3dStartCycles = 0;
        return c;
    }();
    return chip;
}

struct MeasuredPoint {
    MemSpace src, dst;
    LayoutConversion conversion;
    double kib;
    double gibPerSecond;
};

// hardware.md §1.3 table, every listed cell (GM->UB from the 910b3 table, per §6).
const MeasuredPoint kMeasured[] = {
    {MemSpace::GM, MemSpace::L1, LayoutConversion::None, 1, 9.9},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::None, 4, 29.3},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::None, 16, 93.2},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::None, 32, 147.4},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::None, 64, 176.3},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::None, 128, 232.5},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::None, 480, 281.0},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::Nd2Nz, 4, 8.8},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::Nd2Nz, 16, 34.6},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::Nd2Nz, 32, 70.1},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::Nd2Nz, 64, 133.3},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::Nd2Nz, 128, 191.2},
    {MemSpace::GM, MemSpace::L1, LayoutConversion::Nd2Nz, 192, 204.4},
    {MemSpace::GM, MemSpace::UB, LayoutConversion::None, 1, 7.9},
    {MemSpace::GM, MemSpace::UB, LayoutConversion::None, 4, 28.9},
    {MemSpace::GM, MemSpace::UB, LayoutConversion::None, 16, 91.6},
    {MemSpace::GM, MemSpace::UB, LayoutConversion::None, 32, 113.4},
    {MemSpace::GM, MemSpace::UB, LayoutConversion::None, 64, 147.1},
    {MemSpace::GM, MemSpace::UB, LayoutConversion::None, 128, 178.8},
    {MemSpace::GM, MemSpace::UB, LayoutConversion::None, 184, 189.9},
    {MemSpace::UB, MemSpace::GM, LayoutConversion::None, 1, 11.4},
    {MemSpace::UB, MemSpace::GM, LayoutConversion::None, 4, 37.9},
    {MemSpace::UB, MemSpace::GM, LayoutConversion::None, 16, 86.8},
    {MemSpace::UB, MemSpace::GM, LayoutConversion::None, 32, 108.4},
    {MemSpace::UB, MemSpace::GM, LayoutConversion::None, 64, 110.7},
    {MemSpace::UB, MemSpace::GM, LayoutConversion::None, 68, 110.7},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::None, 1, 20.8},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::None, 4, 85.8},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::None, 11, 211.4},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::None, 16, 203.2},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::None, 32, 201.3},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::None, 64, 196.5},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::None, 128, 196.8},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::Nz2Nd, 1, 18.6},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::Nz2Nd, 4, 75.1},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::Nz2Nd, 12, 212.6},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::Nz2Nd, 16, 199.4},
    {MemSpace::L0C, MemSpace::GM, LayoutConversion::Nz2Nd, 32, 197.2},
    {MemSpace::L1, MemSpace::L0A, LayoutConversion::None, 1, 286.9},
    {MemSpace::L1, MemSpace::L0A, LayoutConversion::None, 4, 389.9},
    {MemSpace::L1, MemSpace::L0A, LayoutConversion::None, 16, 427.3},
    {MemSpace::L1, MemSpace::L0A, LayoutConversion::None, 32, 434.0},
    {MemSpace::L1, MemSpace::L0A, LayoutConversion::None, 64, 437.6},
    {MemSpace::L1, MemSpace::L0B, LayoutConversion::None, 1, 174.1},
    {MemSpace::L1, MemSpace::L0B, LayoutConversion::None, 4, 206.9},
    {MemSpace::L1, MemSpace::L0B, LayoutConversion::None, 16, 217.0},
    {MemSpace::L1, MemSpace::L0B, LayoutConversion::None, 32, 218.8},
    {MemSpace::L1, MemSpace::L0B, LayoutConversion::None, 64, 219.6},
    {MemSpace::GM, MemSpace::L0A, LayoutConversion::None, 1, 8.0},
    {MemSpace::GM, MemSpace::L0A, LayoutConversion::None, 4, 30.4},
    {MemSpace::GM, MemSpace::L0A, LayoutConversion::None, 16, 106.3},
    {MemSpace::GM, MemSpace::L0A, LayoutConversion::None, 32, 139.8},
    {MemSpace::GM, MemSpace::L0A, LayoutConversion::None, 56, 183.8},
    {MemSpace::GM, MemSpace::L0A, LayoutConversion::None, 64, 178.5},
    {MemSpace::GM, MemSpace::L0B, LayoutConversion::None, 1, 8.6},
    {MemSpace::GM, MemSpace::L0B, LayoutConversion::None, 4, 31.3},
    {MemSpace::GM, MemSpace::L0B, LayoutConversion::None, 16, 83.5},
    {MemSpace::GM, MemSpace::L0B, LayoutConversion::None, 32, 120.0},
    {MemSpace::GM, MemSpace::L0B, LayoutConversion::None, 58, 156.4},
    {MemSpace::GM, MemSpace::L0B, LayoutConversion::None, 64, 153.9},
    {MemSpace::UB, MemSpace::UB, LayoutConversion::None, 1, 436.7},
    {MemSpace::UB, MemSpace::UB, LayoutConversion::None, 60, 441.0},
    {MemSpace::L1, MemSpace::BiasTable, LayoutConversion::None, 1, 55.1},
    {MemSpace::L1, MemSpace::FixpipeBuffer, LayoutConversion::None, 1, 37.5},
};

DataMove moveOf(MemSpace src, MemSpace dst, std::uint64_t bytes,
                LayoutConversion conversion = LayoutConversion::None) {
    DataMove move;
    move.src = src;
    move.dst = dst;
    move.burstCount = 1;
    move.burstBytes = static_cast<std::uint32_t>(bytes);
    move.conversion = conversion;
    return move;
}

TEST(TransferTiming, ReproducesEveryMeasuredPointOfHardwareSection1_3WithinTenPercent) {
    const TransferTiming timing(chip910B1());
    for (const MeasuredPoint& point : kMeasured) {
        const auto bytes = static_cast<std::uint64_t>(point.kib * 1024);
        const std::uint64_t cycles =
            timing.cycles(moveOf(point.src, point.dst, bytes, point.conversion));
        const double modelGiBps = bytes / (cycles / kMeasuredClockHz) / kBytesPerGiB;
        EXPECT_NEAR(modelGiBps / point.gibPerSecond, 1.0, 0.10)
            << memSpaceName(point.src) << "->" << memSpaceName(point.dst) << " " << point.kib
            << " KiB: model " << modelGiBps << " GiB/s vs measured " << point.gibPerSecond;
    }
}

TEST(TransferTiming, GmToL1PerTransferCyclesMatchTheBackToBackList) {
    const TransferTiming timing(chip910B1());
    const std::pair<std::uint64_t, double> perTransfer[] = {
        {1024, 173}, {2048, 192}, {4096, 234}, {8192, 237}, {16384, 295}, {32768, 373},
        {65536, 623}, {131072, 945}};
    for (const auto& [bytes, cycles] : perTransfer) {
        EXPECT_NEAR(timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, bytes)), cycles, 1.0) << bytes;
    }
}

TEST(TransferTiming, InterpolatesLinearlyBetweenPoints) {
    const TransferTiming timing(chip910B1());
    // Half way between 64 KiB (623.2) and 128 KiB (945.1): 784.15 → 785.
    EXPECT_EQ(timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, 98304)), 785u);
}

TEST(TransferTiming, ExtendsPastTheLastPointAtThePeakRate) {
    const TransferTiming timing(chip910B1());
    const std::uint64_t last = timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, 491520));
    const std::uint64_t beyond = timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, 491520 + 167600));
    EXPECT_NEAR(static_cast<double>(beyond - last), 1000.0, 1.0);
}

TEST(TransferTiming, BelowTheFirstPointKeepsTheFixedCost) {
    const TransferTiming timing(chip910B1());
    const std::uint64_t tiny = timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, 32));
    EXPECT_GT(tiny, 150u);  // a 32 B GM read still pays the request cost (~154-cycle intercept)
    EXPECT_LT(tiny, timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, 1024)));
    EXPECT_GE(timing.cycles(moveOf(MemSpace::L1, MemSpace::L0A, 0)), 1u);
}

TEST(TransferTiming, BurstLayoutCostsItsTotalBytes) {
    const TransferTiming timing(chip910B1());
    DataMove bursts = moveOf(MemSpace::GM, MemSpace::L1, 1024);
    bursts.burstCount = 64;
    bursts.srcGapBytes = 512;
    EXPECT_EQ(timing.cycles(bursts), timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, 65536)));
}

TEST(TransferTiming, Nd2NzIsSlowerThanAPlainMove) {
    const TransferTiming timing(chip910B1());
    for (std::uint64_t bytes : {4096u, 32768u, 131072u}) {
        EXPECT_GT(timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, bytes, LayoutConversion::Nd2Nz)),
                  timing.cycles(moveOf(MemSpace::GM, MemSpace::L1, bytes)));
    }
}

TEST(TransferTiming, ConversionWithoutACurveUsesTheSlowdown) {
    ChipConfig chip = chip910B1();
    PathTiming* path = nullptr;
    for (auto& p : chip.paths)
        if (p.src == MemSpace::GM && p.dst == MemSpace::UB) path = &p;
    ASSERT_NE(path, nullptr);
    path->conversionSlowdown = 2.0;
    const TransferTiming timing(chip);
    const auto plain = timing.cycles(moveOf(MemSpace::GM, MemSpace::UB, 65536));
    const auto converted =
        timing.cycles(moveOf(MemSpace::GM, MemSpace::UB, 65536, LayoutConversion::Nd2Nz));
    EXPECT_NEAR(static_cast<double>(converted), 2.0 * plain, 2.0);
}

TEST(TransferTiming, UnknownPathThrows) {
    const TransferTiming timing(chip910B1());
    EXPECT_THROW(timing.cycles(moveOf(MemSpace::L0C, MemSpace::UB, 1024)), std::invalid_argument);
}

TEST(TransferTiming, Img2ColCostsItsOutputAtTheL1ToL0aRate) {
    const TransferTiming timing(chip910B1WithoutLoad3dStart());
    Img2ColLoad load;
    load.m = 64;
    load.k = 256;  // 64 x 256 fp16 = 32 KiB written into L0A
    EXPECT_EQ(timing.cycles(load), timing.cycles(moveOf(MemSpace::L1, MemSpace::L0A, 32768)));
}

// Load3D gathers a 32 B C0 vector per position and tap out of ~256 B L1 lines: output positions
// strideW vectors apart cost strideW times the stride-1 rate, up to one vector per line (8×).
TEST(TransferTiming, Img2ColOfAStridedWindowUsesAFractionOfEachL1Line) {
    const TransferTiming timing(chip910B1WithoutLoad3dStart());
    Img2ColLoad load;
    load.m = 64;
    load.k = 256;
    const std::uint64_t dense = timing.cycles(load);
    load.strideW = 4;
    EXPECT_NEAR(static_cast<double>(timing.cycles(load)), 4.0 * dense, 0.01 * 4.0 * dense);
    load.strideW = 32;  // past the line: one useful vector per line read
    EXPECT_NEAR(static_cast<double>(timing.cycles(load)), 261.0 / 32.0 * dense, 0.01 * 261.0 / 32.0 * dense);
}

// An Img2Col the chip writes into L0B (Img2ColLoad::chipDst: the filter gradient's x) is bounded
// by L0B's write rate, half L0A's on the 910B (the L1 -> L0B curve); a strided window still pays
// its L1 reads when they are the longer side. The model's L0B destination alone (`dst`, the
// mirrored forward product) keeps the L0A rate.
TEST(TransferTiming, Img2ColIntoTheChipsL0bTakesTheL0bWriteRate) {
    const TransferTiming timing(chip910B1WithoutLoad3dStart());
    Img2ColLoad load;
    load.m = 64;
    load.k = 256;  // 32 KiB of fp16
    load.dst = MemSpace::L0B;
    const std::uint64_t mirrored = timing.cycles(load);
    EXPECT_EQ(mirrored, timing.cycles(moveOf(MemSpace::L1, MemSpace::L0A, 32768)));
    load.chipDst = MemSpace::L0B;
    const std::uint64_t l0b = timing.cycles(moveOf(MemSpace::L1, MemSpace::L0B, 32768));
    EXPECT_EQ(timing.cycles(load), l0b);
    EXPECT_NEAR(static_cast<double>(l0b), 2.0 * mirrored, 0.02 * 2.0 * mirrored);
    load.strideW = 4;  // 4x the L0A rate's reads outlast L0B's writes
    EXPECT_NEAR(static_cast<double>(timing.cycles(load)), 4.0 * mirrored, 0.01 * 4.0 * mirrored);
}

// A Load3D the model issues as the chip does (dst = chipDst: the filter gradient's x into L0B, its
// fp32 dy into L0A) pays the chip's start once on top of its bytes: CANN's cube cache tiling's
// k1971Mte1Load3dCost = 42 (ops-nn cube/constants/constants_define.h, cycle_calculator.cc
// GetMte1BCycle / GetMte1ACycle), the 910B parts' pipes.mte1_load3d_start_cycles; the img2cols the
// model holds transposed (in L0B where the chip's is in L0A: the forward and input-gradient
// convolutions) keep their bytes' cost (measured, docs/fidelity.md §151g, §161); the 910A has no
// source and keeps none.
TEST(TransferTiming, ALoad3dIssuedAsTheChipsPaysTheLoad3dStartOnce) {
    const TransferTiming bytesOnly(chip910B1WithoutLoad3dStart());
    const TransferTiming shipped(chip910B1());
    EXPECT_EQ(chip910B1().mte1Load3dStartCycles, 42u);
    EXPECT_EQ(shippedChip("Ascend910B2").mte1Load3dStartCycles, 42u);
    EXPECT_EQ(shippedChip("Ascend910").mte1Load3dStartCycles, 0u);
    Img2ColLoad load;
    load.m = 64;
    load.k = 256;
    load.dst = load.chipDst = MemSpace::L0B;
    EXPECT_EQ(shipped.cycles(load), bytesOnly.cycles(load) + 42u);
    load.dst = load.chipDst = MemSpace::L0A;
    EXPECT_EQ(shipped.cycles(load), bytesOnly.cycles(load) + 42u);
    load.dst = MemSpace::L0B;  // the transposed stand-in for the chip's L0A Load3D
    EXPECT_EQ(shipped.cycles(load), bytesOnly.cycles(load));
}

// A transposing Load3Dv2 (DataMove::gathersC0Vectors, the fp32 input gradient's weights) reads one
// C0 vector per L1 line whichever L0 it writes: its bytes at the widest-stride Img2Col's rate, about
// 8x a plain L1 -> L0A move, with the path's fixed start paid once (docs/fidelity.md §143), so a
// small gather costs less than the widest Img2Col of its bytes; a GM source cannot gather.
TEST(TransferTiming, AMoveThatGathersC0VectorsCostsOneVectorPerL1Line) {
    const TransferTiming timing(chip910B1());
    DataMove move = moveOf(MemSpace::L1, MemSpace::L0A, 32768);
    const std::uint64_t plain = timing.cycles(move);
    move.gathersC0Vectors = true;
    Img2ColLoad widest;
    widest.m = 64;
    widest.k = 256;  // 32 KiB of fp16
    widest.strideW = 32;
    const std::uint64_t gathered = timing.cycles(move);
    EXPECT_LT(gathered, timing.cycles(widest));
    EXPECT_NEAR(static_cast<double>(gathered), 32768.0 / 32.0, 0.01 * 32768.0 / 32.0);  // a vector a cycle
    EXPECT_NEAR(static_cast<double>(gathered), 261.0 / 32.0 * plain, 0.02 * 261.0 / 32.0 * plain);
    move.dst = MemSpace::L0B;  // the L0B side is charged at the same Load3D rate
    EXPECT_EQ(timing.cycles(move), gathered);
    DataMove small = moveOf(MemSpace::L1, MemSpace::L0A, 1024);
    small.gathersC0Vectors = true;
    const std::uint64_t fixedStart = timing.cycles(moveOf(MemSpace::L1, MemSpace::L0A, 1024)) - 1024 / 261;
    EXPECT_LE(timing.cycles(small), 1024u / 32u + fixedStart + 1u);
    move.src = MemSpace::GM;
    move.dst = MemSpace::L1;
    EXPECT_THROW(timing.cycles(move), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim

namespace ascendsim {
namespace {

// paths[].dtype_conversion_bytes_per_cycle bounds a move that changes the element type (FixPipe
// fp32 -> bf16), and only such a move; without the key the curve alone applies.
TEST(TransferTiming, DtypeConversionRateBoundsOnlyConvertingMoves) {
    ChipConfig chip = chip910B1();
    DataMove store;
    store.src = MemSpace::L0C;
    store.dst = MemSpace::GM;
    store.burstCount = 128;
    store.burstBytes = 256 * 4;  // a 128 x 256 fp32 tile: 128 KiB of L0C
    store.srcType = DataType::Fp32;
    store.dstType = DataType::Bf16;
    store.conversion = LayoutConversion::Nz2Nd;
    // The shipped Ascend910B1.yaml sets the key (22): clear it for the curve-only cost.
    const auto setRate = [&chip](double rate) {
        for (PathTiming& path : chip.paths)
            if (path.src == MemSpace::L0C && path.dst == MemSpace::GM) path.dtypeConversionBytesPerCycle = rate;
    };
    setRate(0.0);
    const std::uint64_t curveOnly = TransferTiming(chip).cycles(store);
    setRate(22.0);
    const TransferTiming timing(chip);
    EXPECT_EQ(timing.cycles(store), static_cast<std::uint64_t>(std::ceil(131072 / 22.0)));
    EXPECT_GT(timing.cycles(store), curveOnly);
    store.dstType = DataType::Fp32;  // no precision conversion: the NZ2ND curve as before
    EXPECT_EQ(timing.cycles(store), curveOnly);
}

// FixPipe's channel split (DataMove::fixpipeChannelSplit, CANN's fp32 convolution stores) writes one
// 32 B C0 vector a cycle: a 64 KiB fp32 tile takes 2048 cycles where the NZ2ND curve is faster, and a
// store the curve makes slower keeps the curve; only an L0C store may split.
TEST(TransferTiming, AChannelSplitStoreWritesOneC0VectorACycle) {
    const TransferTiming timing(chip910B1());
    DataMove store;
    store.src = MemSpace::L0C;
    store.dst = MemSpace::GM;
    store.burstCount = 128;
    store.burstBytes = 128 * 4;  // a 128 x 128 fp32 tile: 64 KiB
    store.srcType = store.dstType = DataType::Fp32;
    store.conversion = LayoutConversion::Nz2Nd;
    const std::uint64_t curve = timing.cycles(store);
    ASSERT_LT(curve, 2048u);
    store.fixpipeChannelSplit = true;
    EXPECT_EQ(timing.cycles(store), 2048u);
    store.burstCount = 1;
    store.burstBytes = 32;  // one vector: the curve's fixed cost is the larger
    const std::uint64_t oneVector = timing.cycles(store);
    store.fixpipeChannelSplit = false;
    EXPECT_EQ(oneVector, timing.cycles(store));
    EXPECT_GT(oneVector, 1u);
    store.fixpipeChannelSplit = true;
    store.src = MemSpace::UB;
    EXPECT_THROW(timing.cycles(store), std::invalid_argument);
}

// paths[].burst_cycles: a UB -> UB copy of many 64 B bursts (CANN's per-channel reorder in the
// TransData vnchwconv loop, docs/fidelity.md §48) pays the per-burst cost for every burst after
// its first on top of its bytes' curve; the same bytes in one burst pay the curve alone (what the
// measured points are), and a path without the key never pays it.
TEST(TransferTiming, BurstCyclesChargeEveryBurstOfAMove) {
    ChipConfig chip = chip910B1();
    const auto setBurst = [&chip](double cycles) {
        for (PathTiming& path : chip.paths)
            if (path.src == MemSpace::UB && path.dst == MemSpace::UB) path.burstCycles = cycles;
    };
    DataMove scattered{.src = MemSpace::UB, .dst = MemSpace::UB, .srcType = DataType::Fp32, .dstType = DataType::Fp32};
    scattered.burstCount = 9, scattered.burstBytes = 64, scattered.dstGapBytes = 7 * 64;
    DataMove whole = scattered;
    whole.burstCount = 1, whole.burstBytes = 9 * 64, whole.dstGapBytes = 0;
    setBurst(0.0);
    const std::uint64_t curveOnly = TransferTiming(chip).cycles(whole);
    EXPECT_EQ(TransferTiming(chip).cycles(scattered), curveOnly);
    setBurst(14.0);
    const TransferTiming timing(chip);
    EXPECT_EQ(timing.cycles(scattered), curveOnly + 8 * 14);
    EXPECT_EQ(timing.cycles(whole), curveOnly);
}

// The curves were measured as moves of 1 KiB bursts (MSKPP), so a 60 KiB copy cut into 1 KiB
// bursts is the measured point itself and pays no burst cost; 2 KiB cut into 64 B bursts pays for
// the 32 - 2 bursts beyond the two measured pieces.
TEST(TransferTiming, BurstCyclesChargeOnlyBurstsShorterThanTheMeasuredOnes) {
    ChipConfig chip = chip910B1();
    for (PathTiming& path : chip.paths)
        if (path.src == MemSpace::UB && path.dst == MemSpace::UB) path.burstCycles = 14.0;
    DataMove measured{.src = MemSpace::UB, .dst = MemSpace::UB, .srcType = DataType::Fp32, .dstType = DataType::Fp32};
    measured.burstCount = 60, measured.burstBytes = kMeasuredBurstBytes;
    DataMove oneBurst = measured;
    oneBurst.burstCount = 1, oneBurst.burstBytes = 60 * kMeasuredBurstBytes;
    const TransferTiming timing(chip);
    EXPECT_EQ(timing.cycles(measured), timing.cycles(oneBurst));
    DataMove shortBursts = measured;
    shortBursts.burstCount = 32, shortBursts.burstBytes = 64, shortBursts.dstGapBytes = 64;
    DataMove twoPieces = shortBursts;
    twoPieces.burstCount = 2, twoPieces.burstBytes = 1024, twoPieces.dstGapBytes = 0;
    EXPECT_EQ(timing.cycles(shortBursts), timing.cycles(twoPieces) + 30 * 14);
}

// paths[].padded_burst_cycles (docs/fidelity.md §74, §104): on the shipped 910B parts and the 910A
// a GM <-> UB move of rows that are not whole 32 B blocks (AlexNet's 676 B fp32 13 x 13 planes,
// padded to 704 B in UB) pays the per-burst cost for every row after its first, in both
// directions; the same rows padded to whole blocks, the same bytes in one run, and a one-burst
// move pay the curve alone.
TEST(TransferTiming, PaddedBurstsPayTheirIssueOnTheGmPathsOfThe910BAndThe910A) {
    for (const char* name : {"Ascend910B1", "Ascend910"}) {
        const ChipConfig chip = shippedChip(name);
        const TransferTiming timing(chip);
        for (const auto& [src, dst] : {std::pair{MemSpace::GM, MemSpace::UB}, std::pair{MemSpace::UB, MemSpace::GM}}) {
            const PathTiming* path = chip.findPath(src, dst);
            ASSERT_NE(path, nullptr);
            ASSERT_GT(path->paddedBurstCycles, 0.0) << name << " " << pathName(src, dst);
            const auto perBurst = static_cast<std::uint64_t>(std::ceil(path->paddedBurstCycles));
            DataMove rows{.src = src, .dst = dst, .srcType = DataType::Fp32, .dstType = DataType::Fp32};
            rows.burstCount = 64, rows.burstBytes = 676;
            (src == MemSpace::UB ? rows.srcGapBytes : rows.dstGapBytes) = 704 - 676;  // the UB side's padding
            DataMove oneRun = rows;
            oneRun.burstCount = 1, oneRun.burstBytes = 64 * 676, oneRun.srcGapBytes = oneRun.dstGapBytes = 0;
            EXPECT_EQ(timing.cycles(rows), timing.cycles(oneRun) + 63 * perBurst) << pathName(src, dst);
            DataMove wholeBlocks = rows;  // 672 B rows, 32 B apart: whole-block bursts stream
            wholeBlocks.burstBytes = 672;
            (src == MemSpace::UB ? wholeBlocks.srcGapBytes : wholeBlocks.dstGapBytes) = 32;
            DataMove wholeRun = oneRun;
            wholeRun.burstBytes = 64 * 672;
            EXPECT_EQ(timing.cycles(wholeBlocks), timing.cycles(wholeRun)) << pathName(src, dst);
            DataMove contiguous = rows;  // unpadded rows back to back are one run
            contiguous.srcGapBytes = contiguous.dstGapBytes = 0;
            EXPECT_EQ(timing.cycles(contiguous), timing.cycles(oneRun)) << pathName(src, dst);
        }
    }
}

}  // namespace
}  // namespace ascendsim
