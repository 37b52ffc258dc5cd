// Lowering and streaming a ResNet-50 (batch 32) sized set of cube kernels: every shape lowers and
// memory stays flat (one tile's instructions in flight per block). Generation speed is measured by
// the benchmarks (docs/performance.md), not asserted here.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

struct ConvLayer {
    std::int64_t c, hw, co, k, stride;
};

TEST(CubeProgramGeneration, ResNet50ConvolutionsStreamOneTileAtATime) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // only lowering: tensor addresses need no backing GM
    // The distinct conv shapes of ResNet-50 stages (input channels, spatial, output channels, kernel, stride).
    const std::vector<ConvLayer> layers{{3, 224, 64, 7, 2},    {64, 56, 64, 1, 1},    {64, 56, 64, 3, 1},
                                        {64, 56, 256, 1, 1},   {256, 56, 128, 1, 1},  {128, 56, 128, 3, 2},
                                        {128, 28, 512, 1, 1},  {512, 28, 256, 1, 1},  {256, 28, 256, 3, 2},
                                        {256, 14, 1024, 1, 1}, {1024, 14, 512, 1, 1}, {512, 14, 512, 3, 2},
                                        {512, 7, 2048, 1, 1}};
    const std::int64_t batch = 32;
    std::uint64_t instructions = 0, maxChunk = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const auto& l : layers) {
        const std::int64_t pad = l.k / 2, out = (l.hw + 2 * pad - l.k) / l.stride + 1;
        auto op = makeOp("Conv2D", {h.tensor("x", {batch, l.c, l.hw, l.hw}, DataType::Fp16),
                                    h.tensor("w", {l.co, l.c, l.k, l.k}, DataType::Fp16)},
                         {h.tensor("y", {batch, l.co, out, out}, DataType::Fp16)});
        op.attrs["strides"] = std::vector<std::int64_t>{l.stride, l.stride};
        op.attrs["pads"] = std::vector<std::int64_t>{pad, pad, pad, pad};
        const auto kernel = h.lower(op).at(0);
        std::vector<Instruction> chunk;
        for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
            auto stream = kernel.program({block, CoreKind::Cube, 0, 0});
            while (stream->next(chunk)) {
                instructions += chunk.size();
                maxChunk = std::max<std::uint64_t>(maxChunk, chunk.size());
                chunk.clear();
            }
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double nsPerInstruction = seconds * 1e9 / static_cast<double>(instructions);
    std::printf("ResNet-50 b32 conv shapes: %llu instructions, %.1f ns each, largest chunk %llu\n",
                static_cast<unsigned long long>(instructions), nsPerInstruction,
                static_cast<unsigned long long>(maxChunk));
    EXPECT_GT(instructions, 300'000u);  // enough work for the per-instruction time to mean something
    EXPECT_LT(maxChunk, 20'000u);  // one tile at a time, not a block's whole program
}

}  // namespace
}  // namespace ascendsim::test
