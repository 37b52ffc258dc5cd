// A forward convolution whose channel chunk is narrower than one C0 block (the fp32 stem: C = 3 in
// one C0 block of 8, 11 × 11 taps, chunks of 2 channels) reads the NC1HWC0 band of that block once
// for the chunks that share it (CubeBufferPlan::bChunkSpan) and streams its weight chunks through
// two slots of their own, unless its weights stay resident beside two such bands
// (docs/fidelity.md §131). Chunks of one C0 block or more keep their own slab.
#include <gtest/gtest.h>

#include <variant>

#include "models/kernels/cube/conv/conv2d_operands.h"
#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_conv_runs.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// Two fp32 images of 8 channels 40 × 40, 16 output channels, 11 × 11 stride 4 pad 2 (9 × 9 out).
const ConvShape kStem{2, 8, 40, 40, 16, 11, 11, 4, 4, 2, 2, 2, 2};

ChipConfig chipWithL1(std::uint64_t bytes) {
    ChipConfig chip = ascend910B1();
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = bytes;
    return chip;
}

void planOneBlock(const ChipConfig& chip, const ConvProblem& p, ConvTiling& tiling, CubeBufferPlan& plan) {
    OpInstance op = makeOp("Conv2D", {}, {});
    op.blockDim = 1;
    planConv(op, chip, p, tiling, plan);
}

// GM -> L1 moves of block 0 that read tensor `t`.
std::uint64_t gmToL1LoadsFrom(const LoweredKernel& kernel, const TensorInfo& t) {
    std::uint64_t loads = 0;
    for (const auto& instruction : blockProgram(kernel, 0)) {
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (move && move->src == MemSpace::GM && move->dst == MemSpace::L1 && move->srcAddr >= t.deviceAddr &&
            move->srcAddr < t.deviceAddr + t.bytes())
            ++loads;
    }
    return loads;
}

// Runs the stem on `chip` in one block against the reference and returns its x and w GM -> L1 bytes
// and its x loads.
void runStem(const ChipConfig& chip, std::uint64_t& xBytes, std::uint64_t& wBytes, std::uint64_t& xLoads) {
    const ConvForwardRun run = runConvForward(chip, kStem, 1u, DataType::Fp32, "fp32 stem");
    xBytes = gmToL1BytesFrom(run.kernels.at(0), 0, run.x);
    wBytes = gmToL1BytesFrom(run.kernels.at(0), 0, run.w);
    xLoads = gmToL1LoadsFrom(run.kernels.at(0), run.x);
}

// 160 KiB of L1: the 62 KiB of weights do not fit beside two 40-row bands of the C0 block (2 ×
// 51 KiB), so they stream, 2-channel chunk by chunk, while each image's band is read once.
TEST(CubeConv2DC0Band, ChunksNarrowerThanC0ShareOneBandAndStreamTheirWeights) {
    const ChipConfig chip = chipWithL1(160 * 1024);
    ConvTiling tiling;
    CubeBufferPlan streamed;
    planOneBlock(chip, fp32StemConvProblem(), tiling, streamed);
    ASSERT_EQ(tiling.chunkChannels, 2u);
    EXPECT_FALSE(streamed.residentA);
    EXPECT_EQ(streamed.bChunkSpan, 4u);  // 8 channels of the C0 block / 2 a chunk
    EXPECT_EQ(streamed.aChunkSpan, 1u);
    EXPECT_EQ(streamed.l1ASlotAddr, 2 * streamed.l1SlotBytes);
    EXPECT_LE(streamed.l1ASlotAddr + 2 * streamed.l1ASlotBytes, chip.bufferCapacity(MemSpace::L1));

    std::uint64_t xBytes = 0, wBytes = 0, xLoads = 0;
    runStem(chip, xBytes, wBytes, xLoads);
    // The lowering's position tiles are 80 (kernel-row steps, docs/fidelity.md §142): an image's 81
    // positions are two tiles, 80 (output rows 0-8, all 40 input rows) and 1 (row 8: input rows
    // 30-39).
    const std::uint64_t row = 8u * 40 * 4, weights = 16u * 8 * 121 * 4;
    EXPECT_EQ(xLoads, 4u);                    // one band a position tile, not one a chunk
    EXPECT_EQ(xBytes, 2 * (40 + 10) * row);   // each tile's rows once
    EXPECT_EQ(wBytes, 4 * weights);           // the weights once per position tile
}

// With the whole 512 KiB the weights stay resident beside two bands: read once, and the chunks keep
// their own slabs in the resident plan (the all-channel band of §135 is for streamed weights).
TEST(CubeConv2DC0Band, WeightsThatFitBesideTwoBandsStayResident) {
    const ChipConfig chip = ascend910B1();
    ConvTiling tiling;
    CubeBufferPlan resident;
    planOneBlock(chip, fp32StemConvProblem(), tiling, resident);
    EXPECT_TRUE(resident.residentA);
    EXPECT_EQ(resident.bChunkSpan, 1u);

    std::uint64_t xBytes = 0, wBytes = 0, xLoads = 0;
    runStem(chip, xBytes, wBytes, xLoads);
    // Each chunk its own slab: 1-channel chunks (the fp32 forward's two L0 steps of 121 taps,
    // docs/fidelity.md §135), on the lowering's two position tiles an image (80 and 1, §142).
    EXPECT_EQ(xLoads, 2u * 2 * 8);
    EXPECT_EQ(wBytes, 16u * 8 * 121 * 4);
    EXPECT_EQ(xBytes, 2u * 8 * (40 + 10) * 40 * 4);
}

// A chunk of whole C0 blocks (16 fp32 channels of 32, 3 × 3) is its own band.
TEST(CubeConv2DC0Band, ChunksOfWholeC0BlocksKeepTheirOwnSlab) {
    ConvProblem p = fp32StemConvProblem();
    p.inChannels = 32;
    p.window.kernelH = p.window.kernelW = 3;
    p.window.strideH = p.window.strideW = 1;
    p.window.padTop = p.window.padLeft = 1;
    p.window.outH = p.window.outW = 40;
    ConvTiling tiling;
    CubeBufferPlan chunks;
    planOneBlock(chipWithL1(160 * 1024), p, tiling, chunks);
    EXPECT_EQ(tiling.chunkChannels % 8, 0u);
    EXPECT_EQ(chunks.bChunkSpan, 1u);
}

}  // namespace
}  // namespace ascendsim::test
