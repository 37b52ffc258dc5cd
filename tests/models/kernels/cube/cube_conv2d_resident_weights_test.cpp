// Conv2D keeps a co-tile's weights resident in L1 when they fit beside two input slab slots and
// several tiles share them (CubeBufferPlan::residentA, CANN's full load of the weight operand): a
// block then reads each weight from GM once per run of tiles with its co-tile instead of once per
// tile. Otherwise the plan stays the per-chunk ping-pong of weights and slab.
#include <gtest/gtest.h>

#include <optional>

#include "models/kernels/cube/conv/conv2d_operands.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// A stride-1 "same" convolution of [batch, c, hw, hw] by [co, c, k, k] on `chip`.
ConvProblem sameConv(std::uint64_t batch, std::uint64_t c, std::uint64_t hw, std::uint64_t co, std::uint32_t k) {
    ConvProblem p;
    p.window.inH = p.window.inW = p.window.outH = p.window.outW = hw;
    p.window.kernelH = p.window.kernelW = k;
    p.window.padTop = p.window.padLeft = k / 2;
    p.batch = batch;
    p.inChannels = c;
    p.outChannels = co;
    return p;
}

struct ConvPlan {
    ConvTiling tiling;
    CubeBufferPlan plan;
};

ConvPlan planFor(const ChipConfig& chip, const ConvProblem& problem, std::optional<std::uint32_t> blockDim = {}) {
    ConvPlan result;
    OpInstance op = makeOp("Conv2D", {}, {});
    op.blockDim = blockDim;
    planConv(op, chip, problem, result.tiling, result.plan);
    return result;
}

// 4 images of 256 channels 8x8, 32 output channels 3x3: one co-tile of 144 KiB of weights in six
// channel chunks, one position tile per image, so the 4 tiles of a single block share the weights.
TEST(CubeConv2DResidentWeights, BlockReadsItsCoTileWeightsOnceInsteadOfOncePerTile) {
    const auto chip = ascend910B1();
    ChipConfig smallL1 = chip;  // room for two ping-pong slots, not for the whole weights
    smallL1.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = 128 * 1024;
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    auto x = h.tensor("x", {4, 256, 8, 8}, DataType::Fp16);
    auto w = h.tensor("w", {32, 256, 3, 3}, DataType::Fp16);
    auto y = h.tensor("y", {4, 32, 8, 8}, DataType::Fp16);
    auto op = makeOp("Conv2D", {x, w}, {y});
    op.attrs["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
    op.blockDim = 1;

    ASSERT_TRUE(planFor(chip, sameConv(4, 256, 8, 32, 3), 1).plan.residentA);
    ASSERT_FALSE(planFor(smallL1, sameConv(4, 256, 8, 32, 3), 1).plan.residentA);
    const LoweredKernel resident = KernelRegistry::instance().lower(op, chip).at(0);
    const LoweredKernel pingPong = KernelRegistry::instance().lower(op, smallL1).at(0);
    const auto weightBytes = static_cast<std::uint64_t>(w.bytes());
    EXPECT_EQ(gmToL1BytesFrom(resident, 0, w), weightBytes);
    EXPECT_EQ(gmToL1BytesFrom(pingPong, 0, w), 4 * weightBytes);
    // Every tile still reads its own input rows.
    EXPECT_EQ(gmToL1BytesFrom(resident, 0, x), gmToL1BytesFrom(pingPong, 0, x));
}

TEST(CubeConv2DResidentWeights, PlanPlacesWeightsAfterTwoSlabSlotsWithinL1) {
    const auto chip = ascend910B1();
    const ConvPlan p = planFor(chip, sameConv(32, 64, 56, 64, 3));  // ResNet-50 stage 1 3x3
    ASSERT_TRUE(p.plan.residentA);
    EXPECT_TRUE(p.tiling.coTileOuter);
    EXPECT_EQ(p.plan.l1BOffset, 0u);
    EXPECT_EQ(p.plan.l1ResidentAAddr, 2 * p.plan.l1SlotBytes);
    const std::uint64_t chunks = (64 + p.tiling.chunkChannels - 1) / p.tiling.chunkChannels;
    EXPECT_EQ(p.plan.l1BiasAddr, p.plan.l1ResidentAAddr + chunks * p.plan.l1ResidentAChunkBytes);
    EXPECT_LE(p.plan.l1BiasAddr, chip.bufferCapacity(MemSpace::L1));
}

TEST(CubeConv2DResidentWeights, WeightsThatDoNotFitKeepThePingPongPlan) {
    const auto chip = ascend910B1();
    // ResNet-50 stage 4 3x3: a 128-channel co-tile holds 128 x 4608 fp16 weights, 1.1 MiB.
    const ConvPlan p = planFor(chip, sameConv(32, 512, 7, 512, 3));
    EXPECT_FALSE(p.plan.residentA);
    EXPECT_FALSE(p.tiling.coTileOuter);
    EXPECT_GT(p.plan.l1BOffset, 0u);  // a slot holds a weight chunk, then the slab
    EXPECT_EQ(p.plan.l1BiasAddr, 2 * p.plan.l1SlotBytes);
}

TEST(CubeConv2DResidentWeights, CoTileNoOtherTileSharesKeepsThePingPongPlan) {
    const auto chip = ascend910B1();
    // One image, one position tile: each co-tile is read by one tile only, so residency saves nothing.
    EXPECT_FALSE(planFor(chip, sameConv(1, 64, 7, 256, 1), 1).plan.residentA);
    EXPECT_TRUE(planFor(chip, sameConv(2, 64, 7, 256, 1), 1).plan.residentA);
}

TEST(CubeConv2DResidentWeights, OneTilePerBlockKeepsThePingPongPlan) {
    const auto chip = ascend910B1();
    // 2 images x 2 co-tiles: the default block_dim gives every tile its own block.
    EXPECT_FALSE(planFor(chip, sameConv(2, 64, 7, 256, 1)).plan.residentA);
    EXPECT_TRUE(planFor(chip, sameConv(2, 64, 7, 256, 1), 2).plan.residentA);
}

// AlexNet's third convolution in fp32 (e5a31957 Conv2D3: 192 -> 384 channels, 3x3 over 13x13, block
// dim 16): a co-tile's 128 x 1728 fp32 weights (864 KiB) do not fit L1, so they stream; the forward
// conv's tiling then takes the whole 169-position plane (176, a fractal multiple) as one position
// tile with one L0C slot. The same problem planned as an input gradient (no whole-plane tiles), or
// with weights that stay resident, keeps 128 positions and two L0C slots.
TEST(CubeConv2DResidentWeights, StreamedWeightsTakeTheWholeOutputPlane) {
    const auto chip = ascend910B1();
    ConvProblem fp32 = sameConv(32, 192, 13, 384, 3);
    fp32.inputType = DataType::Fp32;
    fp32.mmadType = DataType::Fp32;
    fp32.wholePlaneTiles = true;
    const ConvPlan whole = planFor(chip, fp32, 16);
    EXPECT_FALSE(whole.plan.residentA);
    EXPECT_EQ(whole.tiling.baseN, 176u);
    EXPECT_EQ(whole.plan.l0cSlots, 1u);

    fp32.wholePlaneTiles = false;
    const ConvPlan split = planFor(chip, fp32, 16);
    EXPECT_EQ(split.tiling.baseN, 128u);
    EXPECT_EQ(split.plan.l0cSlots, 2u);

    ConvProblem resident = sameConv(32, 64, 13, 64, 3);  // 64 x 576 fp16 weights: 72 KiB
    resident.wholePlaneTiles = true;
    const ConvPlan kept = planFor(chip, resident, 16);
    EXPECT_TRUE(kept.plan.residentA);
    EXPECT_EQ(kept.tiling.baseN, 128u);
}

}  // namespace
}  // namespace ascendsim::test
