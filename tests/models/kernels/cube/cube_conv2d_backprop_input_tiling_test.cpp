// CANN's fp32 input-gradient loads for a base block (conv2d_backprop_input_tiling.h,
// docs/fidelity.md §143; ops-nn conv3d_backprop_input_v2 arch22 UpdateBaseStep / AlignCout1 /
// CalTbeBlockTiling, LoadToB1Fp32's whole C0out): the AlexNet 910B2 rows' figures.
#include <gtest/gtest.h>

#include "models/kernels/cube/conv/conv2d_backprop_input_tiling.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kL1 = 512 * 1024, kL0Half = 32 * 1024;

// The input-gradient form (dy as the input) of a stride-1 `k` × `k` convolution over `hw` × `hw`.
ConvWindow sameWindow(std::uint64_t hw, std::uint32_t k) {
    ConvWindow w;
    w.inH = w.inW = w.outH = w.outW = hw;
    w.kernelH = w.kernelW = k;
    w.padTop = w.padLeft = (k - 1) / 2;
    w.rotateKernel = true;
    return w;
}

// 13 × 13, 3 × 3, 256 dy channels, a 176-position × 128-channel block: one C0 of all nine taps (72)
// overflows an L0 half, one kernel row's (24) fits; the weights' quarter holds three C1 of the
// block, paired down to two (16 channels); dy's quarter holds 24 C1 of the whole 13-row plane.
TEST(CubeConv2DBackpropInputTiling, ThirteenByThirteenTakesKernelRowStepsAndTwelveWeightChunksADyLoad) {
    const Fp32InputGradLoads loads = fp32InputGradLoads(sameWindow(13, 3), 256, 176, 128, kL1, kL0Half);
    EXPECT_EQ(loads.stepDepth, 24u);
    EXPECT_EQ(loads.weightChunkChannels, 16u);
    EXPECT_EQ(loads.dyBandChunks, 12u);
}

// A 256-channel block: one C0out of the weights (147 KiB) overflows its quarter and takes the excess
// from dy's, whose 21 C1 are cut to a multiple of the pair, 20 (CANN's basic-block figures).
TEST(CubeConv2DBackpropInputTiling, AWeightPairOverflowingItsQuarterShrinksDysLoad) {
    const Fp32InputGradLoads loads = fp32InputGradLoads(sameWindow(13, 3), 256, 128, 256, kL1, kL0Half);
    EXPECT_EQ(loads.weightChunkChannels, 16u);
    EXPECT_EQ(loads.dyBandChunks, 10u);
}

// 27 × 27, 5 × 5, 192 dy channels, a 256-position × 64-channel block: neither 200 nor 40 fits an L0
// half beside 256 positions (no step of CANN's: the planner's own); weights two C1, dy ten C1 of
// the block's 15 rows.
TEST(CubeConv2DBackpropInputTiling, TwentySevenByTwentySevenKeepsThePlannersStepAndFiveChunksADyLoad) {
    const Fp32InputGradLoads loads = fp32InputGradLoads(sameWindow(27, 5), 192, 256, 64, kL1, kL0Half);
    EXPECT_EQ(loads.stepDepth, 0u);
    EXPECT_EQ(loads.weightChunkChannels, 16u);
    EXPECT_EQ(loads.dyBandChunks, 5u);
}

// A small block takes one C0 of every tap, and never more C1 than dy has.
TEST(CubeConv2DBackpropInputTiling, FewChannelsAreLoadedWhole) {
    const Fp32InputGradLoads loads = fp32InputGradLoads(sameWindow(8, 3), 8, 64, 16, kL1, kL0Half);
    EXPECT_EQ(loads.stepDepth, 72u);
    EXPECT_EQ(loads.weightChunkChannels, 8u);
    EXPECT_EQ(loads.dyBandChunks, 1u);
}

}  // namespace
}  // namespace ascendsim::test
