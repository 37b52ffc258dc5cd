// Conv2D and Conv2DBackpropInput lowered programs, executed on the FunctionalMachine, match naive
// NCHW references for strides, padding, dilation, groups and 1x1/3x3/7x7 kernels, for every
// block_dim (1, the default, one that does not divide the tiles).
#include <gtest/gtest.h>

#include <set>

#include "models/kernels/cube/conv/conv2d_geometry.h"
#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_conv_runs.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

std::string describe(const ConvShape& s, std::optional<std::uint32_t> blockDim) {
    return "conv n" + std::to_string(s.n) + " c" + std::to_string(s.c) + " " + std::to_string(s.h) + "x" +
           std::to_string(s.w) + " co" + std::to_string(s.co) + " k" + std::to_string(s.kh) + "x" + std::to_string(s.kw) +
           " s" + std::to_string(s.sh) + " p" + std::to_string(s.pt) + " d" + std::to_string(s.dh) + " g" +
           std::to_string(s.groups) + " blockDim " + (blockDim ? std::to_string(*blockDim) : "default");
}

// `outputC0` != 0: y marked stored NC1HWC0 with that C0 (kConvOutputC0Attr), as the replay marks it.
std::vector<LoweredKernel> runConv(const ChipConfig& chip, const ConvShape& s, std::optional<std::uint32_t> blockDim,
                                   DataType dtype = DataType::Fp16, std::int64_t outputC0 = 0) {
    CubeOpHarness h(chip);
    auto x = h.tensor("x", {s.n, s.c, s.h, s.w}, dtype);
    auto w = h.tensor("w", {s.co, s.c / s.groups, s.kh, s.kw}, dtype);
    const DataType outType = dtype == DataType::Int8 ? DataType::Int32 : DataType::Fp32;
    auto y = h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, outType);
    const bool int8 = dtype == DataType::Int8;
    const auto xv = int8 ? h.fillRandom(x, -128, 127) : h.fillRandom(x);
    const auto wv = int8 ? h.fillRandom(w, -128, 127) : h.fillRandom(w);
    h.fill(y, 777.0f);
    auto op = makeOp("Conv2D", {x, w}, {y});
    setConvAttrs(op, s);
    if (outputC0 != 0) op.attrs[kConvOutputC0Attr] = outputC0;
    op.blockDim = blockDim;
    auto kernels = h.run(op);
    expectNear(h.read(y), referenceConv(s, xv, wv), int8 ? 0.0 : 1e-3, int8 ? 0.0 : 1e-4, describe(s, blockDim));
    return kernels;
}

std::vector<LoweredKernel> runInputGrad(const ChipConfig& chip, const ConvShape& s,
                                       std::optional<std::uint32_t> blockDim, DataType dtype = DataType::Fp16,
                                       std::int64_t outputC0 = 0) {
    return runConvInputGrad(chip, s, blockDim, dtype, outputC0, "input grad " + describe(s, blockDim));
}

const std::vector<std::optional<std::uint32_t>> kBlockDims{1u, std::nullopt, 3u};

TEST(CubeConv2D, Stride1Pad1ThreeByThreeMatchesReference) {
    const auto chip = ascend910B1();
    for (auto blockDim : kBlockDims) runConv(chip, {2, 20, 12, 11, 24, 3, 3, 1, 1, 1, 1, 1, 1}, blockDim);
}

TEST(CubeConv2D, Stride2SevenBySevenStemMatchesReference) {
    const auto chip = ascend910B1();
    for (auto blockDim : kBlockDims) runConv(chip, {1, 3, 30, 30, 16, 7, 7, 2, 2, 3, 3, 3, 3}, blockDim);
}

TEST(CubeConv2D, OneByOneStride2AndManyChannelsMatchesReference) {
    const auto chip = ascend910B1();
    for (auto blockDim : kBlockDims) runConv(chip, {2, 150, 9, 9, 140, 1, 1, 2, 2}, blockDim);
}

TEST(CubeConv2D, PositionTilesSpanningSeveralRowsAndChunksMatchReference) {
    const auto chip = ascend910B1();
    // 300 output positions over 3 position tiles, 40 channels over 3 channel chunks.
    runConv(chip, {1, 40, 20, 15, 18, 3, 3, 1, 1, 1, 1, 1, 1}, 4u);
}

// One channel chunk and two co-tiles: with resident weights a block reloads them when its tiles
// move to the next co-tile, and only after the last step that reads the old ones (the hazard
// checker names a missing MTE1->MTE2 "weights free" flag).
TEST(CubeConv2D, ResidentWeightsReloadedAtACoTileChangeMatchReference) {
    const auto chip = ascend910B1();
    for (auto blockDim : kBlockDims) runConv(chip, {2, 16, 6, 6, 140, 1, 1}, blockDim);
    runConv(coupledChip(), {2, 16, 6, 6, 140, 1, 1}, 1u);
    // The 1x1 input gradient keeps its transposed weight runs resident the same way.
    for (auto blockDim : kBlockDims) runInputGrad(chip, {2, 140, 8, 8, 40, 1, 1, 2, 2}, blockDim);
}

// Weights that stream through L1 (an L1 too small to keep them resident) and a 13x13 output plane
// (169 positions): the forward conv takes the whole plane as one position tile (planConv), so
// each image reads every weight once, where 128-position tiles read them twice; the result still
// matches the reference, and the input gradient keeps 128-position tiles.
TEST(CubeConv2D, StreamedWeightsTakeAWholeOutputPlanePerTile) {
    ChipConfig chip = ascend910B1();
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = 32 * 1024;
    const ConvShape s{2, 32, 13, 13, 64, 3, 3, 1, 1, 1, 1, 1, 1};  // 36 KiB of weights
    const auto kernels = runConv(chip, s, 1u);
    CubeOpHarness h(chip, 1 << 20);  // lowering only: GM→L1 bytes of the weight tensor
    auto w = h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16);
    auto op = makeOp("Conv2D", {h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp16), w},
                     {h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32)});
    setConvAttrs(op, s);
    op.blockDim = 1u;
    EXPECT_EQ(gmToL1BytesFrom(h.lower(op).at(0), 0, w), static_cast<std::uint64_t>(s.n * w.bytes()));
    runInputGrad(chip, s, 1u);
}

TEST(CubeConv2D, DilationAndGroupsMatchReference) {
    const auto chip = ascend910B1();
    ConvShape s{1, 8, 10, 10, 12, 3, 3, 1, 1, 2, 2, 2, 2};
    s.dh = s.dw = 2;
    s.groups = 2;
    runConv(chip, s, std::nullopt);
}

TEST(CubeConv2D, Int8IsExact) {
    const auto chip = ascend910B1();
    runConv(chip, {1, 16, 8, 8, 32, 3, 3, 2, 2, 1, 1, 1, 1}, std::nullopt, DataType::Int8);
}

// The 910A's forward convolution keeps one L1 buffer (conv2d.cpp, forwardConvSingleBuffersL1): MTE2
// loads a chunk only after MTE1 freed the one before, so every "L1 free" wait names the one slot's
// event; the 910B ping-pongs two. Both compute the reference over several channel chunks.
TEST(CubeConv2D, CoupledChipForwardConvLoadsIntoOneL1Buffer) {
    const ConvShape s{1, 40, 20, 15, 18, 3, 3, 1, 1, 1, 1, 1, 1};  // 2 channel chunks, 3 position tiles
    for (const bool coupled : {false, true}) {
        const ChipConfig chip = coupled ? coupledChip() : ascend910B1();
        runConv(chip, s, 1u);
        CubeOpHarness h(chip);
        auto op = makeOp("Conv2D", {h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp16),
                                    h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16)},
                         {h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32)});
        setConvAttrs(op, s);
        op.blockDim = 1u;
        const auto kernels = h.lower(op);
        auto stream = kernels[0].program(BlockProgramRequest{.blockIdx = 0, .coreKind = CoreKind::Cube});
        std::vector<Instruction> code;
        while (stream->next(code)) {
        }
        std::set<std::uint8_t> slotEvents;  // events 0/1: the L1 data slots (cube_block_event_ids.h)
        std::size_t loads = 0;
        for (const Instruction& instr : code) {
            if (const auto* m = std::get_if<DataMove>(&instr.operands); m && m->src == MemSpace::GM && m->dst == MemSpace::L1)
                ++loads;
            const auto* f = std::get_if<Flag>(&instr.operands);
            if (instr.opcode == Opcode::WaitFlag && f && f->src == Pipe::Mte1 && f->dst == Pipe::Mte2 && f->eventId < 2)
                slotEvents.insert(f->eventId);
        }
        EXPECT_GT(loads, 2u);
        const std::set<std::uint8_t> expected = coupled ? std::set<std::uint8_t>{0} : std::set<std::uint8_t>{0, 1};
        EXPECT_EQ(slotEvents, expected) << chip.name;
    }
}

// What one block's program of a 13x13 Conv2D moves: weight bytes GM->L1 and GM->L0A, img2col loads
// into L0B and mmads.
struct ConvBlockTraffic {
    std::uint64_t weightBytesToL1 = 0, weightBytesToL0A = 0;
    std::size_t img2colsToL0B = 0, mmads = 0;
};

ConvBlockTraffic forwardConvTraffic(const ChipConfig& chip, const ConvShape& s, std::uint32_t blockDim) {
    CubeOpHarness h(chip, 1 << 22);  // lowering only
    auto w = h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16);
    auto op = makeOp("Conv2D", {h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp16), w},
                     {h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32)});
    setConvAttrs(op, s);
    op.blockDim = blockDim;
    auto stream = h.lower(op).at(0).program(BlockProgramRequest{.blockIdx = 0, .coreKind = CoreKind::Cube});
    std::vector<Instruction> code;
    while (stream->next(code)) {
    }
    ConvBlockTraffic t;
    for (const Instruction& instr : code) {
        if (const auto* m = std::get_if<DataMove>(&instr.operands);
            m && m->src == MemSpace::GM && m->srcAddr >= w.deviceAddr && m->srcAddr < w.deviceAddr + w.bytes()) {
            if (m->dst == MemSpace::L1) t.weightBytesToL1 += m->totalBytes();
            if (m->dst == MemSpace::L0A) t.weightBytesToL0A += m->totalBytes();
        }
        if (const auto* l = std::get_if<Img2ColLoad>(&instr.operands); l && l->dst == MemSpace::L0B) ++t.img2colsToL0B;
        if (std::holds_alternative<Mmad>(instr.operands)) ++t.mmads;
    }
    return t;
}

// The 910A's per-image schedule (conv2d.cpp forwardConvWeightsFromGm, planConv): weights that do not
// fit the coupled chip's L1 (shrunk to 64 KiB here: 300 x 288 fp16 = 169 KiB) are never staged in L1
// but move GM->L0A step by step, and an image's co-tiles (128, 128, 44) share each img2col step in
// L0B two at a time (two 128 x 176 fp32 L0C regions fit the 256 KiB L0C). The FunctionalMachine
// checks the result and the flags; one block of two images reads every weight once an image, and
// makes each image's img2col twice (a group of two co-tiles, then the third) for three mmads. With
// the full 1 MiB L1 the weights fit and go through L1 as before; the 910B1 keeps its path too.
TEST(CubeConv2D, CoupledChipStreamsWeightsThatExceedL1StraightToL0AndSharesTheImg2col) {
    ChipConfig chip = coupledChip();
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = 64 * 1024;
    const ConvShape s{2, 32, 13, 13, 300, 3, 3, 1, 1, 1, 1, 1, 1};
    for (const std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1u}, {2u}, {}})
        runConv(chip, s, blockDim);
    const std::uint64_t weightBytes = std::uint64_t{300} * 32 * 9 * 2;
    const ConvBlockTraffic direct = forwardConvTraffic(chip, s, 1u);
    EXPECT_EQ(direct.weightBytesToL1, 0u);
    EXPECT_EQ(direct.weightBytesToL0A, s.n * weightBytes);
    EXPECT_GT(direct.img2colsToL0B, 0u);
    EXPECT_EQ(direct.mmads * 2, direct.img2colsToL0B * 3);

    const ConvBlockTraffic staged = forwardConvTraffic(coupledChip(), s, 1u);
    EXPECT_EQ(staged.weightBytesToL0A, 0u);
    EXPECT_GT(staged.weightBytesToL1, 0u);
    EXPECT_EQ(staged.mmads, staged.img2colsToL0B);
    ChipConfig splitChip = ascend910B1();
    splitChip.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = 64 * 1024;
    EXPECT_EQ(forwardConvTraffic(splitChip, s, 1u).weightBytesToL0A, 0u);
}

TEST(CubeConv2D, CoupledChipRunsTheSameLowering) {
    const auto chip = coupledChip();
    runConv(chip, {1, 16, 10, 10, 16, 3, 3, 1, 1, 1, 1, 1, 1}, std::nullopt);
}

TEST(CubeConv2DBackpropInput, StridedPaddedThreeByThreeMatchesReference) {
    const auto chip = ascend910B1();
    for (auto blockDim : kBlockDims) runInputGrad(chip, {2, 12, 11, 11, 20, 3, 3, 2, 2, 1, 1, 1, 1}, blockDim);
}

TEST(CubeConv2DBackpropInput, OneByOneAndSevenBySevenMatchReference) {
    const auto chip = ascend910B1();
    runInputGrad(chip, {1, 40, 8, 8, 24, 1, 1, 2, 2}, std::nullopt);
    runInputGrad(chip, {1, 3, 20, 20, 8, 7, 7, 2, 2, 3, 3, 3, 3}, 5u);
}

// A 1x1 input gradient reads the weights transposed on the cube: one kernel. Larger kernels first
// transpose the weights into the workspace with a vector TransData, which the cube kernel reads.
TEST(CubeConv2DBackpropInput, WeightTransDataPrecedesTheCubeKernelBeyondOneByOne) {
    const auto chip = ascend910B1();
    const auto oneByOne = runInputGrad(chip, {1, 40, 8, 8, 24, 1, 1, 2, 2}, std::nullopt);
    ASSERT_EQ(oneByOne.size(), 1u);
    EXPECT_EQ(oneByOne[0].type, TaskType::AiCore);
    EXPECT_EQ(oneByOne[0].workspaceBytes, 0u);

    const auto threeByThree = runInputGrad(chip, {2, 12, 11, 11, 20, 3, 3, 2, 2, 1, 1, 1, 1}, std::nullopt);
    ASSERT_EQ(threeByThree.size(), 2u);
    EXPECT_EQ(threeByThree[0].reportedOpType, "TransData");
    EXPECT_EQ(threeByThree[0].type, TaskType::AiVectorCore);
    EXPECT_EQ(threeByThree[1].type, TaskType::AiCore);
    const std::uint64_t weightBytes = 20 * 12 * 3 * 3 * 2;
    EXPECT_EQ(threeByThree[0].workspaceBytes, weightBytes);
    EXPECT_EQ(threeByThree[1].workspaceBytes, weightBytes);
}

// What a lowered input-gradient cube kernel does on block 0: its position tiles (FixPipe stores
// and the widest one's positions) and how many of its L1 → L0A weight moves gather C0 vectors.
struct InputGradSchedule {
    std::uint64_t stores = 0, widestStorePositions = 0, weightMoves = 0, gatheringMoves = 0;
};
InputGradSchedule inputGradSchedule(const LoweredKernel& cube) {
    InputGradSchedule schedule;
    for (const Instruction& i : blockProgram(cube, 0)) {
        if (i.opcode != Opcode::DataMove) continue;
        const auto& m = std::get<DataMove>(i.operands);
        if (m.src == MemSpace::L0C) {
            ++schedule.stores;
            schedule.widestStorePositions = std::max<std::uint64_t>(schedule.widestStorePositions, m.burstBytes / 4);
        }
        if (m.src == MemSpace::L1 && m.dst == MemSpace::L0A) {
            ++schedule.weightMoves;
            schedule.gatheringMoves += m.gathersC0Vectors;
        }
    }
    return schedule;
}

// CANN's fp32 input gradient on the 220x (docs/fidelity.md §77): 256-position base blocks (one
// position tile for a 16 × 16 plane where the default takes two of 128) and every weight move a
// transposing Load3Dv2 that gathers C0 vectors; the result still matches the reference. The fp16
// variant and the coupled 910A keep 128-position tiles and plain weight moves.
TEST(CubeConv2DBackpropInput, Fp32OnTheSplitCubeTakes256PositionTilesAndGathersItsWeightLoads) {
    const ConvShape s{1, 16, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1};  // 256 dx positions, 16 channels
    const auto fp32 = runInputGrad(ascend910B1(), s, 1u, DataType::Fp32);
    ASSERT_EQ(fp32.size(), 2u);
    const InputGradSchedule wide = inputGradSchedule(fp32[1]);
    EXPECT_EQ(wide.stores, 1u);
    EXPECT_EQ(wide.widestStorePositions, 256u);
    ASSERT_GT(wide.weightMoves, 0u);
    EXPECT_EQ(wide.gatheringMoves, wide.weightMoves);

    const auto fp16 = runInputGrad(ascend910B1(), s, 1u, DataType::Fp16);
    const InputGradSchedule narrow = inputGradSchedule(fp16.at(1));
    EXPECT_EQ(narrow.stores, 2u);
    EXPECT_EQ(narrow.widestStorePositions, 128u);
    EXPECT_EQ(narrow.gatheringMoves, 0u);

    const ChipConfig coupled = coupledChip();
    CubeOpHarness h(coupled, 1 << 20);  // lowering only
    auto op = makeOp("Conv2DBackpropInput",
                     {h.tensor("dy", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32),
                      h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp32)},
                     {h.tensor("dx", {s.n, s.c, s.h, s.w}, DataType::Fp32)});
    setConvAttrs(op, s);
    op.attrs["input_size"] = std::vector<std::int64_t>{s.n, s.c, s.h, s.w};
    op.blockDim = 1u;
    const InputGradSchedule tbe = inputGradSchedule(h.lower(op).at(1));
    EXPECT_EQ(tbe.stores, 2u);
    EXPECT_EQ(tbe.gatheringMoves, 0u);
}

// The scalar work of each fp32 weight load after it: CANN's 220x input gradient issues one
// transposing Load3Dv2 per C0 (8 fp32) of the step's K (ops-nn conv3d_backprop_input_v2 arch22
// `LoadToB2Pro`, docs/fidelity.md §122), so a step of k costs k / 8 − 1 issues beyond the move's
// own; fp16 (one Load2D transpose a fractal) issues one move and no further scalar work.
std::vector<std::pair<std::uint32_t, std::uint32_t>> weightLoadIssues(const LoweredKernel& cube) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> issues;  // (scalar cycles after the load, mmad k)
    const auto program = blockProgram(cube, 0);
    for (std::size_t i = 0; i < program.size(); ++i) {
        if (program[i].opcode != Opcode::DataMove) continue;
        const auto& m = std::get<DataMove>(program[i].operands);
        if (m.src != MemSpace::L1 || m.dst != MemSpace::L0A) continue;
        std::uint32_t cycles = 0;
        if (i + 1 < program.size() && program[i + 1].opcode == Opcode::Scalar)
            cycles = std::get<ScalarWork>(program[i + 1].operands).cycles;
        std::size_t j = i + 1;
        while (j < program.size() && program[j].opcode != Opcode::Mmad) ++j;
        if (j < program.size()) issues.emplace_back(cycles, std::get<Mmad>(program[j].operands).k);
    }
    return issues;
}

TEST(CubeConv2DBackpropInput, Fp32WeightLoadsIssueOneLoad3dPerC0OfTheStep) {
    ChipConfig chip = ascend910B1();
    chip.scalarCyclesPerInstructionAic = 29;
    const ConvShape s{1, 16, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto fp32 = runInputGrad(chip, s, 1u, DataType::Fp32);
    const auto issues = weightLoadIssues(fp32.at(1));
    ASSERT_FALSE(issues.empty());
    bool deepStep = false;
    for (const auto& [cycles, k] : issues) {
        EXPECT_EQ(cycles, ((k + 7u) / 8u - 1u) * 29u) << "step k " << k;
        deepStep |= k > 8;
    }
    EXPECT_TRUE(deepStep);

    const auto fp16 = runInputGrad(chip, s, 1u, DataType::Fp16);
    for (const auto& [cycles, k] : weightLoadIssues(fp16.at(1))) EXPECT_EQ(cycles, 0u) << "fp16 step k " << k;
}

// The 220x forward convolution's FixPipe stores wait for the cube on a plain event (TBE's conv
// kernel: no mmad unit flag, docs/fidelity.md §122), so FixPipe busy is the store alone, as for the
// convolution gradients (§115); the coupled chip stores through UB and has no FixPipe wait.
TEST(CubeConv2D, TheSplitCubesForwardStoresWaitOnAPlainEvent) {
    const ConvShape s{1, 16, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto lowered = [&s](const ChipConfig& chip) {
        CubeOpHarness h(chip, 1 << 20);  // lowering only
        auto op = makeOp("Conv2D", {h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp32),
                                    h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp32)},
                         {h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32)});
        setConvAttrs(op, s);
        op.blockDim = 1u;
        return fixPipeStoreWaitsOf(h.lower(op).at(0));
    };
    const FixPipeStoreWaits split = lowered(ascend910B1());
    ASSERT_GT(split.stores, 0);
    EXPECT_EQ(split.plain, split.stores);
    EXPECT_EQ(split.unit, 0);
    const FixPipeStoreWaits coupled = lowered(coupledChip());
    EXPECT_EQ(coupled.plain + coupled.unit, 0);
}

// The 220x convolutions write fp32 output with FixPipe's channel split (one C0 vector a cycle,
// DataMove::fixpipeChannelSplit, docs/fidelity.md §126): every store of the forward and the input
// gradient on the split cube with fp32 output splits; fp16 output (C0 = 16, the fractal row) does
// not, nor the coupled chip (no FixPipe); the filter gradient is left out (§126).
struct ChannelSplitStores {
    int stores = 0, split = 0;
};
ChannelSplitStores channelSplitStores(const std::vector<LoweredKernel>& kernels) {
    ChannelSplitStores c;
    for (const LoweredKernel& kernel : kernels)
        for (const Instruction& i : blockProgram(kernel, 0)) {
            if (i.opcode != Opcode::DataMove) continue;
            const DataMove& m = std::get<DataMove>(i.operands);
            if (m.src != MemSpace::L0C) continue;
            ++c.stores;
            c.split += m.fixpipeChannelSplit;
        }
    return c;
}

TEST(CubeConv2D, TheSplitCubesFp32StoresWriteOneC0VectorACycle) {
    const ConvShape s{1, 16, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto forward = [&s](const ChipConfig& chip, DataType dtype) {
        CubeOpHarness h(chip, 1 << 20);  // lowering only
        auto op = makeOp("Conv2D", {h.tensor("x", {s.n, s.c, s.h, s.w}, dtype),
                                    h.tensor("w", {s.co, s.c, s.kh, s.kw}, dtype)},
                         {h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, dtype)});
        setConvAttrs(op, s);
        op.blockDim = 1u;
        return channelSplitStores(h.lower(op));
    };
    const ChannelSplitStores fp32 = forward(ascend910B1(), DataType::Fp32);
    ASSERT_GT(fp32.stores, 0);
    EXPECT_EQ(fp32.split, fp32.stores);
    EXPECT_EQ(forward(ascend910B1(), DataType::Fp16).split, 0);
    EXPECT_EQ(forward(coupledChip(), DataType::Fp32).split, 0);

    const ChannelSplitStores dx = channelSplitStores(runInputGrad(ascend910B1(), s, 1u, DataType::Fp32));
    ASSERT_GT(dx.stores, 0);
    EXPECT_EQ(dx.split, dx.stores);

    const ChipConfig split = ascend910B1();
    CubeOpHarness h(split, 1 << 20);
    auto dw = makeOp("Conv2DBackpropFilter", {h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp32),
                                              h.tensor("dy", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32)},
                     {h.tensor("dw", {s.co, s.c, s.kh, s.kw}, DataType::Fp32)});
    setConvAttrs(dw, s);
    dw.attrs["filter_size"] = std::vector<std::int64_t>{s.co, s.c, s.kh, s.kw};
    dw.blockDim = 1u;
    const ChannelSplitStores dwStores = channelSplitStores(h.lower(dw));
    ASSERT_GT(dwStores.stores, 0);
    EXPECT_EQ(dwStores.split, 0);
}

// The GM stores of the output (FixPipe's L0C → GM on the split cores, MTE3's UB → GM on the coupled
// ones): how many, how many carry the 5HD layout, and whether each one's runs are whole C0 cells.
struct OutputStores {
    int stores = 0, nc1hwc0 = 0, wholeCells = 0;
};
OutputStores outputStoresOf(const std::vector<LoweredKernel>& kernels, const TensorInfo& out, std::uint64_t cellBytes) {
    OutputStores c;
    for (const LoweredKernel& kernel : kernels)
        for (const Instruction& i : blockProgram(kernel, 0)) {
            if (i.opcode != Opcode::DataMove) continue;
            const DataMove& m = std::get<DataMove>(i.operands);
            if (m.dst != MemSpace::GM || m.dstAddr < out.deviceAddr || m.dstAddr >= out.deviceAddr + out.bytes()) continue;
            ++c.stores;
            if (!m.gm5hd.present()) continue;
            ++c.nc1hwc0;
            const std::uint64_t burstBytes = m.burstBytes / bytesOf(m.srcType) * bytesOf(m.dstType);
            const GmBursts runs = nc1hwc0Bursts(m.gm5hd, m.dstAddr, m.burstCount, burstBytes, burstBytes + m.dstGapBytes);
            c.wholeCells += (runs.address - out.deviceAddr) % cellBytes == 0 && runs.burstBytes % cellBytes == 0;
        }
    return c;
}

// The replay marks a recorded conv's y (and dx) NC1HWC0 (docs/fidelity.md §133f): its stores carry
// the 5HD layout for timing (a run of the tile's positions × 32 B cells per C1 block) while the
// functional data stays NCHW: the values still match the reference, on both core organisations.
TEST(CubeConv2D, AnOutputStoredNc1hwc0KeepsItsValuesAndStoresWholeCells) {
    const ConvShape s{2, 20, 12, 11, 24, 3, 3, 1, 1, 1, 1, 1, 1};  // 24 channels: 3 fp32 C1 blocks of 8
    const std::uint64_t fp32Cell = 8 * 4;
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        for (auto blockDim : kBlockDims) runConv(chip, s, blockDim, DataType::Fp16, 8);
        CubeOpHarness h(chip, 1 << 20);  // lowering only: the stores' layout
        auto y = h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32);
        auto op = makeOp("Conv2D", {h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp16),
                                    h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16)},
                         {y});
        setConvAttrs(op, s);
        op.blockDim = 1u;
        const OutputStores nchw = outputStoresOf(h.lower(op), y, fp32Cell);
        ASSERT_GT(nchw.stores, 0);
        EXPECT_EQ(nchw.nc1hwc0, 0);
        op.attrs[kConvOutputC0Attr] = std::int64_t{8};
        const OutputStores cells = outputStoresOf(h.lower(op), y, fp32Cell);
        EXPECT_EQ(cells.stores, nchw.stores);
        EXPECT_EQ(cells.nc1hwc0, cells.stores);
        EXPECT_EQ(cells.wholeCells, cells.stores);
    }
    for (auto blockDim : kBlockDims) runInputGrad(ascend910B1(), s, blockDim, DataType::Fp16, 8);
    runInputGrad(coupledChip(), s, 1u, DataType::Fp16, 8);
    const ChipConfig split = ascend910B1();
    CubeOpHarness h(split, 1 << 20);
    auto dx = h.tensor("dx", {s.n, s.c, s.h, s.w}, DataType::Fp32);  // 20 channels: C1 3, the last padded
    auto op = makeOp("Conv2DBackpropInput", {h.tensor("dy", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp16),
                                             h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16)},
                     {dx});
    setConvAttrs(op, s);
    op.attrs["input_size"] = std::vector<std::int64_t>{s.n, s.c, s.h, s.w};
    op.attrs[kConvOutputC0Attr] = std::int64_t{8};
    op.blockDim = 1u;
    const OutputStores cells = outputStoresOf(h.lower(op), dx, fp32Cell);
    ASSERT_GT(cells.stores, 0);
    EXPECT_EQ(cells.nc1hwc0, cells.stores);
    EXPECT_EQ(cells.wholeCells, cells.stores);
}

TEST(CubeConv2D, ShapeAndBiasMismatchesAreLoweringErrors) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto x = h.tensor("x", {1, 8, 10, 10}, DataType::Fp16);
    auto w = h.tensor("w", {16, 8, 3, 3}, DataType::Fp16);
    auto wrongY = h.tensor("y", {1, 16, 10, 10}, DataType::Fp16);  // needs padding 1 for 10x10
    EXPECT_THROW(h.lower(makeOp("Conv2D", {x, w}, {wrongY})), LoweringError);
    auto y = h.tensor("y", {1, 16, 8, 8}, DataType::Fp16);
    EXPECT_NO_THROW(h.lower(makeOp("Conv2D", {x, w}, {y})));
    EXPECT_THROW(h.lower(makeOp("Conv2D", {x, w, h.tensor("b", {8}, DataType::Fp16)}, {y})), LoweringError);
    auto op = makeOp("Conv2D", {x, w}, {y});
    op.attrs["strides"] = std::vector<std::int64_t>{0, 1};
    EXPECT_THROW(h.lower(op), LoweringError);
}

TEST(CubeConv2D, BiasIsAddedPerOutputChannelByAFollowingVectorKernel) {
    const auto chip = ascend910B1();
    for (DataType dtype : {DataType::Fp16, DataType::Fp32}) {
        CubeOpHarness h(chip);
        const ConvShape s{2, 8, 9, 9, 20, 3, 3, 2, 2, 1, 1, 1, 1};
        auto x = h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp16);
        auto w = h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16);
        auto bias = h.tensor("bias", {s.co}, dtype);
        auto y = h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, dtype);
        const auto xv = h.fillRandom(x), wv = h.fillRandom(w), bv = h.fillRandom(bias, -4, 4);
        auto op = makeOp("Conv2D", {x, w, bias}, {y});
        setConvAttrs(op, s);
        const auto kernels = h.run(op);
        ASSERT_EQ(kernels.size(), 2u);
        EXPECT_EQ(kernels[1].type, TaskType::AiVectorCore);
        auto expected = referenceConv(s, xv, wv);
        const std::size_t plane = static_cast<std::size_t>(s.outH() * s.outW());
        for (std::size_t i = 0; i < expected.size(); ++i) expected[i] += bv[(i / plane) % static_cast<std::size_t>(s.co)];
        const bool half = dtype == DataType::Fp16;
        expectNear(h.read(y), expected, half ? 1e-2 : 1e-3, half ? 2e-3 : 1e-4, "conv bias");
    }
}

TEST(CubeConv2D, InstructionCountScalesWithBatchAndChannels) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto kernelFor = [&](std::int64_t n, std::int64_t c) {
        auto op = makeOp("Conv2D", {h.tensor("x", {n, c, 14, 14}, DataType::Fp16), h.tensor("w", {64, c, 3, 3}, DataType::Fp16)},
                         {h.tensor("y", {n, 64, 14, 14}, DataType::Fp16)});
        op.attrs["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
        op.blockDim = 1;
        return countProgram(h.lower(op).at(0), {0, CoreKind::Cube, 0});
    };
    // 48 and 96 input channels are one and two whole reduction chunks of a 3×3 kernel (48 channels:
    // k = 432 = 4 L0 steps of at most 128), so the step count doubles exactly.
    const auto base = kernelFor(1, 48), twoImages = kernelFor(2, 48), moreChannels = kernelFor(1, 96);
    EXPECT_EQ(twoImages.mmads, 2 * base.mmads);
    EXPECT_EQ(moreChannels.mmads, 2 * base.mmads);
    EXPECT_EQ(base.img2cols, base.mmads);  // every L0 step expands its im2col columns once
}


TEST(CubeConv2D, SmallChannelCountsReduceOverCPaddedToC0) {
    // NC1HWC0 / FRACTAL_Z pad C to C0 = 32 B of elements, so a C = 3 stem's cube K is
    // C0·kh·kw (16·25 fp16, 8·25 fp32), not 3·25; the padded columns are zeros, so y is unchanged.
    const auto chip = ascend910B1();
    const ConvShape s{2, 3, 20, 20, 16, 5, 5, 2, 2, 1, 1, 1, 1};
    for (const auto& [dtype, c0] : std::vector<std::pair<DataType, std::uint64_t>>{{DataType::Fp16, 16}, {DataType::Fp32, 8}}) {
        if (dtype == DataType::Fp16) runConv(chip, s, std::nullopt, dtype);  // fp32 runs as hf32: looser
        CubeOpHarness h(chip);
        auto op = makeOp("Conv2D", {h.tensor("x", {s.n, s.c, s.h, s.w}, dtype), h.tensor("w", {s.co, s.c, s.kh, s.kw}, dtype)},
                         {h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32)});
        op.attrs["strides"] = std::vector<std::int64_t>{s.sh, s.sw};
        op.attrs["pads"] = std::vector<std::int64_t>{s.pt, s.pb, s.pl, s.pr};
        const LoweredKernel kernel = h.lower(op).at(0);
        std::uint64_t macs = 0;
        for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
            auto stream = kernel.program({block, CoreKind::Cube, 0, 0});
            std::vector<Instruction> chunk;
            while (stream->next(chunk)) {
                for (const auto& instruction : chunk)
                    if (const auto* m = std::get_if<Mmad>(&instruction.operands))
                        macs += std::uint64_t{m->m} * m->k * m->n;
                chunk.clear();
            }
        }
        const auto outputs = static_cast<std::uint64_t>(s.n * s.co * s.outH() * s.outW());
        EXPECT_EQ(macs, outputs * c0 * static_cast<std::uint64_t>(s.kh * s.kw)) << dataTypeName(dtype);
    }
}

}  // namespace
}  // namespace ascendsim::test
