// TransData of a 32-bit weight between NCHW and FRACTAL_Z (C0 = 8) as CANN's vnchwconv loop runs
// it (docs/fidelity.md §48): per unit of 16 output channels × one C0 block × a run of taps, a
// move per channel line, two vnchwconvs around one UB → UB move per channel (one 64 B burst per
// tap), one strided store of fractal rows, one buffer, and the scalar unit's cost per burst, each
// unit's scalar work behind the previous unit's moves (§98).
#include <gtest/gtest.h>

#include <variant>

#include "models/kernels/tiling/vector_tiling.h"
#include "tests/models/kernels/test_chip.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kLoopGmBytes = 8ull << 20;

struct ZLoopProgram : BlockMoveCounts {
    std::uint64_t reorders = 0, reorderBursts = 0, transposes = 0;
    bool reorderBurstsAre64B = true;
    std::vector<std::uint32_t> loadBursts, storeBursts;  // bursts of every GM move
};

ZLoopProgram inspectLoop(const LoweredKernel& kernel) {
    ZLoopProgram p;
    forEachBlockInstruction(kernel, CoreKind::Vector, [&](const Instruction& instruction) {
        p.count(instruction);
        if (const auto* move = std::get_if<DataMove>(&instruction.operands)) {
            if (move->src == MemSpace::GM) p.loadBursts.push_back(move->burstCount);
            if (move->dst == MemSpace::GM) p.storeBursts.push_back(move->burstCount);
            if (move->src == MemSpace::UB && move->dst == MemSpace::UB) {
                ++p.reorders;
                p.reorderBursts += move->burstCount;
                p.reorderBurstsAre64B = p.reorderBurstsAre64B && move->burstBytes == 64;
            }
        } else if (const auto* v = std::get_if<VectorInstr>(&instruction.operands)) {
            if (v->op == VectorOp::NchwConv) ++p.transposes;
        }
    });
    return p;
}

// (co, c, h, w) of an NCHW [co, c, kh, kw] weight sits at [c1·K + tap][co/16][co%16][c%C0] of
// FRACTAL_Z; a C short of C1·C0 leaves zero channels.
std::vector<double> fractalZOf(const std::vector<float>& weight, std::int64_t co, std::int64_t c, std::int64_t k) {
    constexpr std::int64_t kC0 = 8;
    const std::int64_t c1 = (c + kC0 - 1) / kC0;
    std::vector<double> fz(static_cast<std::size_t>(c1 * k * co * kC0), 0.0);
    for (std::int64_t o = 0; o < co; ++o)
        for (std::int64_t ch = 0; ch < c; ++ch)
            for (std::int64_t t = 0; t < k; ++t)
                fz[static_cast<std::size_t>((((ch / kC0) * k + t) * (co / 16) + o / 16) * 16 * kC0 + o % 16 * kC0 + ch % kC0)] =
                    weight[static_cast<std::size_t>((o * c + ch) * k + t)];
    return fz;
}

// Both ways, on weights whose taps fit one vnchwconv line (3×3, 5×5), whose C leaves a padded C0
// block (the stem's C = 3), and whose 11×11 taps take two runs (96 + 25 on a 192 KiB UB).
TEST(VectorTransDataFractalZLoop, RoundTripsWeightsOfAnyTapCountAndPaddedChannels) {
    struct Case {
        std::int64_t co, c, kh, kw;
    };
    const ChipConfig chip = ascend910B1();
    for (const Case w : {Case{32, 24, 3, 3}, Case{16, 16, 5, 5}, Case{16, 3, 11, 11}, Case{32, 12, 11, 11}}) {
        const std::string name = std::to_string(w.co) + "," + std::to_string(w.c) + "," + std::to_string(w.kh) + "," +
                                 std::to_string(w.kw);
        CubeOpHarness h(chip, kLoopGmBytes);
        const std::int64_t k = w.kh * w.kw, c1 = (w.c + 7) / 8;
        const auto weight = h.tensor("w", {w.co, w.c, w.kh, w.kw}, DataType::Fp32);
        auto fz = h.tensor("fz", {c1 * k, w.co / 16, 16, 8}, DataType::Fp32);
        fz.format = TensorFormat::FractalZ;
        const auto back = h.tensor("back", {w.co, w.c, w.kh, w.kw}, DataType::Fp32);
        const auto values = h.fillRandom(weight);
        auto to = makeOp("TransData", {weight}, {fz});
        to.attrs["dst_format"] = std::string("FRACTAL_Z");
        h.run(to);
        expectNear(h.read(fz), fractalZOf(values, w.co, w.c, k), 0.0, 0.0, "NCHW → FRACTAL_Z " + name);
        auto from = makeOp("TransData", {fz}, {back});
        from.attrs["dst_format"] = std::string("NCHW");
        h.run(from);
        expectNear(h.read(back), std::vector<double>(values.begin(), values.end()), 0.0, 0.0, "FRACTAL_Z → NCHW " + name);
    }
}

// Both conversions of a [32, 24, 3, 3] weight: 2 groups of 16 output channels × 3 C0 blocks = 6
// units of 8 channels × 9 taps.
struct WeightConversions {
    OpInstance toFractal, fromFractal;
};

WeightConversions conversionsOf3x3Weight(CubeOpHarness& h) {
    const auto weight = h.tensor("w", {32, 24, 3, 3}, DataType::Fp32);
    auto fz = h.tensor("fz", {27, 2, 16, 8}, DataType::Fp32);
    fz.format = TensorFormat::FractalZ;
    WeightConversions c{makeOp("TransData", {weight}, {fz}), makeOp("TransData", {fz}, {weight})};
    c.toFractal.attrs["dst_format"] = std::string("FRACTAL_Z");
    c.fromFractal.attrs["dst_format"] = std::string("NCHW");
    return c;
}

TEST(VectorTransDataFractalZLoop, EachUnitReordersOneBurstPerChannelAndTapWithItsScalarCost) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, kLoopGmBytes);
    const auto [to, from] = conversionsOf3x3Weight(h);
    const auto forward = h.lower(to), backward = h.lower(from);
    ASSERT_EQ(forward.size(), 1u);
    ASSERT_EQ(backward.size(), 1u);
    const ZLoopProgram f = inspectLoop(forward[0]), b = inspectLoop(backward[0]);
    constexpr std::uint64_t kUnits = 6, kChannels = 8, kTaps = 9;
    // One GM move each side a unit: the 16 channel lines as 16 bursts (NCHW side), the 9 taps'
    // fractal rows as 9 bursts (FRACTAL_Z side).
    EXPECT_EQ(f.loads, kUnits);
    EXPECT_EQ(f.stores, kUnits);
    EXPECT_EQ(b.loads, kUnits);
    EXPECT_EQ(b.stores, kUnits);
    for (const ZLoopProgram* p : {&f, &b}) {
        const bool forwardWay = p == &f;  // loads the weight lines and stores fractal rows
        for (const std::uint32_t bursts : p->loadBursts) EXPECT_EQ(bursts, forwardWay ? 16u : kTaps);
        for (const std::uint32_t bursts : p->storeBursts) EXPECT_EQ(bursts, forwardWay ? kTaps : 16u);
        EXPECT_EQ(p->reorders, kUnits * kChannels);  // one UB → UB move per channel
        EXPECT_EQ(p->reorderBursts, kUnits * kChannels * kTaps);
        EXPECT_TRUE(p->reorderBurstsAre64B);
        EXPECT_EQ(p->transposes, kUnits * 2);  // vnchwconv into rows and back
        EXPECT_EQ(p->loadEvents, 1u);         // one buffer: every load hands on with one event
        // Every unit's scalar step carries the same cost per burst, far above a tile's bookkeeping.
        ASSERT_EQ(p->tileScalarCycles.size(), kUnits);
        const std::uint32_t extra = p->tileScalarCycles.front() - kScalarCyclesPerTile;
        EXPECT_GT(extra, 10 * kScalarCyclesPerTile);
        EXPECT_EQ(extra % (kChannels * kTaps), 0u);
        for (const std::uint32_t cycles : p->tileScalarCycles) EXPECT_EQ(cycles, p->tileScalarCycles.front());
    }
}

// TIK synchronises the loop body itself (§98): a unit's scalar work starts only once the previous
// unit's GM stores have landed, so scalar, V and the moves add up as on the real rows. Per block:
// every unit's scalar step after the block's first comes after a PIPE_ALL barrier that follows
// the previous unit's stores, both ways.
TEST(VectorTransDataFractalZLoop, EachUnitsScalarWorkWaitsForThePreviousUnitsStores) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, kLoopGmBytes);
    auto [to, from] = conversionsOf3x3Weight(h);
    to.blockDim = from.blockDim = 2;  // 3 units a block
    for (const OpInstance* op : {&to, &from}) {
        const auto kernels = h.lower(*op);
        ASSERT_EQ(kernels.size(), 1u);
        ASSERT_EQ(kernels[0].blockDim, 2u);
        for (std::uint32_t block = 0; block < kernels[0].blockDim; ++block) {
            // 'S' a unit's scalar step, 'G' a GM store, 'B' a PIPE_ALL barrier, in program order.
            std::string events;
            auto stream = kernels[0].program({block, CoreKind::Vector, 0, 0});
            std::vector<Instruction> chunk;
            while (stream->next(chunk)) {
                for (const Instruction& i : chunk) {
                    if (const auto* s = std::get_if<ScalarWork>(&i.operands)) {
                        if (s->cycles > kScalarCyclesPerTile) events += 'S';
                    } else if (const auto* m = std::get_if<DataMove>(&i.operands)) {
                        if (m->dst == MemSpace::GM) events += 'G';
                    } else if (const auto* b = std::get_if<Barrier>(&i.operands)) {
                        if (b->pipe == Pipe::All) events += 'B';
                    }
                }
                chunk.clear();
            }
            EXPECT_EQ(events, "SGBSGBSGB") << op->type << " to " << std::get<std::string>(op->attrs.at("dst_format"))
                                           << ", block " << block;
        }
    }
}

// §139h: the 910A's FRACTAL_Z (C0 = 16 fp32, 64 B) runs the same loop both ways (back to NCHW it
// ran as a two-pass permutation through the workspace): a fractal row is two vnchwconvs a tap,
// one per 32 B half of its lines. The values go and come back whatever the tap count and a C
// short of its C0 blocks (the stem's C = 3).
TEST(VectorTransDataFractalZLoop, CoupledChipsWideC0RoundTripsTheWeight) {
    struct Case {
        std::int64_t co, c, kh, kw;
    };
    constexpr std::int64_t kC0 = 16;
    const ChipConfig chip = coupledChip();
    for (const Case w : {Case{32, 32, 3, 3}, Case{16, 24, 5, 5}, Case{16, 3, 11, 11}, Case{48, 48, 1, 1}}) {
        const std::string name = std::to_string(w.co) + "," + std::to_string(w.c) + "," + std::to_string(w.kh) + "," +
                                 std::to_string(w.kw);
        CubeOpHarness h(chip, kLoopGmBytes);
        const std::int64_t k = w.kh * w.kw, c1 = (w.c + kC0 - 1) / kC0;
        auto fz = h.tensor("fz", {c1 * k, w.co / 16, 16, kC0}, DataType::Fp32);
        fz.format = TensorFormat::FractalZ;
        const auto back = h.tensor("back", {w.co, w.c, w.kh, w.kw}, DataType::Fp32);
        auto fzAgain = h.tensor("fz2", {c1 * k, w.co / 16, 16, kC0}, DataType::Fp32);
        fzAgain.format = TensorFormat::FractalZ;
        const auto values = h.fillRandom(fz);
        std::vector<double> expected(static_cast<std::size_t>(w.co * w.c * k));
        for (std::int64_t o = 0; o < w.co; ++o)
            for (std::int64_t ch = 0; ch < w.c; ++ch)
                for (std::int64_t t = 0; t < k; ++t)
                    expected[static_cast<std::size_t>((o * w.c + ch) * k + t)] = values[static_cast<std::size_t>(
                        (((ch / kC0) * k + t) * (w.co / 16) + o / 16) * 16 * kC0 + o % 16 * kC0 + ch % kC0)];
        auto from = makeOp("TransData", {fz}, {back});
        from.attrs["dst_format"] = std::string("NCHW");
        ASSERT_EQ(h.lower(from).size(), 1u) << name;  // one pass, no workspace
        h.run(from);
        expectNear(h.read(back), expected, 0.0, 0.0, "FRACTAL_Z (C0 16) → NCHW " + name);
        auto to = makeOp("TransData", {back}, {fzAgain});
        to.attrs["dst_format"] = std::string("FRACTAL_Z");
        ASSERT_EQ(h.lower(to).size(), 1u) << name;
        h.run(to);
        const auto again = h.read(fzAgain);
        // The real channels as they were; the padding channels of a short C are zeros.
        for (std::size_t i = 0; i < again.size(); ++i) {
            const bool real = static_cast<std::int64_t>(i / kC0 / 16 / static_cast<std::size_t>(w.co / 16) /
                                                        static_cast<std::size_t>(k)) * kC0 + static_cast<std::int64_t>(i % kC0) < w.c;
            ASSERT_EQ(again[i], real ? static_cast<double>(values[i]) : 0.0) << "NCHW → FRACTAL_Z (C0 16) " << name << " at " << i;
        }
    }
}

// One block's program alone (the coupled core's kind), as inspectLoop reads a whole launch.
ZLoopProgram inspectBlock(const LoweredKernel& kernel, std::uint32_t block, CoreKind kind) {
    LoweredKernel one = kernel;
    one.blockDim = 1;
    one.program = [&kernel, block, kind](const BlockProgramRequest&) { return kernel.program({block, kind, 0, 0}); };
    return inspectLoop(one);
}

// CANN's negative tiling and core split on the 910A's [256,256,3,3] way back: a 128-element line
// a half of UB holds takes 8 C1 blocks of the 9 block-aligned taps a unit (16 × 2 units); the
// 16 groups of output channels win the split, so 16 of the 32 blocks get two units each and the
// rest only their prologue. Each unit: one load of its 8 × 9 fractal rows, 2 × 1 + 1 vnchwconvs,
// 128 channel reorders of 9 bursts, one store of 16 lines; no per-burst scalar charge.
TEST(VectorTransDataFractalZLoop, CoupledChipsWideC0WayBackTakesCannsUnitsAndCoreSplit) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip, kLoopGmBytes);
    auto fz = h.tensor("fz", {144, 16, 16, 16}, DataType::Fp32);
    fz.format = TensorFormat::FractalZ;
    const auto weight = h.tensor("w", {256, 256, 3, 3}, DataType::Fp32);
    auto from = makeOp("TransData", {fz}, {weight});
    from.attrs["dst_format"] = std::string("NCHW");
    from.blockDim = 32;
    const auto kernels = h.lower(from);
    ASSERT_EQ(kernels.size(), 1u);
    ASSERT_EQ(kernels[0].blockDim, 32u);
    const CoreKind kind = vectorPlacement(chip).coreKind;
    std::uint32_t blocksWithWork = 0;
    for (std::uint32_t block = 0; block < 32; ++block) {
        const ZLoopProgram p = inspectBlock(kernels[0], block, kind);
        if (p.loads == 0) continue;
        ++blocksWithWork;
        EXPECT_EQ(p.loads, 2u) << block;
        EXPECT_EQ(p.stores, 2u) << block;
        for (const std::uint32_t bursts : p.loadBursts) EXPECT_EQ(bursts, 8u * 9u);
        for (const std::uint32_t bursts : p.storeBursts) EXPECT_EQ(bursts, 16u);
        EXPECT_EQ(p.reorders, 2u * 128u);
        EXPECT_EQ(p.reorderBursts, 2u * 128u * 9u);
        EXPECT_EQ(p.transposes, 2u * 3u);
        EXPECT_TRUE(p.tileScalarCycles.empty());  // a unit's scalar step is the tile's bookkeeping alone
    }
    EXPECT_EQ(blocksWithWork, 16u);
    // The way in (CANN's positive tiling, §96e): one C1 block a unit, the 16 groups tie with the 16
    // C1 blocks and win: 16 blocks with 16 units each, each unit's scalar 2 cycles a burst.
    auto to = makeOp("TransData", {weight}, {fz});
    to.attrs["dst_format"] = std::string("FRACTAL_Z");
    to.blockDim = 32;
    const auto in = h.lower(to);
    ASSERT_EQ(in.size(), 1u);
    std::uint32_t blocksLoading = 0;
    for (std::uint32_t block = 0; block < 32; ++block) {
        const ZLoopProgram p = inspectBlock(in[0], block, kind);
        if (p.loads == 0) continue;
        ++blocksLoading;
        EXPECT_EQ(p.loads, 16u) << block;
        EXPECT_EQ(p.reorders, 16u * 16u) << block;
        ASSERT_EQ(p.tileScalarCycles.size(), 16u) << block;  // the 910A's 2 cycles a burst, §96e
        for (const std::uint32_t cycles : p.tileScalarCycles) EXPECT_EQ(cycles - kScalarCyclesPerTile, 2u * 16u * 9u);
    }
    EXPECT_EQ(blocksLoading, 16u);
}

}  // namespace
}  // namespace ascendsim::test
