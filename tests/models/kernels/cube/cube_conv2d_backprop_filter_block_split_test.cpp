// CANN's block split of the split cube's fp32 filter gradient (conv2d_backprop_filter_block_split.h,
// docs/fidelity.md §151): the cube cache tiling's cycle-model search, and the lowering that follows it.
#include <gtest/gtest.h>

#include <map>

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

// The cube kernel of an fp32 dw of `s` on the 910B1, launched on the AlexNet 910B2 rows' 24 blocks,
// with the tensors it reads and writes (the harness keeps a reference to `chip`, declared first).
struct FilterGradOn24Blocks {
    explicit FilterGradOn24Blocks(const ConvShape& s) : kernel(lower(s)) {}
    ChipConfig chip = ascend910B1();
    CubeOpHarness h{chip};
    TensorInfo x, dy, dw;
    LoweredKernel kernel;

private:
    LoweredKernel lower(const ConvShape& s) {
        auto op = filterGradOp(h, s, x, dy, dw, DataType::Fp32);
        op.blockDim = 24;
        return h.lower(op).back();
    }
};

// How many mmads of each depth (k) a block's program issues.
std::map<std::uint32_t, std::uint64_t> mmadDepths(const std::vector<Instruction>& program) {
    std::map<std::uint32_t, std::uint64_t> depths;
    for (const auto& i : program)
        if (i.opcode == Opcode::Mmad) ++depths[std::get<Mmad>(i.operands).k];
    return depths;
}

// The AlexNet 910B2 dw rows (fp32, 32 images, 24 cores, e5a31957): the search's block splits all use
// the 24 cores the export records, and their L0 blocks are GetMN0's on each block's share. A block's
// k share is the cache tiling's single-core k of flattened positions (64 of the 13 × 13 rows' 169, 128
// of the 27 × 27 row's 729, 256 of the stem's 3025), not whole output rows (65, 135, 275), and its L1
// block (CalcKal1 / CalcKbl1) is that whole share, in two buffers but on the stem, whose second AL1 and
// BL1 do not fit (SetDoubleBuffer).
TEST(CubeConv2DBackpropFilterBlockSplit, CannSearchSplitsTheAlexNetRowsOverTheirBlockDim) {
    struct Expected {
        std::uint64_t in, out;
        std::uint32_t kernel, stride;
        std::uint64_t x, dy;
        std::uint32_t batch, m, k, n, baseM, baseK, baseN;
        std::uint64_t cout, cin, positions, images;
        std::uint32_t l1Positions, l1Buffers;
    };
    const Expected rows[] = {
        {13, 13, 3, 1, 256, 256, 4, 2, 3, 1, 128, 32, 256, 128, 256, 64, 8, 64, 2},
        {13, 13, 3, 1, 384, 256, 2, 2, 3, 2, 128, 32, 192, 128, 192, 64, 16, 64, 2},
        {13, 13, 3, 1, 192, 384, 1, 4, 3, 2, 96, 16, 288, 96, 96, 64, 32, 64, 2},
        {27, 27, 5, 1, 64, 192, 2, 1, 6, 2, 192, 32, 160, 192, 32, 128, 16, 128, 2},
        {224, 55, 11, 4, 3, 64, 2, 1, 12, 1, 64, 32, 176, 64, 8, 256, 16, 256, 1},
    };
    for (const Expected& e : rows) {
        const FilterGradBlockSplit s = alexNetSplit(e.in, e.out, e.kernel, e.stride, e.x, e.dy);
        SCOPED_TRACE(std::to_string(e.x) + " -> " + std::to_string(e.dy));
        EXPECT_EQ(s.blocks(), 24u);
        EXPECT_EQ(std::vector<std::uint32_t>({s.batchDim, s.mDim, s.kDim, s.nDim}),
                  std::vector<std::uint32_t>({e.batch, e.m, e.k, e.n}));
        EXPECT_EQ(std::vector<std::uint32_t>({s.baseM, s.baseK, s.baseN}), std::vector<std::uint32_t>({e.baseM, e.baseK, e.baseN}));
        EXPECT_EQ(std::vector<std::uint64_t>({s.coutPerBlock, s.cinPerBlock, s.positionsPerBlock, s.imagesPerBlock}),
                  std::vector<std::uint64_t>({e.cout, e.cin, e.positions, e.images}));
        EXPECT_EQ(std::vector<std::uint32_t>({s.l1Positions, s.l1Buffers}), std::vector<std::uint32_t>({e.l1Positions, e.l1Buffers}));
    }
}

// When the launch's block dim is the search's, each block reduces its images and positions into its
// output-channel × input-channel share of dw and stores every tile of it once, atomically, after a
// zero-fill: 2 images of 10 × 10 → 48 channels over a 3 × 3 kernel from 40 input channels split
// batch 2 × m 3 × n 3 (16 / 16 / 8 input channels, 16 output channels a block); block 0 stores its
// one 16 × 144 tile once, reads dy's 16 channels of its image once and x's 16 channels of it. The
// gradient is the reference, with and without a k split (64 + 64 + 41 of 169 positions, two of
// the shares starting inside an output row).
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
    // Each step's dy is a Load3D into L0A (positions × co), which the cube reads transposed.
    std::uint64_t mmads = 0, dyLoad3ds = 0;
    for (const auto& i : program) {
        if (i.opcode == Opcode::Img2Col && std::get<Img2ColLoad>(i.operands).chipDst == MemSpace::L0A &&
            std::get<Img2ColLoad>(i.operands).dst == MemSpace::L0A)
            ++dyLoad3ds;
        if (i.opcode != Opcode::Mmad) continue;
        ++mmads;
        EXPECT_TRUE(std::get<Mmad>(i.operands).transposeA);
    }
    EXPECT_GT(mmads, 0u);
    EXPECT_EQ(dyLoad3ds, mmads);
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

// The AlexNet 910B2 27 × 27 dw row (x [32,64,27,27] → dy [32,192,27,27], 5 × 5, pad 2): its k split of
// 6 gives a block 128 of an image's 729 positions (the TBE binary schedule's hw split), so every
// step of blocks 0-4 is a whole 32-position L0 step, 4 an image through each of the 5 column tiles
// of 160 (16 images: 320 mmads); whole output rows (135 positions) took 5 steps an image, the last
// of 7 positions. The last k share holds the image's other 89 positions (32 + 32 + 25).
TEST(CubeConv2DBackpropFilterBlockSplit, TheKShareIsFlattenedPositionsInWholeSteps) {
    const FilterGradOn24Blocks lowered({32, 64, 27, 27, 192, 5, 5, 1, 1, 2, 2, 2, 2});
    const LoweredKernel& kernel = lowered.kernel;
    ASSERT_EQ(kernel.blockDim, 24u);
    EXPECT_EQ(mmadDepths(blockProgram(kernel, 0)), (std::map<std::uint32_t, std::uint64_t>{{32, 320}}));
    EXPECT_EQ(mmadDepths(blockProgram(kernel, 4)), (std::map<std::uint32_t, std::uint64_t>{{32, 320}}));
    EXPECT_EQ(mmadDepths(blockProgram(kernel, 5)), (std::map<std::uint32_t, std::uint64_t>{{25, 80}, {32, 160}}));
}

// The AlexNet 910B2 stem's dw (x [32,8,224,224] as the export's one C1 of 8, dy [32,64,55,55],
// 11 × 11 / 4, pad 2): CANN's L1 block is the block's whole 256-position share in one buffer (its
// second AL1 and BL1 do not fit beside the first), so block 0 loads dy and x once an image and
// column tile (16 images × 6 column tiles of 176) where 128-position chunks loaded them twice, runs
// 8 whole 32-position steps on each, and moves x's rows as whole C0 blocks of 8 channels.
TEST(CubeConv2DBackpropFilterBlockSplit, TheStemHoldsItsWholeShareInOneL1Load) {
    const FilterGradOn24Blocks lowered({32, 8, 224, 224, 64, 11, 11, 4, 4, 2, 2, 2, 2});
    const LoweredKernel& kernel = lowered.kernel;
    const TensorInfo& x = lowered.x;
    ASSERT_EQ(kernel.blockDim, 24u);
    const std::vector<Instruction> program = blockProgram(kernel, 0);
    std::uint64_t xLoads = 0, dyLoads = 0;
    for (const auto& i : program) {
        if (i.opcode != Opcode::DataMove) continue;
        const DataMove& m = std::get<DataMove>(i.operands);
        if (m.src != MemSpace::GM || m.dst != MemSpace::L1) continue;
        const bool fromX = m.srcAddr >= x.deviceAddr && m.srcAddr < x.deviceAddr + x.bytes();
        (fromX ? xLoads : dyLoads) += 1;
        if (fromX) {
            EXPECT_EQ(m.burstCount, 8u);  // every channel of the C1
        }
    }
    EXPECT_EQ(mmadDepths(program), (std::map<std::uint32_t, std::uint64_t>{{32, 16 * 6 * 8}}));
    EXPECT_EQ(xLoads, 16u * 6);
    EXPECT_EQ(dyLoads, 16u * 6);
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
