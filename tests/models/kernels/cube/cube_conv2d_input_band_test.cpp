// Input bands deeper than the weight chunks on the split cores (docs/fidelity.md §135): TBE's fp32
// forward convolution loads the position tile's input band of many channels into L1 at once while
// the weights stream through slots of their own in chunks of whole L0 steps (§156: the fewest whole
// C0 blocks of channels whose K is whole steps), and its L0 steps are whole C0 blocks (8 fp32)
// deep; the fp32 input gradient's dy loads serve two weight chunks each. fp16 and the coupled cores
// keep one slab a chunk and 16-element steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <variant>
#include <vector>

#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_conv_runs.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// Two images of 192 channels 13 × 13, 128 output channels, 3 × 3 pad 1 (the AlexNet 13 × 13 rows'
// planes): 864 KiB of fp32 weights do not stay in the 512 KiB L1, so each image is one whole-plane
// tile that streams them.
const ConvShape kPlane{2, 192, 13, 13, 128, 3, 3, 1, 1, 1, 1, 1, 1};

struct ForwardSchedule {
    std::uint64_t xLoads = 0, xBytes = 0, wLoads = 0, wBytes = 0, wLoadsReadByEveryBlock = 0;
    std::uint64_t mmads = 0, stepsNotWholeFractals = 0, stepsNotWholeC0 = 0;
};

// Runs kPlane in `blocks` blocks against the reference and returns what block 0 loads and its steps.
ForwardSchedule runPlane(const ChipConfig& chip, DataType dtype, std::uint32_t blocks = 1) {
    const ConvForwardRun run = runConvForward(chip, kPlane, blocks, dtype, chip.name);
    const TensorInfo &x = run.x, &w = run.w;
    const auto& kernels = run.kernels;
    ForwardSchedule s;
    for (const Instruction& instruction : blockProgram(kernels.at(0), 0)) {
        if (const auto* mmad = std::get_if<Mmad>(&instruction.operands)) {
            ++s.mmads;
            if (mmad->k % 16 != 0) ++s.stepsNotWholeFractals;
            if (mmad->k % 8 != 0) ++s.stepsNotWholeC0;
        }
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
        if (move->srcAddr >= x.deviceAddr && move->srcAddr < x.deviceAddr + x.bytes()) {
            ++s.xLoads;
            s.xBytes += move->totalBytes();
        }
        if (move->srcAddr >= w.deviceAddr && move->srcAddr < w.deviceAddr + w.bytes()) {
            ++s.wLoads;
            s.wBytes += move->totalBytes();
            if (move->linesReadByEveryBlock) ++s.wLoadsReadByEveryBlock;
        }
    }
    return s;
}

// fp32 on the split cube: 176-position tiles take 40-deep steps (32 KiB / (176 × 4 B) = 46, in
// C0 blocks of 8); a weight chunk is the fewest whole C0 blocks whose K is whole steps (40 channels
// × 9 taps = 360 = 9 steps; the last chunk's 32 channels 288 = 7 steps and 8), so a tile takes
// ⌈1728 / 40⌉ = 44 steps, not the 48 of two-step 8-channel chunks (72 = 40 + 32). Two 184 KiB
// weight chunks leave room for two bands of 80 channels: three band loads a tile, every channel's
// 13 rows once.
TEST(CubeConv2DInputBand, SplitCubeFp32StreamsWeightChunksOfWholeStepsBesideChannelBands) {
    const ForwardSchedule s = runPlane(ascend910B1(), DataType::Fp32);
    const std::uint64_t tiles = 2, chunks = 5;
    const std::uint64_t plane = 192u * 13 * 13 * 4, weights = 128u * 192 * 9 * 4;
    EXPECT_EQ(s.xLoads, tiles * 3);      // bands of 80, 80 and 32 channels
    EXPECT_EQ(s.xBytes, tiles * plane);  // every channel's 13 rows, once a tile
    EXPECT_EQ(s.wLoads, tiles * chunks);
    EXPECT_EQ(s.wBytes, 2 * weights);    // all the weights once an image
    EXPECT_EQ(s.mmads, tiles * 44);
    EXPECT_GT(s.stepsNotWholeFractals, 0u);  // the 40-deep steps
    EXPECT_EQ(s.stepsNotWholeC0, 0u);
    EXPECT_EQ(s.wLoadsReadByEveryBlock, 0u);  // one block: no other reader
}

// Two blocks, an image each: both read the same weight chunks in the same order, so every weight
// load is marked as read by every block (shared_line_requests.h); the input bands are not.
TEST(CubeConv2DInputBand, SplitCubeFp32WeightLoadsAreReadByEveryBlockWhenEachRunsWholeImages) {
    const ForwardSchedule s = runPlane(ascend910B1(), DataType::Fp32, 2);
    EXPECT_EQ(s.wLoads, 5u);
    EXPECT_EQ(s.wLoadsReadByEveryBlock, s.wLoads);
    // fp16 keeps its plan, and no mark.
    EXPECT_EQ(runPlane(ascend910B1(), DataType::Fp16, 2).wLoadsReadByEveryBlock, 0u);
}

// fp16 (C0 = 16: steps of whole fractals either way) and the coupled cores keep a slab a chunk
// (their weights fit L1 and stay resident; the slabs are the chunks').
TEST(CubeConv2DInputBand, Fp16AndTheCoupledCubeKeepOneSlabAChunk) {
    for (const auto& [chip, dtype] : {std::pair{ascend910B1(), DataType::Fp16}, std::pair{coupledChip(), DataType::Fp32}}) {
        const ForwardSchedule s = runPlane(chip, dtype);
        EXPECT_GT(s.xLoads, 2u) << chip.name;  // more than one slab a tile: a slab a chunk
        EXPECT_EQ(s.stepsNotWholeFractals, 0u) << chip.name;
    }
}

// dy [2,256,13,13] by w [256,128,3,3] into dx [2,128,13,13]: 4.5 MiB of weights stream, one
// 176-position tile an image. On the split cube in fp32 the weight chunks are CANN's (docs/fidelity.md
// §155): one 16-channel C0out of dy a load (16 a tile, where the planner's four 32-deep steps made
// 14-channel chunks, 19 a tile), stepped one kernel row of C0 deep (3 · 8 = 24: 72 does not fit an L0
// half beside 176 positions), each dy load serving two of them (8 a tile); fp16 loads dy with every
// chunk.
struct InputGradBandLoads {
    std::uint64_t dyLoads = 0, weightLoads = 0, mmads = 0, mmadsNot24Deep = 0;
};
InputGradBandLoads inputGradBandLoads(const ChipConfig& chip, DataType dtype) {
    const ConvShape s{2, 128, 13, 13, 256, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto kernels = runConvInputGrad(chip, s, 1u, dtype, 0, "dx");
    InputGradBandLoads schedule;
    for (const Instruction& instruction : blockProgram(kernels.back(), 0)) {
        if (const auto* mmad = std::get_if<Mmad>(&instruction.operands)) {
            ++schedule.mmads;
            if (mmad->k != 24) ++schedule.mmadsNot24Deep;
        }
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
        // The transposed weights sit in the launch workspace, whose addresses may alias the harness's
        // tensors: a weight chunk is the tile's 128 dx-channel rows, a dy band one run of channels.
        if (move->burstCount == 128) ++schedule.weightLoads;
        else ++schedule.dyLoads;
    }
    return schedule;
}

TEST(CubeConv2DInputBand, SplitCubeFp32InputGradientLoadsWholeC0outWeightChunksAndDyForTwoOfThem) {
    const InputGradBandLoads fp32 = inputGradBandLoads(ascend910B1(), DataType::Fp32);
    EXPECT_EQ(fp32.weightLoads, 2u * 16);
    EXPECT_EQ(fp32.dyLoads, 2u * 8);
    EXPECT_EQ(fp32.mmads, 2u * 256 * 9 / 24);  // every step a kernel row of C0 deep
    EXPECT_EQ(fp32.mmadsNot24Deep, 0u);
    const InputGradBandLoads fp16 = inputGradBandLoads(ascend910B1(), DataType::Fp16);
    EXPECT_EQ(fp16.dyLoads, fp16.weightLoads);
}

// dy [1,32,16,16] by w [32,16,5,5] (pad 2) into dx [1,16,16,16]: one 256-position tile, whose
// 32-deep steps make the planner's four-step chunk 5 dy channels, less than one C1 block of dy. On
// the split cube in fp32 the chunk is CANN's (docs/fidelity.md §143): whole C0out pairs as a
// quarter of L1 holds them, here every one of the 32 channels in one weight load beside one dy
// load; fp16 (C1 = 16) keeps the planner's chunks. The gradient is right either way
// (runConvInputGrad checks it).
std::vector<std::uint64_t> gmToL1Bytes(DataType dtype) {
    const ConvShape s{1, 16, 16, 16, 32, 5, 5, 1, 1, 2, 2, 2, 2};
    const auto kernels = runConvInputGrad(ascend910B1(), s, 1u, dtype, 0, "dx 5x5");
    std::vector<std::uint64_t> bytes;
    for (const Instruction& instruction : blockProgram(kernels.back(), 0)) {
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (move && move->src == MemSpace::GM && move->dst == MemSpace::L1) bytes.push_back(move->totalBytes());
    }
    return bytes;
}

TEST(CubeConv2DInputBand, SplitCubeFp32InputGradientWidensASubC1WeightChunkToWholeC0out) {
    const std::vector<std::uint64_t> fp32 = gmToL1Bytes(DataType::Fp32);
    ASSERT_EQ(fp32.size(), 2u);
    EXPECT_NE(std::find(fp32.begin(), fp32.end(), 16u * 32 * 25 * 4), fp32.end());  // every weight at once
    EXPECT_GT(gmToL1Bytes(DataType::Fp16).size(), 2u);
}

}  // namespace
}  // namespace ascendsim::test
