// The split cube's fp32 forward convolution sizes its L0 tiles as TBE's conv tiling does
// (docs/fidelity.md §142): output-channel tiles as wide as L0C holds beside the position tile
// (ConvProblem::coTilesFillL0c), and, with one C1 block of input channels (a C = 3 stem), L0 steps
// one kernel row of C0 blocks deep with the position tile an L0 half holds at that depth
// (ConvProblem::kernelRowStepsForOneC1Block). fp16 and the coupled cores keep their tiles.
#include <gtest/gtest.h>

#include <variant>

#include "models/kernels/cube/conv/conv2d_operands.h"
#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_conv_runs.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// cube_conv_runs.h's fp32 stem (81 output positions an image) with `channels` input channels and
// steps in C0 blocks.
ConvProblem l0TilesStem(std::uint64_t channels) {
    ConvProblem p = fp32StemConvProblem();
    p.inChannels = channels;
    p.stepsInC0Blocks = true;
    return p;
}

void planOnOneBlock(const ConvProblem& p, ConvTiling& tiling, CubeBufferPlan& plan) {
    OpInstance op = makeOp("Conv2D", {}, {});
    op.blockDim = 1;
    planConv(op, ascend910B1(), p, tiling, plan);
}

// 11 × 11 taps of one C0 block: a step is a kernel row of C0 blocks (11 · 8 = 88 fp32), and an L0
// half (32 KiB) holds 93 positions at 352 B each, so the tile is 80 (five fractals), not the plane's
// 96; two C1 blocks (16 channels) keep the default 96-position tile and 64-deep steps.
TEST(CubeConv2DL0Tiles, OneC1BlockStemStepsAKernelRowOfC0BlocksOnTheTileAnL0HalfHolds) {
    ConvProblem p = l0TilesStem(8);
    p.kernelRowStepsForOneC1Block = true;
    ConvTiling tiling;
    CubeBufferPlan plan;
    planOnOneBlock(p, tiling, plan);
    EXPECT_EQ(tiling.baseK, 88u);
    EXPECT_EQ(tiling.baseN, 80u);

    ConvProblem twoBlocks = l0TilesStem(16);
    twoBlocks.kernelRowStepsForOneC1Block = true;
    planOnOneBlock(twoBlocks, tiling, plan);
    EXPECT_EQ(tiling.baseN, 96u);
    EXPECT_EQ(tiling.baseK, 64u);

    planOnOneBlock(l0TilesStem(8), tiling, plan);  // the rule off: the default tile
    EXPECT_EQ(tiling.baseN, 96u);
    EXPECT_EQ(tiling.baseK, 64u);
}

// The position tile is the side of L0C's square of fp32 fractals (11 × 11 of 1 KiB in 128 KiB: 176
// positions, docs/fidelity.md §156), and the co tile the widest equal split L0C holds beside it: 160
// output channels of a 27 × 27 plane in one tile (110 KiB of fp32 accumulator, one L0C buffer)
// rather than 128 + 32; 192 do not fit beside 176 positions (132 KiB), so they take the narrow 128;
// 384 on the 176-position plane of a 13 × 13 image: 3 × 128, as 2 × 192 does not fit either.
// Without the rule, 128 × 128 tiles in two L0C buffers.
TEST(CubeConv2DL0Tiles, SplitCubeFp32CoTilesTakeTheWidestEqualSplitL0cHolds) {
    ConvProblem p;
    p.window.inH = p.window.inW = p.window.outH = p.window.outW = 27;
    p.window.kernelH = p.window.kernelW = 5;
    p.window.padTop = p.window.padLeft = 2;
    p.inChannels = 64;
    p.outChannels = 160;
    p.inputType = p.mmadType = p.outputType = DataType::Fp32;
    p.coTilesFillL0c = true;
    ConvTiling tiling;
    CubeBufferPlan plan;
    planOnOneBlock(p, tiling, plan);
    EXPECT_EQ(tiling.baseN, 176u);
    EXPECT_EQ(tiling.baseM, 160u);
    EXPECT_EQ(plan.l0cSlots, 1u);

    p.outChannels = 192;
    planOnOneBlock(p, tiling, plan);
    EXPECT_EQ(tiling.baseN, 176u);
    EXPECT_EQ(tiling.baseM, 128u);

    p.coTilesFillL0c = false;
    planOnOneBlock(p, tiling, plan);
    EXPECT_EQ(tiling.baseN, 128u);
    EXPECT_EQ(tiling.baseM, 128u);
    EXPECT_EQ(plan.l0cSlots, 2u);

    ConvProblem plane = p;
    plane.window.inH = plane.window.inW = plane.window.outH = plane.window.outW = 13;
    plane.window.kernelH = plane.window.kernelW = 3;
    plane.window.padTop = plane.window.padLeft = 1;
    plane.inChannels = 192;
    plane.outChannels = 384;
    plane.wholePlaneTiles = true;
    plane.coTilesFillL0c = true;
    planOnOneBlock(plane, tiling, plan);
    EXPECT_EQ(tiling.baseN, 176u);
    EXPECT_EQ(tiling.baseM, 128u);

    // 2048 channels beside a 16-position plane fit L0C (128 KiB) but leave an L0 half no C0 block of
    // step (32 KiB / (2048 · 4 B) = 4 fp32): the widest split whose step holds one is 1024.
    ConvProblem wide = p;
    wide.window.inH = wide.window.inW = wide.window.outH = wide.window.outW = 4;
    wide.window.kernelH = wide.window.kernelW = 1;
    wide.window.padTop = wide.window.padLeft = 0;
    wide.outChannels = 2048;
    wide.stepsInC0Blocks = true;
    wide.coTilesFillL0c = true;
    planOnOneBlock(wide, tiling, plan);
    EXPECT_EQ(tiling.baseM, 1024u);
    EXPECT_EQ(tiling.baseK, 8u);
}

// Through the Conv2D lowering: an fp32 forward on the split cube runs 192-row mmads and 88-deep
// kernel-row steps where they apply, and computes the convolution; fp16 keeps 128-row tiles.
std::vector<Mmad> forwardMmads(const ChipConfig& chip, const ConvShape& s, DataType dtype) {
    const ConvForwardRun run = runConvForward(chip, s, 1u, dtype, chip.name);
    std::vector<Mmad> mmads;
    for (const Instruction& instruction : blockProgram(run.kernels.at(0), 0))
        if (const auto* mmad = std::get_if<Mmad>(&instruction.operands)) mmads.push_back(*mmad);
    return mmads;
}

TEST(CubeConv2DL0Tiles, TheForwardLoweringRunsTheWideTilesAndKernelRowStepsAndIsRight) {
    // 16 channels 12 × 12, 192 outputs, 5 × 5 pad 2: the 144-position plane beside 192 channels is
    // 108 KiB of accumulator, one tile.
    const ConvShape wide{1, 16, 12, 12, 192, 5, 5, 1, 1, 2, 2, 2, 2};
    for (const Mmad& m : forwardMmads(ascend910B1(), wide, DataType::Fp32)) EXPECT_EQ(m.m, 192u);
    for (const Mmad& m : forwardMmads(ascend910B1(), wide, DataType::Fp16)) EXPECT_LE(m.m, 128u);
    // The stem: 3 channels in one C0 block, 81 positions as tiles of 80 and 1, steps of 88 and the
    // rest of the 968-deep padded reduction.
    const ConvShape stemShape{1, 3, 40, 40, 16, 11, 11, 4, 4, 2, 2, 2, 2};
    const std::vector<Mmad> steps = forwardMmads(ascend910B1(), stemShape, DataType::Fp32);
    ASSERT_FALSE(steps.empty());
    std::uint32_t widest = 0, deepest = 0;
    for (const Mmad& m : steps) {
        widest = std::max<std::uint32_t>(widest, m.n);
        deepest = std::max<std::uint32_t>(deepest, m.k);
    }
    EXPECT_EQ(widest, 80u);
    EXPECT_EQ(deepest, 88u);
}

}  // namespace
}  // namespace ascendsim::test
