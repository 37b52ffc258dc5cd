// TBE's GEMM kernel on the coupled cores loads a block's whole B share into L1 once (CANN's cache
// tiling BL1 full load, CubeBufferPlan::blockResidentB): when every tile is one chunk, each distinct
// n-tile a block's tiles read is loaded once, all with the block's first tile, before the first
// mmad; the split cores keep loading B with each tile (docs/fidelity.md §137).
#include <gtest/gtest.h>

#include <set>

#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

struct BlockBLoads {
    std::uint32_t bLoads = 0, bLoadsBeforeFirstMmad = 0, mmads = 0;
    std::set<std::uint64_t> bSources;  // GM addresses the B loads start at
};

BlockBLoads blockBLoads(const LoweredKernel& kernel, CoreKind kind, const TensorInfo& b, std::uint32_t block = 0) {
    BlockBLoads seen;
    const std::uint64_t bEnd = b.deviceAddr + static_cast<std::uint64_t>(b.bytes());
    forEachProgramInstruction(
        kernel, kind,
        [&](const Instruction& i) {
            if (std::get_if<Mmad>(&i.operands) != nullptr) ++seen.mmads;
            const auto* move = std::get_if<DataMove>(&i.operands);
            if (move == nullptr || move->src != MemSpace::GM || move->dst != MemSpace::L1) return;
            if (move->srcAddr < b.deviceAddr || move->srcAddr >= bEnd) return;
            ++seen.bLoads;
            seen.bSources.insert(move->srcAddr);
            if (seen.mmads == 0) ++seen.bLoadsBeforeFirstMmad;
        },
        block);
    return seen;
}

// A weight gradient in miniature, K = 32 (one chunk a tile): [128 × 32] · [32 × 1024] fp16 on one
// block is 4 tiles of 128 × 256 along n.
OpInstance weightGradientOp(CubeOpHarness& h, std::int64_t m, std::int64_t n, std::int64_t k, TensorInfo& b) {
    auto a = h.tensor("a", {m, k}, DataType::Fp16);
    b = h.tensor("b", {k, n}, DataType::Fp16);
    return makeOp("MatMul", {a, b}, {h.tensor("y", {m, n}, DataType::Fp16)});
}

TEST(CubeMatMulBlockResidentB, CoupledBlockLoadsEachNTileOfBOnceBeforeItsFirstMmad) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    TensorInfo b;
    auto op = weightGradientOp(h, 128, 1024, 32, b);
    op.blockDim = 1;
    const BlockBLoads seen = blockBLoads(h.lower(op).at(0), CoreKind::Coupled, b);
    EXPECT_EQ(seen.mmads, 4u);
    EXPECT_EQ(seen.bLoads, 4u);
    EXPECT_EQ(seen.bSources.size(), 4u);  // each n-tile's columns once
    EXPECT_EQ(seen.bLoadsBeforeFirstMmad, 4u);
}

TEST(CubeMatMulBlockResidentB, SplitCoresKeepLoadingBWithEachTile) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    TensorInfo b;
    auto op = weightGradientOp(h, 128, 1024, 32, b);
    op.blockDim = 1;
    const BlockBLoads seen = blockBLoads(h.lower(op).at(0), CoreKind::Cube, b);
    EXPECT_GT(seen.mmads, 1u);
    EXPECT_EQ(seen.bLoads, seen.mmads);  // one tile (one step, K = 32) a B load
    EXPECT_LE(seen.bLoadsBeforeFirstMmad, 2u);  // the tile's own and the next one's, loaded a tile ahead
}

// A block whose range spans two m-rows meets an n-tile twice and loads it once: [256 × 32] ·
// [32 × 768] is 2 × 3 tiles; on 4 blocks (2, 2, 1, 1 tiles) block 1 runs (m 0, n 2) and (m 1, n 0).
TEST(CubeMatMulBlockResidentB, RangeAcrossMRowsLoadsEveryNTileItMeetsOnce) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip, 1 << 20);
    TensorInfo b;
    auto op = weightGradientOp(h, 256, 768, 32, b);
    op.blockDim = 2;  // 3 tiles a block: block 0 = m-row 0, block 1 = m-row 1
    const LoweredKernel kernel = h.lower(op).at(0);
    for (std::uint32_t block = 0; block < 2; ++block) {
        const BlockBLoads seen = blockBLoads(kernel, CoreKind::Coupled, b, block);
        EXPECT_EQ(seen.bLoads, 3u) << "block " << block;
        EXPECT_EQ(seen.bLoadsBeforeFirstMmad, 3u) << "block " << block;
    }
}

TEST(CubeMatMulBlockResidentB, DeepKKeepsPerTileChunks) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip, 1 << 20);
    TensorInfo b;
    auto op = weightGradientOp(h, 128, 1024, 4096, b);  // K over several chunks a tile
    op.blockDim = 1;
    const BlockBLoads seen = blockBLoads(h.lower(op).at(0), CoreKind::Coupled, b);
    EXPECT_GT(seen.bLoads, 4u);
    EXPECT_LT(seen.bLoadsBeforeFirstMmad, 4u);
}

// The product is right with a block-resident B, blocks within one m-row, across m-rows and with
// ragged edges (N = 700: the last n-tile is narrower).
TEST(CubeMatMulBlockResidentB, ProductIsRight) {
    const ChipConfig chip = coupledChip();
    for (const std::uint32_t blocks : {1u, 2u, 4u}) {
        CubeOpHarness h(chip);
        const std::int64_t m = 256, n = 700, k = 32;
        auto a = h.tensor("a", {m, k}, DataType::Fp16);
        auto b = h.tensor("b", {k, n}, DataType::Fp16);
        auto y = h.tensor("y", {m, n}, DataType::Fp16);
        const auto av = h.fillRandom(a), bv = h.fillRandom(b);
        auto op = makeOp("MatMul", {a, b}, {y});
        op.blockDim = blocks;
        h.run(op);
        std::vector<double> expected(static_cast<std::size_t>(m * n), 0.0);
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j)
                for (std::int64_t p = 0; p < k; ++p)
                    expected[static_cast<std::size_t>(i * n + j)] +=
                        double(av[static_cast<std::size_t>(i * k + p)]) * bv[static_cast<std::size_t>(p * n + j)];
        expectNear(h.read(y), expected, 3e-2, 3e-3, "block-resident B, " + std::to_string(blocks) + " blocks");
    }
}

}  // namespace
}  // namespace ascendsim::test
