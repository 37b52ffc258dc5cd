// TBE's GEMM kernel deals a one-step GEMM (K one L0 step) out as CANN's m_dim × n_dim core grid of
// least A + B share a core (then fewest tiles a core), each core loading its A rows and B columns
// once (docs/fidelity.md §141, matmul_core_grid.h); the tiles of a core's rectangle run n fastest.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

#include "models/kernels/cube/matmul/matmul_core_grid.h"
#include "models/kernels/cube/matmul/matmul_tbe_kernel.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// The AlexNet 910B2 weight gradients: [32,1000]ᵀ · [32,4096] on 24 blocks is GetBlockDim's 3 × 8
// with CANN's own 112 × 256 L0 tile (§132f); [32,4096]ᵀ · [32,4096] on 22 blocks ties 2 × 11 with
// 11 × 2 (128 + 24 fractals a core either way) and takes 11 × 2's 24 tiles of 128 × 256 a core over
// 2 × 11's 32 of 128 × 192.
TEST(CubeMatMulCoreGrid, LeastLoadThenFewestTilesOnTheExportsWeightGradients) {
    const ChipConfig chip = ascend910B1();
    const auto dwFc8 =
        tbeCoreGrid(matmulWithBlockDim(24), chip, fp32MatmulProblem(1000, 4096, 32, false));
    ASSERT_TRUE(dwFc8);
    EXPECT_EQ(dwFc8->m, 3u);
    EXPECT_EQ(dwFc8->n, 8u);
    EXPECT_EQ(dwFc8->baseM, 112u);
    EXPECT_EQ(dwFc8->baseN, 256u);
    const auto dwFc7 =
        tbeCoreGrid(matmulWithBlockDim(22), chip, fp32MatmulProblem(4096, 4096, 32, false));
    ASSERT_TRUE(dwFc7);
    EXPECT_EQ(dwFc7->m, 11u);
    EXPECT_EQ(dwFc7->n, 2u);
    EXPECT_EQ(dwFc7->baseM, 128u);
    EXPECT_EQ(dwFc7->baseN, 256u);
    // Without a block dim, the chip's 24 cores: 4 × 6 and 6 × 4 load alike (64 + 43 fractals); 6 ×
    // 4's 43-fractal m share takes 16-row tiles, 172 a core, against 4 × 6's 344 of 16 columns.
    const auto cores = tbeCoreGrid(matmulWithBlockDim(std::nullopt), chip,
                                   fp32MatmulProblem(4096, 4096, 32, false));
    ASSERT_TRUE(cores);
    EXPECT_EQ(cores->m, 6u);
    EXPECT_EQ(cores->n, 4u);
}

TEST(CubeMatMulCoreGrid, NoGridForABatchOrCoresBeyondTheFractals) {
    const ChipConfig chip = ascend910B1();
    MatmulProblem batched = fp32MatmulProblem(1000, 4096, 32, false);
    batched.batchShape = {2};
    EXPECT_FALSE(tbeCoreGrid(matmulWithBlockDim(24), chip, batched));
    // 7 cores on a 16 × 16 output: only 1 × 7 or 7 × 1, each leaving a core without work
    // (shares of 3 fractals: 6 cores cover 16).
    EXPECT_FALSE(tbeCoreGrid(matmulWithBlockDim(7), chip, fp32MatmulProblem(16, 256, 32, false)));
}

// Every tile belongs to exactly one core's rectangle, the rectangles are contiguous ranges, and a
// rectangle's tiles run n fastest — also with a short last row and column of rectangles.
TEST(CubeMatMulCoreGrid, OrderDealsEveryTileOnceInRectangles) {
    for (const auto& [mTiles, nTiles, gridM, gridN] :
         std::vector<std::array<std::uint64_t, 4>>{{9, 16, 3, 8}, {32, 16, 11, 2}, {5, 7, 3, 4}}) {
        MatmulGridOrder order{mTiles, nTiles, (mTiles + gridM - 1) / gridM,
                              (nTiles + gridN - 1) / gridN, static_cast<std::uint32_t>(gridN)};
        std::vector<int> seen(mTiles * nTiles, 0);
        std::uint64_t next = 0;
        for (std::uint32_t block = 0; block < gridM * gridN; ++block) {
            std::uint64_t first = 0, count = 0;
            order.blockTiles(block, first, count);
            EXPECT_EQ(first, next) << "block " << block;
            next = first + count;
            std::uint64_t lastM = 0, lastN = 0;
            for (std::uint64_t t = first; t < first + count; ++t) {
                std::uint64_t m = 0, n = 0;
                order.tileAt(t, m, n);
                ASSERT_LT(m, mTiles);
                ASSERT_LT(n, nTiles);
                EXPECT_EQ(m / order.cellM, block / gridN);
                EXPECT_EQ(n / order.cellN, block % gridN);
                if (t > first) {
                    EXPECT_TRUE(m > lastM || (m == lastM && n == lastN + 1));
                }
                lastM = m;
                lastN = n;
                ++seen[m * nTiles + n];
            }
        }
        EXPECT_EQ(next, mTiles * nTiles);
        for (int s : seen) EXPECT_EQ(s, 1);
    }
}

// A's and B's GM → L1 loads of one block: distinct source addresses and load counts.
struct OperandLoads {
    std::uint32_t aLoads = 0, bLoads = 0, mmads = 0;
    std::set<std::uint64_t> aSources, bSources;
};
OperandLoads operandLoadsOf(const LoweredKernel& kernel, const OpInstance& op,
                            std::uint32_t block) {
    OperandLoads loads;
    const TensorInfo& a = op.inputs[0];
    const TensorInfo& b = op.inputs[1];
    for (const Instruction& instruction : blockProgram(kernel, block)) {
        if (std::get_if<Mmad>(&instruction.operands) != nullptr) ++loads.mmads;
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
        if (move->srcAddr >= a.deviceAddr && move->srcAddr < a.deviceAddr + a.bytes()) {
            ++loads.aLoads;
            loads.aSources.insert(move->srcAddr);
        } else if (move->srcAddr >= b.deviceAddr && move->srcAddr < b.deviceAddr + b.bytes()) {
            ++loads.bLoads;
            loads.bSources.insert(move->srcAddr);
        }
    }
    return loads;
}

OpInstance weightGradient(CubeOpHarness& h, std::int64_t m, std::int64_t n, DataType dtype,
                          bool tbe, std::uint32_t blockDim) {
    auto op = makeOp("MatMul", {h.tensor("a", {m, 32}, dtype), h.tensor("b", {32, n}, dtype)},
                     {h.tensor("y", {m, n}, dtype)});
    op.blockDim = blockDim;
    if (tbe) op.attrs[kTbeKernelAttr] = true;
    return op;
}

// [512 × 32] · [32 × 512] on 4 blocks: 2 × 2 (16 + 16 fractals a core) of 128 × 256 tiles, each
// core two m-tiles of one n-tile — its B once and an A per m-tile. Without TBE's mark the
// contiguous n-fastest ranges read several n-tiles' B.
TEST(CubeMatMulCoreGrid, EachCoreLoadsItsRectanglesAAndBOnce) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 8 << 20);
    const auto tbe = weightGradient(h, 512, 512, DataType::Fp16, true, 4);
    const LoweredKernel kernel = h.lower(tbe).at(0);
    ASSERT_EQ(kernel.blockDim, 4u);
    for (std::uint32_t block = 0; block < 4; ++block) {
        const OperandLoads loads = operandLoadsOf(kernel, tbe, block);
        EXPECT_EQ(loads.mmads, 2u) << block;
        EXPECT_EQ(loads.bLoads, 1u) << block;
        EXPECT_EQ(loads.bSources.size(), 1u) << block;
        EXPECT_EQ(loads.aSources.size(), 2u) << block;  // one m-tile's rows a source
    }
    const auto plain = weightGradient(h, 512, 512, DataType::Fp16, false, 4);
    const OperandLoads contiguous = operandLoadsOf(h.lower(plain).at(0), plain, 0);
    EXPECT_GT(contiguous.bSources.size(), 1u);  // a contiguous n-fastest range crosses n-tiles
}

// A K deeper than one L0 step keeps the default ranges (the deep-K TBE GEMMs are not gridded):
// block 0 of [512 × 1024] · [1024 × 512] fp16 on 4 blocks runs one m-tile's two n-tiles.
TEST(CubeMatMulCoreGrid, DeepKKeepsTheContiguousRanges) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 16 << 20);
    auto op = makeOp(
        "MatMul",
        {h.tensor("a", {512, 1024}, DataType::Fp16), h.tensor("b", {1024, 512}, DataType::Fp16)},
        {h.tensor("y", {512, 512}, DataType::Fp16)});
    op.blockDim = 4;
    op.attrs[kTbeKernelAttr] = true;
    std::set<std::uint64_t> aRows, bColumns;
    for (const Instruction& instruction : blockProgram(h.lower(op).at(0), 0)) {
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
        const TensorInfo& a = op.inputs[0];
        const TensorInfo& b = op.inputs[1];
        if (move->srcAddr >= a.deviceAddr && move->srcAddr < a.deviceAddr + a.bytes())
            aRows.insert((move->srcAddr - a.deviceAddr) / 2 / 1024);
        else if (move->srcAddr >= b.deviceAddr && move->srcAddr < b.deviceAddr + b.bytes())
            bColumns.insert((move->srcAddr - b.deviceAddr) / 2 % 512);
    }
    EXPECT_EQ(aRows, (std::set<std::uint64_t>{0}));
    EXPECT_EQ(bColumns, (std::set<std::uint64_t>{0, 256}));
}

// The product of gridded GEMMs with ragged edges matches the reference in fp32: [200, 328] on 6
// blocks is 2 × 3 of 112 × 112 tiles (13 and 21 fractals, shares of 7), [1000, 512] on 12 is 4 × 3
// of 128 × 176 (4 × 3 and 6 × 2 load alike; 6 × 2's 11-fractal m share would take 16-row tiles).
TEST(CubeMatMulCoreGrid, ProductIsRightWithRaggedEdges) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 8 << 20);
    for (const auto& [m, n, blocks] :
         std::vector<std::array<std::int64_t, 3>>{{200, 328, 6}, {1000, 512, 12}}) {
        const auto op =
            weightGradient(h, m, n, DataType::Fp32, true, static_cast<std::uint32_t>(blocks));
        const auto av = h.fillRandom(op.inputs[0]), bv = h.fillRandom(op.inputs[1]);
        h.run(op);
        std::vector<double> expected(static_cast<std::size_t>(m * n), 0.0);
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j)
                for (std::int64_t p = 0; p < 32; ++p)
                    expected[i * n + j] += double(av[i * 32 + p]) * bv[p * n + j];
        expectNear(h.read(op.outputs[0]), expected, 1e-4, 1e-5, "gridded weight gradient");
    }
}

}  // namespace
}  // namespace ascendsim::test
