// The fp32 MaxPoolGradWithArgmaxV1 as CANN's DSL PoolingGradWithArg schedule tiles and issues it
// (max_pool_grad_with_argmax_dsl_tiling.h, docs/fidelity.md §174): the UB node budget, whole-plane
// tiles or H tiles, tap chunks whose dy rows and argmax are loaded again for every chunk, one
// argmax move a chunk (a burst a tap), one store a tile.
#include <gtest/gtest.h>

#include <variant>
#include <vector>

#include "models/kernels/pooling/max_pool_grad_with_argmax_dsl_tiling.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

ArgmaxPoolGeometry alexNetPool(std::uint64_t planes, std::uint64_t side) {
    ArgmaxPoolGeometry g;
    g.dtype = DataType::Fp32;
    g.planes = planes, g.h = side, g.w = side, g.kh = 3, g.kw = 3, g.sh = 2, g.sw = 2;
    g.outH = (side - 3) / 2 + 1, g.outW = g.outH;
    return g;
}

TEST(VectorMaxPoolGradDsl, TilingOfTheAlexNetRowsOnTheAivUb) {
    const std::uint64_t ub = vectorPlacement(ascend910B1()).ubBytes;
    ASSERT_EQ(ub, 192u * 1024);
    // 13 × 13 planes, 32 blocks (N): a plane a tile, all nine taps in one chunk (COMMON).
    const DslArgmaxGradTiling small = dslArgmaxGradTiling(alexNetPool(512, 13), ub, 32);
    EXPECT_EQ(small.bufferElements, (ub - 1024) / 4 * 2 / 7);  // 13 970: (UB − 1 KiB) / 4 B / 3.5
    EXPECT_TRUE(small.wholePlane());
    EXPECT_EQ(small.tapsPerChunk, 9u);
    // 27 × 27: the plane's dx fits (11 664 ≤ 13 970) but not nine taps of 169 · 16: chunks of 5 and 4.
    const DslArgmaxGradTiling mid = dslArgmaxGradTiling(alexNetPool(384, 27), ub, 32);
    EXPECT_TRUE(mid.wholePlane());
    EXPECT_EQ(mid.tapsPerChunk, 5u);
    EXPECT_EQ(mid.chunks(9), 2u);
    // 55 × 55 on 256 blocks over 128 planes: two H blocks of 28 rows, 15-row tiles (15 · 55 · 16 ≤
    // 13 970), one tap a chunk (729 · 16 > 13 970 / 2).
    const DslArgmaxGradTiling big = dslArgmaxGradTiling(alexNetPool(128, 55), ub, 256);
    EXPECT_EQ(big.hBlocks, 2u);
    EXPECT_EQ(big.hBlockRows, 28u);
    EXPECT_EQ(big.tileRows, 15u);
    EXPECT_EQ(big.tilesPerHBlock, 2u);
    EXPECT_EQ(big.tapsPerChunk, 1u);
    EXPECT_EQ(big.tilesPerPlane(), 4u);
    // Without a launch block dim the blocks split planes only: 15-row tiles over the whole H.
    const DslArgmaxGradTiling own = dslArgmaxGradTiling(alexNetPool(128, 55), ub, 0);
    EXPECT_EQ(own.hBlocks, 1u);
    EXPECT_EQ(own.tilesPerPlane(), 4u);
}

struct GradMoves {
    std::vector<DataMove> argmaxLoads, dyLoads, stores, ubCopies;
};

// Block `block`'s moves of fp32 MaxPoolGradWithArgmaxV1 of x [1, 16, side, side] (one plane), 3 × 3
// windows of stride 2, on `blockDim` blocks.
GradMoves gradMoves(std::int64_t side, std::uint32_t blockDim, std::uint32_t block) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 64ull << 20);
    const std::int64_t out = (side - 3) / 2 + 1;
    const auto x = h.tensor("x", {1, 16, side, side}, DataType::Fp32), dy = h.tensor("dy", {1, 16, out, out}, DataType::Fp32);
    const auto mask = h.tensor("argmax", {1, 1, 9, (out * out + 15) / 16 + 1, 16}, DataType::Int16);
    const auto dx = h.tensor("dx", {1, 16, side, side}, DataType::Fp32);
    auto op = makeOp("MaxPoolGradWithArgmaxV1", {x, dy, mask}, {dx});
    op.attrs["ksize"] = std::vector<std::int64_t>{3, 3};
    op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
    op.blockDim = blockDim;
    const auto kernels = h.lower(op);
    EXPECT_EQ(kernels.size(), 1u);
    GradMoves m;
    forEachProgramInstruction(kernels[0], CoreKind::Vector, [&](const Instruction& i) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move == nullptr) return;
        if (move->src == MemSpace::GM) {
            const bool isMask = move->srcAddr >= mask.deviceAddr && move->srcAddr < mask.deviceAddr + mask.bytes();
            (isMask ? m.argmaxLoads : m.dyLoads).push_back(*move);
        } else if (move->dst == MemSpace::GM) {
            m.stores.push_back(*move);
        } else if (move->src == MemSpace::UB && move->dst == MemSpace::UB) {
            m.ubCopies.push_back(*move);
        }
    }, block);
    return m;
}

TEST(VectorMaxPoolGradDsl, CommonTileLoadsTheArgmaxOnceABurstATap) {
    const GradMoves m = gradMoves(13, 1, 0);
    ASSERT_EQ(m.argmaxLoads.size(), 1u);
    EXPECT_EQ(m.argmaxLoads[0].burstCount, 9u);
    EXPECT_EQ(m.argmaxLoads[0].burstBytes, 36u * 2);  // the 6 × 6 windows' uint16 entries
    ASSERT_EQ(m.dyLoads.size(), 1u);
    EXPECT_EQ(m.dyLoads[0].burstCount * m.dyLoads[0].burstBytes, 36u * 64);
    EXPECT_EQ(m.ubCopies.size(), 1u);  // grad_split_hwo
    ASSERT_EQ(m.stores.size(), 1u);
    EXPECT_EQ(m.stores[0].burstCount * m.stores[0].burstBytes, 13u * 13 * 64);
}

TEST(VectorMaxPoolGradDsl, WindowSplitReloadsTheDyRowsForEveryTapChunk) {
    // 27 × 27: one tile, chunks of 5 and 4 taps, dy loaded twice, one store.
    const GradMoves mid = gradMoves(27, 1, 0);
    ASSERT_EQ(mid.argmaxLoads.size(), 2u);
    EXPECT_EQ(mid.argmaxLoads[0].burstCount, 5u);
    EXPECT_EQ(mid.argmaxLoads[1].burstCount, 4u);
    EXPECT_EQ(mid.dyLoads.size(), 2u);
    EXPECT_EQ(mid.ubCopies.size(), 2u);
    EXPECT_EQ(mid.stores.size(), 1u);
    // 55 × 55 on two blocks: block 1 has dx rows 28..54 in tiles of 15 and 12 rows, nine chunks
    // each; every chunk reloads the dy rows its windows reach.
    const GradMoves big = gradMoves(55, 2, 1);
    EXPECT_EQ(big.argmaxLoads.size(), 18u);
    ASSERT_EQ(big.dyLoads.size(), 18u);
    for (const DataMove& a : big.argmaxLoads) EXPECT_EQ(a.burstCount, 1u);
    // Rows 28..42 are reached by windows 13..21 (9 rows of 27), rows 43..54 by 21..26 (6 rows).
    EXPECT_EQ(big.dyLoads.front().burstBytes, 9u * 27 * 64);
    EXPECT_EQ(big.dyLoads.back().burstBytes, 6u * 27 * 64);
    ASSERT_EQ(big.stores.size(), 2u);
    EXPECT_EQ(big.stores[0].burstBytes, 15u * 55 * 64);
    EXPECT_EQ(big.stores[1].burstBytes, 12u * 55 * 64);
    EXPECT_EQ(big.stores[0].dstAddr + big.stores[0].burstBytes, big.stores[1].dstAddr);
}

}  // namespace
}  // namespace ascendsim::test
