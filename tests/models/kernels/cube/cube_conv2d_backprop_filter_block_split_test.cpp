// CANN's block split of the split cube's fp32 filter gradient (conv2d_backprop_filter_block_split.h,
// docs/fidelity.md §151): the cube cache tiling's cycle-model search, and the lowering that follows it.
#include <gtest/gtest.h>

#include "models/kernels/cube/conv/conv2d_backprop_filter_block_split.h"
#include "tests/models/kernels/cube/filter_grad_test_op.h"
#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

ConvWindow squareWindow(std::uint64_t in, std::uint64_t out, std::uint32_t kernel, std::uint32_t stride) {
    ConvWindow w;
    w.inH = w.inW = in;
    w.outH = w.outW = out;
    w.kernelH = w.kernelW = kernel;
    w.strideH = w.strideW = stride;
    return w;
}

FilterGradBlockSplit alexNetSplit(std::uint64_t in, std::uint64_t out, std::uint32_t kernel, std::uint32_t stride,
                                  std::uint64_t xChannels, std::uint64_t dyChannels) {
    return cannFilterGradBlockSplit(squareWindow(in, out, kernel, stride), 32, xChannels, dyChannels, 4, true, 24,
                                    512 * 1024);
}

// The AlexNet 910B2 dw rows (fp32, 32 images, 24 cores, e5a31957): the search's block splits all use
// the 24 cores the export records, and their L0 blocks are GetMN0's on each block's share.
TEST(CubeConv2DBackpropFilterBlockSplit, CannSearchSplitsTheAlexNetRowsOverTheirBlockDim) {
    struct Expected {
        std::uint64_t in, out;
        std::uint32_t kernel, stride;
        std::uint64_t x, dy;
        std::uint32_t batch, m, k, n, baseM, baseK, baseN;
        std::uint64_t cout, cin, rows, images;
    };
    const Expected rows[] = {
        {13, 13, 3, 1, 256, 256, 4, 2, 3, 1, 128, 32, 256, 128, 256, 5, 8},
        {13, 13, 3, 1, 384, 256, 2, 2, 3, 2, 128, 32, 192, 128, 192, 5, 16},
        {13, 13, 3, 1, 192, 384, 1, 4, 3, 2, 96, 16, 288, 96, 96, 5, 32},
        {27, 27, 5, 1, 64, 192, 2, 1, 6, 2, 192, 32, 160, 192, 32, 5, 16},
        {224, 55, 11, 4, 3, 64, 2, 1, 12, 1, 64, 32, 176, 64, 8, 5, 16},
    };
    for (const Expected& e : rows) {
        const FilterGradBlockSplit s = alexNetSplit(e.in, e.out, e.kernel, e.stride, e.x, e.dy);
        SCOPED_TRACE(std::to_string(e.x) + " -> " + std::to_string(e.dy));
        EXPECT_EQ(s.blocks(), 24u);
        EXPECT_EQ(std::vector<std::uint32_t>({s.batchDim, s.mDim, s.kDim, s.nDim}),
                  std::vector<std::uint32_t>({e.batch, e.m, e.k, e.n}));
        EXPECT_EQ(std::vector<std::uint32_t>({s.baseM, s.baseK, s.baseN}), std::vector<std::uint32_t>({e.baseM, e.baseK, e.baseN}));
        EXPECT_EQ(std::vector<std::uint64_t>({s.coutPerBlock, s.cinPerBlock, s.rowsPerBlock, s.imagesPerBlock}),
                  std::vector<std::uint64_t>({e.cout, e.cin, e.rows, e.images}));
    }
}

// When the launch's block dim is the search's, each block reduces its images and output rows into its
// output-channel × input-channel share of dw and stores every tile of it once, atomically, after a
// zero-fill: 2 images of 10 × 10 → 48 channels over a 3 × 3 kernel from 40 input channels split
// batch 2 × m 3 × n 3 (16 / 16 / 8 input channels, 16 output channels a block); block 0 stores its
// one 16 × 144 tile once, reads dy's 16 channels of its image once and x's 16 channels of it. The
// gradient is the reference, with and without a k (output-row) split.
TEST(CubeConv2DBackpropFilterBlockSplit, BlocksReduceTheirShareAndStoreEachTileOnce) {
    const ConvShape s{2, 40, 10, 10, 48, 3, 3};
    ConvWindow w = squareWindow(10, 8, 3, 1);
    const ChipConfig chip = ascend910B1();
    const FilterGradBlockSplit split = cannFilterGradBlockSplit(w, 2, 40, 48, 4, true, chip.aiCoreCount,
                                                                chip.bufferCapacity(MemSpace::L1));
    ASSERT_EQ(std::vector<std::uint32_t>({split.batchDim, split.mDim, split.kDim, split.nDim}),
              std::vector<std::uint32_t>({2, 3, 1, 3}));
    CubeOpHarness h(chip);
    TensorInfo x, dy, dw;
    auto op = filterGradOp(h, s, x, dy, dw, DataType::Fp32);
    op.blockDim = split.blocks();
    const std::vector<LoweredKernel> kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 2u);  // the zero-fill, then the cube kernel
    const LoweredKernel& kernel = kernels.back();
    ASSERT_EQ(kernel.blockDim, 18u);
    auto stream = kernel.program({0, CoreKind::Cube, 0});
    std::vector<Instruction> program;
    while (stream->next(program)) {
    }
    std::uint64_t stores = 0;
    for (const auto& i : program)
        if (i.opcode == Opcode::DataMove && std::get<DataMove>(i.operands).src == MemSpace::L0C) {
            EXPECT_TRUE(std::get<DataMove>(i.operands).atomicAdd);
            ++stores;
        }
    EXPECT_EQ(stores, 1u);
    EXPECT_EQ(gmToL1BytesFrom(kernel, 0, dy), 16u * 64 * 4);
    EXPECT_EQ(gmToL1BytesFrom(kernel, 0, x), 16u * 100 * 4);

    const auto xv = h.fillRandom(x), dyv = h.fillRandom(dy);
    h.fill(dw, 555.0f);  // the zero-fill kernel clears it
    h.run(op);
    // fp32 runs as hf32 (convTypes): the tolerance of cube_conv2d_backprop_filter_test's fp32 cases.
    expectNear(h.read(dw), referenceConvFilterGrad(s, xv, dyv), 2e-2, 5e-3, "fp32 dw, batch × m × n split");

    const ConvShape rows{8, 64, 13, 13, 64, 3, 3, 1, 1, 1, 1, 1, 1};
    const FilterGradBlockSplit kSplit = cannFilterGradBlockSplit(squareWindow(13, 13, 3, 1), 8, 64, 64, 4, true,
                                                                 chip.aiCoreCount, chip.bufferCapacity(MemSpace::L1));
    ASSERT_EQ(kSplit.kDim, 3u);
    CubeOpHarness h2(chip);
    auto op2 = filterGradOp(h2, rows, x, dy, dw, DataType::Fp32);
    op2.blockDim = kSplit.blocks();
    const auto xv2 = h2.fillRandom(x), dyv2 = h2.fillRandom(dy);
    h2.run(op2);
    expectNear(h2.read(dw), referenceConvFilterGrad(rows, xv2, dyv2), 2e-2, 5e-3, "fp32 dw, k split");
}

// A launch whose block dim is not the search's keeps the whole-output-row shares (§136).
TEST(CubeConv2DBackpropFilterBlockSplit, AnotherBlockDimKeepsTheOutputRowShares) {
    const ConvShape s{2, 40, 10, 10, 48, 3, 3};
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    TensorInfo x, dy, dw;
    auto op = filterGradOp(h, s, x, dy, dw, DataType::Fp32);
    op.blockDim = 4;
    const LoweredKernel kernel = h.lower(op).back();
    EXPECT_EQ(kernel.blockDim, 4u);
    const auto xv = h.fillRandom(x), dyv = h.fillRandom(dy);
    h.run(op);
    expectNear(h.read(dw), referenceConvFilterGrad(s, xv, dyv), 2e-2, 5e-3, "fp32 dw, output-row shares");
}

}  // namespace
}  // namespace ascendsim::test
