// TBE's GEMM kernel in CANN's unaligned pattern (M or N not whole 16-element fractal edges, K not whole
// fractal rows: 8 fp32, 16 other elements) moves its operands L1 → L0 one 512 B fractal per instruction
// (matmul_fractal_loads.h, docs/fidelity.md §132), in steps of whole 512 B L0 rows; aligned shapes keep
// their block or column loads; the product is unchanged. Only the operands with an edge off the
// fractal, or an fp32 operand TBE's schedule moves by img2col, move by fractals, and the kernel runs
// its tiles one after another (docs/fidelity.md §158).
#include <gtest/gtest.h>

#include "models/kernels/cube/matmul/matmul_fractal_loads.h"
#include "models/kernels/cube/matmul/matmul_tbe_kernel.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kFractalMoveIssueCycles = 29;  // the shipped 910B parts' scalar_cycles_per_instruction_aic

ChipConfig fractalMovesChip() {
    ChipConfig chip = ascend910B1();
    chip.scalarCyclesPerInstructionAic = kFractalMoveIssueCycles;
    return chip;
}

// Block 0's AIC program: its mmads, its L1 → L0A / L0B moves (count, bytes, the largest) and the
// scalar work that stands for fractal moves not issued on their own (a multiple of the issue cost).
struct L0Loads {
    std::uint64_t mmads = 0, aLoads = 0, bLoads = 0, aBytes = 0, bBytes = 0, largest = 0, scalarIssueCycles = 0;
    std::uint64_t largestA = 0, largestB = 0, stores = 0, barriersAfterStores = 0;
};
L0Loads l0LoadsOf(const LoweredKernel& kernel) {
    L0Loads out;
    for (const Instruction& instruction : blockProgram(kernel, 0, CoreKind::Cube)) {
        if (instruction.opcode == Opcode::Mmad) ++out.mmads;
        if (const auto* move = std::get_if<DataMove>(&instruction.operands); move != nullptr && move->src == MemSpace::L1) {
            if (move->dst == MemSpace::L0A) ++out.aLoads, out.aBytes += move->totalBytes();
            if (move->dst == MemSpace::L0B) ++out.bLoads, out.bBytes += move->totalBytes();
            if (move->dst == MemSpace::L0A || move->dst == MemSpace::L0B)
                out.largest = std::max(out.largest, move->totalBytes());
            if (move->dst == MemSpace::L0A) out.largestA = std::max(out.largestA, move->totalBytes());
            if (move->dst == MemSpace::L0B) out.largestB = std::max(out.largestB, move->totalBytes());
        }
        if (const auto* move = std::get_if<DataMove>(&instruction.operands); move != nullptr && move->src == MemSpace::L0C)
            ++out.stores;
        if (instruction.opcode == Opcode::Barrier && out.stores > out.barriersAfterStores) ++out.barriersAfterStores;
        const auto* work = std::get_if<ScalarWork>(&instruction.operands);
        if (instruction.opcode == Opcode::Scalar && work != nullptr && work->cycles >= kFractalMoveIssueCycles &&
            work->cycles % kFractalMoveIssueCycles == 0)
            out.scalarIssueCycles += work->cycles;
    }
    return out;
}

// dy [k, m]ᵀ · x [k, n]: a weight gradient (A stored transposed, B stored K × n).
OpInstance weightGradientOp(CubeOpHarness& h, DataType dtype, std::int64_t m, std::int64_t n, std::int64_t k) {
    auto op = makeOp("MatMul", {h.tensor("dy", {k, m}, dtype), h.tensor("x", {k, n}, dtype)},
                     {h.tensor("dw", {m, n}, dtype)});
    op.attrs["transpose_a"] = true;
    op.blockDim = 1;
    return op;
}

// The L1 → L0 loads of an fp32 weight gradient marked TBE's kernel, on one block.
L0Loads tbeFp32WeightGradientLoads(std::int64_t m, std::int64_t n, std::int64_t k) {
    const auto chip = fractalMovesChip();
    CubeOpHarness h(chip, 8 << 20);
    auto op = weightGradientOp(h, DataType::Fp32, m, n, k);
    op.attrs[kTbeKernelAttr] = true;
    return l0LoadsOf(h.lower(op).at(0));
}

MatmulProblem problemOf(std::uint64_t m, std::uint64_t n, std::uint64_t k, DataType dtype) {
    MatmulProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.inputType = dtype;
    return p;
}

TEST(CubeMatMulFractalLoads, CannsUnalignedPatternIsAnyEdgeOffTheFractal) {
    EXPECT_FALSE(runsCannUnalignedPattern(problemOf(32, 4096, 4096, DataType::Fp32)));  // fc7
    EXPECT_TRUE(runsCannUnalignedPattern(problemOf(32, 1000, 4096, DataType::Fp32)));   // fc8 forward: N
    EXPECT_TRUE(runsCannUnalignedPattern(problemOf(1000, 4096, 32, DataType::Fp32)));   // its weight gradient: M
    EXPECT_FALSE(runsCannUnalignedPattern(problemOf(32, 4096, 1000, DataType::Fp32)));  // dX fc8: 125 fp32 rows
    EXPECT_TRUE(runsCannUnalignedPattern(problemOf(32, 4096, 1000, DataType::Fp16)));   // 62.5 fp16 rows
    EXPECT_TRUE(runsCannUnalignedPattern(problemOf(32, 4096, 36, DataType::Fp32)));
}

TEST(CubeMatMulFractalLoads, StepDepthIsWholeL0Rows) {
    EXPECT_EQ(wholeL0RowsStepDepth(160, DataType::Fp32), 128u);  // fc8 forward: CANN's k_l0 of 16 fractals
    EXPECT_EQ(wholeL0RowsStepDepth(256, DataType::Fp32), 256u);
    EXPECT_EQ(wholeL0RowsStepDepth(96, DataType::Fp32), 96u);  // shallower than a row: kept
    EXPECT_EQ(wholeL0RowsStepDepth(320, DataType::Fp16), 256u);
}

// fc8 forward in miniature: x [32, 512] · w [40, 512]ᵀ fp32 on one block (N = 40 unaligned): 128-deep
// steps, every L1 → L0 move one 512 B fractal, as many as the blocks hold (A 32 × 128, B 40 × 128
// fp32 a step), none charged as scalar work.
TEST(CubeMatMulFractalLoads, UnalignedSkinnyFp32GemmMovesEachFractal) {
    const auto chip = fractalMovesChip();
    CubeOpHarness h(chip, 4 << 20);
    const L0Loads loads = l0LoadsOf(h.lower(linearForwardOp(h, DataType::Fp32, 32, 40, 512)).at(0));
    EXPECT_EQ(loads.mmads, 512u / 128u);
    EXPECT_EQ(loads.largest, 512u);
    EXPECT_EQ(loads.aBytes, 32u * 512u * 4u);
    EXPECT_EQ(loads.bBytes, 40u * 512u * 4u);
    EXPECT_EQ(loads.aLoads, loads.aBytes / 512u);
    EXPECT_EQ(loads.bLoads, loads.bBytes / 512u);
    EXPECT_EQ(loads.scalarIssueCycles, 0u);
}

// Which operands move by fractals: those with an edge off the fractal (A: M or K, B: N or K) and an
// fp32 operand on TBE's img2col path (A not transposed, B transposed); aligned shapes none.
TEST(CubeMatMulFractalLoads, OperandsWithARaggedEdgeOrOnTheImg2colPathMoveByFractals) {
    auto moved = [](std::uint64_t m, std::uint64_t n, std::uint64_t k, DataType dtype, bool ta, bool tb) {
        MatmulProblem p = problemOf(m, n, k, dtype);
        p.transposeA = ta;
        p.transposeB = tb;
        const FractalMovedOperands o = operandsMovedByFractals(p);
        return std::pair{o.a, o.b};
    };
    EXPECT_EQ(moved(32, 1000, 4096, DataType::Fp32, false, true), std::pair(true, true));    // fc8 forward
    EXPECT_EQ(moved(1000, 4096, 32, DataType::Fp32, true, false), std::pair(true, false));   // its weight gradient
    EXPECT_EQ(moved(1000, 4096, 32, DataType::Fp32, true, true), std::pair(true, true));     // B by img2col
    EXPECT_EQ(moved(32, 100, 512, DataType::Fp16, false, false), std::pair(false, true));    // fp16: N only
    EXPECT_EQ(moved(32, 96, 500, DataType::Fp16, false, false), std::pair(true, true));      // K off the row
    EXPECT_EQ(moved(32, 4096, 4096, DataType::Fp32, false, true), std::pair(false, false));  // aligned: none
}

// The weight gradient with an unaligned M (dW fc8's shape in miniature: M = 40, K = 32): A stored
// [K × m] is a contiguous block split into 512 B pieces; B stored [K × n] with whole-fractal edges and
// off TBE's img2col path moves its step block in one load.
TEST(CubeMatMulFractalLoads, UnalignedWeightGradientMovesOnlyAByFractals) {
    const L0Loads loads = tbeFp32WeightGradientLoads(40, 256, 32);
    ASSERT_GT(loads.mmads, 0u);
    EXPECT_EQ(loads.largestA, 512u);
    EXPECT_EQ(loads.aLoads, (loads.aBytes + 511) / 512u);
    EXPECT_EQ(loads.bLoads, loads.mmads);
    EXPECT_GT(loads.largestB, 512u);
    EXPECT_EQ(loads.scalarIssueCycles, 0u);
}

// The unaligned kernel runs its tiles one after another: a barrier after every store but the last;
// the aligned weight gradient (M = 48) keeps its tiles overlapping.
TEST(CubeMatMulFractalLoads, UnalignedKernelRunsItsTilesOneAfterAnother) {
    const L0Loads unaligned = tbeFp32WeightGradientLoads(40, 1024, 32);
    ASSERT_GT(unaligned.stores, 1u);
    EXPECT_EQ(unaligned.barriersAfterStores, unaligned.stores - 1);
    const L0Loads aligned = tbeFp32WeightGradientLoads(48, 1024, 32);
    ASSERT_GT(aligned.stores, 1u);
    EXPECT_EQ(aligned.barriersAfterStores, 0u);
}

// TBE's binary kernel attaches A's L0 block at the L0C tile's K loop in every template (al0_attach_flag
// ATTACH_LESS, docs/fidelity.md §132f): a weight gradient whose K is one step (M = 40, K = 32, several
// n-tiles of one m-block) moves its A block again, piece by piece, for every tile — no L0A reuse.
TEST(CubeMatMulFractalLoads, EachTileMovesItsABlockAgain) {
    const L0Loads loads = tbeFp32WeightGradientLoads(40, 1024, 32);
    constexpr std::uint64_t kABlockPieces = 40u * 32u * 4u / 512u;
    ASSERT_GT(loads.mmads, 1u);  // one mmad a tile: K is one step
    EXPECT_EQ(loads.aLoads, loads.mmads * kABlockPieces);
    EXPECT_EQ(loads.aBytes, loads.mmads * kABlockPieces * 512u);
}

// A step shallower than a 512 B row whose rows do not split into 512 B pieces moves each block at
// once and issues its other pieces as scalar work: K = 200 with N = 40 runs a 128-deep step (whole
// pieces: A 32, B 40) and a 72-deep one out of the 200-deep L1 chunk (288 B rows 800 B apart: A 32 × 72
// fp32 is 18 pieces, B 40 × 72 is 23, the last partial).
TEST(CubeMatMulFractalLoads, BlockThatCannotSplitChargesItsPiecesIssue) {
    const auto chip = fractalMovesChip();
    CubeOpHarness h(chip, 4 << 20);
    const L0Loads loads = l0LoadsOf(h.lower(linearForwardOp(h, DataType::Fp32, 32, 40, 200)).at(0));
    EXPECT_EQ(loads.mmads, 2u);
    EXPECT_EQ(loads.aLoads, 32u + 1u);
    EXPECT_EQ(loads.bLoads, 40u + 1u);
    EXPECT_EQ(loads.scalarIssueCycles, (17u + 22u) * kFractalMoveIssueCycles);
}

// Aligned shapes keep their loads: fc7 in miniature (N = 48) loads B a column a step, A in one move;
// an fp16 GEMM marked TBE's kernel with aligned edges moves its blocks at once.
TEST(CubeMatMulFractalLoads, AlignedShapesKeepTheirLoads) {
    const auto chip = fractalMovesChip();
    CubeOpHarness h(chip, 4 << 20);
    const L0Loads fp32 = l0LoadsOf(h.lower(linearForwardOp(h, DataType::Fp32, 32, 48, 512)).at(0));
    EXPECT_EQ(fp32.aLoads, fp32.mmads);
    EXPECT_EQ(fp32.bLoads, fp32.mmads * 3u);
    auto fp16 = linearForwardOp(h, DataType::Fp16, 32, 96, 512);
    fp16.attrs[kTbeKernelAttr] = true;
    const L0Loads aligned = l0LoadsOf(h.lower(fp16).at(0));
    EXPECT_EQ(aligned.aLoads, aligned.mmads);
    EXPECT_EQ(aligned.bLoads, aligned.mmads);
    // The same fp16 GEMM with N = 100 runs the unaligned pattern: B (N off the fractal) moves by
    // fractals, A its block at once.
    auto unaligned = linearForwardOp(h, DataType::Fp16, 32, 100, 512);
    unaligned.attrs[kTbeKernelAttr] = true;
    const L0Loads ragged = l0LoadsOf(h.lower(unaligned).at(0));
    EXPECT_EQ(ragged.largestB, 512u);
    EXPECT_EQ(ragged.aLoads, ragged.mmads);
}

// The pieces move the same bytes to the same places: products of both layouts with unaligned edges.
TEST(CubeMatMulFractalLoads, ProductIsUnchanged) {
    const auto chip = fractalMovesChip();
    CubeOpHarness h(chip, 4 << 20);
    for (const std::int64_t k : {512, 200, 36}) {
        auto op = linearForwardOp(h, DataType::Fp32, 32, 40, k);
        const auto xv = h.fillRandom(op.inputs[0]), wv = h.fillRandom(op.inputs[1]);
        h.run(op);
        expectNear(h.read(op.outputs[0]), productWithTransposedB(xv, wv, 32, 40, static_cast<std::size_t>(k)), 1e-4,
                   1e-5, "fp32 fractal loads, B transposed");
    }
    // N = 72: both operands by fractals; N = 512: only A, over several tiles run one after another.
    for (const std::size_t n : {std::size_t{72}, std::size_t{512}}) {
        auto grad = weightGradientOp(h, DataType::Fp32, 40, static_cast<std::int64_t>(n), 32);
        grad.attrs[kTbeKernelAttr] = true;
        const auto dyv = h.fillRandom(grad.inputs[0]), xv = h.fillRandom(grad.inputs[1]);
        h.run(grad);
        std::vector<double> expected(40 * n, 0.0);
        for (std::size_t i = 0; i < 40; ++i)
            for (std::size_t j = 0; j < n; ++j)
                for (std::size_t p = 0; p < 32; ++p) expected[i * n + j] += double(dyv[p * 40 + i]) * xv[p * n + j];
        expectNear(h.read(grad.outputs[0]), expected, 1e-4, 1e-5, "fp32 fractal loads, A transposed");
    }
}

}  // namespace
}  // namespace ascendsim::test
