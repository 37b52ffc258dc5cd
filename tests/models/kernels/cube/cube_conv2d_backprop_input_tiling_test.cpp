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

struct ExpectedLoads {
    std::uint32_t stepDepth, weightChunkChannels, dyBandChunks;
};

void expectLoads(const Fp32InputGradLoads& loads, const ExpectedLoads& expected) {
    EXPECT_EQ(loads.stepDepth, expected.stepDepth);
    EXPECT_EQ(loads.weightChunkChannels, expected.weightChunkChannels);
    EXPECT_EQ(loads.dyBandChunks, expected.dyBandChunks);
}

// 13 × 13, 3 × 3, 256 dy channels, a 176-position × 128-channel block: one C0 of all nine taps (72)
// overflows an L0 half, one kernel row's (24) fits; the weights' quarter holds three C1 of the
// block, paired down to two (16 channels); dy's quarter holds 24 C1 of the whole 13-row plane.
TEST(CubeConv2DBackpropInputTiling, ThirteenByThirteenTakesKernelRowStepsAndTwelveWeightChunksADyLoad) {
    expectLoads(fp32InputGradLoads(sameWindow(13, 3), 256, 176, 128, kL1, kL0Half), {24, 16, 12});
}

// A 256-channel block: one C0out of the weights (147 KiB) overflows its quarter and takes the excess
// from dy's, whose 21 C1 are cut to a multiple of the pair, 20 (CANN's basic-block figures).
TEST(CubeConv2DBackpropInputTiling, AWeightPairOverflowingItsQuarterShrinksDysLoad) {
    expectLoads(fp32InputGradLoads(sameWindow(13, 3), 256, 128, 256, kL1, kL0Half), {24, 16, 10});
}

// 27 × 27, 5 × 5, 192 dy channels, a 256-position × 64-channel block: neither 200 nor 40 fits an L0
// half beside 256 positions (no step of CANN's: the planner's own); weights two C1, dy ten C1 of
// the block's 15 rows.
TEST(CubeConv2DBackpropInputTiling, TwentySevenByTwentySevenKeepsThePlannersStepAndFiveChunksADyLoad) {
    expectLoads(fp32InputGradLoads(sameWindow(27, 5), 192, 256, 64, kL1, kL0Half), {0, 16, 5});
}

// A small block takes one C0 of every tap, and never more C1 than dy has.
TEST(CubeConv2DBackpropInputTiling, FewChannelsAreLoadedWhole) {
    expectLoads(fp32InputGradLoads(sameWindow(8, 3), 8, 64, 16, kL1, kL0Half), {72, 8, 1});
}

}  // namespace
}  // namespace ascendsim::test
