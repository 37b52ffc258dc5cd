// TransData NCHW ↔ NC1HWC0 by vnchwconv (fp16 everywhere, fp32 in cells of 8 or 16 channels on the
// 220x parts): layout against index arithmetic (packed channel blocks, column chunks of a long H·W,
// zero-padded C), and the program's vector work.
#include <gtest/gtest.h>

#include "models/kernels/layout/trans_data/trans_data_nchwconv.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

// NCHW [n, c, h, w] → NC1HWC0 element order in cells of c0 channels, padded channels 0.
std::vector<float> blockedOf(const std::vector<float>& x, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t c0) {
    const std::int64_t c1 = (c + c0 - 1) / c0;
    std::vector<float> y(static_cast<std::size_t>(n * c1 * hw * c0), 0.0f);
    for (std::int64_t b = 0; b < n; ++b)
        for (std::int64_t ch = 0; ch < c; ++ch)
            for (std::int64_t p = 0; p < hw; ++p)
                y[static_cast<std::size_t>(((b * c1 + ch / c0) * hw + p) * c0 + ch % c0)] =
                    x[static_cast<std::size_t>((b * c + ch) * hw + p)];
    return y;
}

// c0Attr: the op's "c0" (0 = 32 B of elements: 16 fp16, 8 fp32).
void checkRoundTrip(const ChipConfig& chip, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w,
                    DataType dtype = DataType::Fp16, std::int64_t c0Attr = 0) {
    const std::int64_t c0 = c0Attr != 0 ? c0Attr : 32 / static_cast<std::int64_t>(bytesOf(dtype));
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h5(chip);
        const auto x = h5.tensor("x", {n, c, h, w}, dtype);
        auto y = h5.tensor("y", {n, (c + c0 - 1) / c0 * c0, h, w}, dtype);  // C1·C0 channels
        y.format = TensorFormat::NC1HWC0;
        const auto xs = h5.fillRandom(x);
        auto there = makeOp("TransData", {x}, {y});
        there.attrs["dst_format"] = std::string("NC1HWC0");
        if (c0Attr != 0) there.attrs["c0"] = c0Attr;
        there.blockDim = blockDim;
        const auto kernels = h5.run(there);
        const auto expected = blockedOf(xs, n, c, h * w, c0);
        const auto got = h5.machine().readTensor(y.deviceAddr, dtype, expected.size());
        const std::string what = "NCHW → NC1HWC0 [" + std::to_string(n) + "," + std::to_string(c) + "," + std::to_string(h) +
                                 "," + std::to_string(w) + "], " + blockDimName(blockDim);
        ASSERT_EQ(got, expected) << what;
        if (c % c0 != 0) continue;  // the way back from padded channels is not modelled
        const auto back = h5.tensor("back", {n, c, h, w}, dtype);
        auto again = makeOp("TransData", {y}, {back});
        again.attrs["dst_format"] = std::string("NCHW");
        if (c0Attr != 0) again.attrs["c0"] = c0Attr;
        again.blockDim = blockDim;
        h5.run(again);
        EXPECT_EQ(h5.read(back), xs) << what << " and back";
    }
}

// vnchwconv repeats and every other vector instruction over every block of the kernels.
std::pair<std::uint64_t, std::uint64_t> nchwConvRepeatsAndOthers(const std::vector<LoweredKernel>& kernels) {
    std::uint64_t repeats = 0, others = 0;
    for (const auto& kernel : kernels)
        for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
            auto stream = kernel.program({block, CoreKind::Cube, 0});
            std::vector<Instruction> chunk;
            while (stream->next(chunk)) {
                for (const auto& instruction : chunk)
                    if (const auto* v = std::get_if<VectorInstr>(&instruction.operands))
                        (v->op == VectorOp::NchwConv ? repeats : others) += v->op == VectorOp::NchwConv ? v->repeats : 1;
                chunk.clear();
            }
        }
    return {repeats, others};
}

TEST(VectorTransDataNchwConv, SmallPlanesPackSeveralChannelBlocksPerTile) {
    checkRoundTrip(coupledChip(), 2, 48, 5, 3);   // H·W = 15: one repeat, 16 columns
    checkRoundTrip(ascend910B1(), 3, 32, 13, 13);  // H·W = 169: odd tail of 9 columns
}

TEST(VectorTransDataNchwConv, LongPlanesAreCutIntoColumnChunks) {
    checkRoundTrip(coupledChip(), 1, 32, 70, 70);  // H·W = 4900 > one tile's 2016 columns
}

TEST(VectorTransDataNchwConv, ChannelsShortOfC0ArePaddedWithZeros) {
    checkRoundTrip(coupledChip(), 2, 3, 9, 7);  // an image stem: C = 3 → C1 = 1, 13 zero channels
}

// Every vector instruction is a vnchwconv (no Gather table, no per-element moves): one repeat per
// 16 H·W positions of every channel block, 169 → 11 repeats for each of 32 · 16 blocks.
TEST(VectorTransDataNchwConv, EveryChannelBlockTakesOneRepeatPerSixteenPositions) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {32, 256, 13, 13}, DataType::Fp16);
    auto y = h.tensor("y", {32, 256, 13, 13}, DataType::Fp16);
    y.format = TensorFormat::NC1HWC0;
    auto op = makeOp("TransData", {x}, {y});
    op.attrs["dst_format"] = std::string("NC1HWC0");
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    const auto [repeats, others] = nchwConvRepeatsAndOthers(kernels);
    EXPECT_EQ(kernels[0].blockDim, 32u);
    EXPECT_EQ(repeats, 32u * 16u * 11u);
    EXPECT_EQ(others, 0u);
}


// fp32 on the 220x parts: vnchwconv's 32-bit mode, cells of 8 channels (NC1HWC0) and of 16 (the
// MaxPool kernels' NC1HWC0:1); packed blocks with a tail repeat, column chunks, a padded stem.
// Planes whose rows are whole 32 B blocks and planes whose rows are not (13 × 13, 55 × 55: the way
// back through the depad stage's block-aligned rows, §112).
TEST(VectorTransDataNchwConv, Fp32RoundTripsInCellsOfEightAndSixteenChannelsOnThe220xParts) {
    checkRoundTrip(ascend910B1(), 3, 32, 13, 13, DataType::Fp32);     // 676 B rows: 11 repeats, a tail of 9
    checkRoundTrip(ascend910B1(), 2, 32, 13, 13, DataType::Fp32, 16);
    checkRoundTrip(ascend910B1(), 1, 8, 55, 55, DataType::Fp32);      // 12100 B rows
    checkRoundTrip(ascend910B1(), 3, 32, 4, 6, DataType::Fp32);       // C0 = 8, H·W = 24: 16 + a tail of 8
    checkRoundTrip(ascend910B1(), 2, 32, 4, 6, DataType::Fp32, 16);   // C0 = 16
    checkRoundTrip(ascend910B1(), 1, 16, 72, 72, DataType::Fp32);     // H·W = 5184: column chunks
    checkRoundTrip(ascend910B1(), 1, 16, 72, 72, DataType::Fp32, 16);
    checkRoundTrip(ascend910B1(), 2, 3, 8, 6, DataType::Fp32);        // C = 3 → 5 zero channels
    checkRoundTrip(ascend910B1(), 2, 3, 8, 6, DataType::Fp32, 16);    // C = 3 → 13 zero channels
}

// An NCHW ↔ NC1HWC0 TransData of `shape` (NCHW) on the harness's chip; c0Attr as in checkRoundTrip.
OpInstance conversionOp(CubeOpHarness& h, const std::vector<std::int64_t>& shape, DataType dtype, bool toBlocked,
                        std::int64_t c0Attr = 0) {
    auto planar = h.tensor("x", shape, dtype);
    auto blocked = h.tensor("y", shape, dtype);
    blocked.format = TensorFormat::NC1HWC0;
    auto op = toBlocked ? makeOp("TransData", {planar}, {blocked}) : makeOp("TransData", {blocked}, {planar});
    op.attrs["dst_format"] = std::string(toBlocked ? "NC1HWC0" : "NCHW");
    if (c0Attr != 0) op.attrs["c0"] = c0Attr;
    return op;
}

// The vector work of an fp32 conversion: one 32-bit vnchwconv repeat per 512 B of cells (16
// positions of 8-channel cells, 8 of 16-channel cells) and no other vector instruction, whether a
// plane's rows are whole 32 B blocks (16 × 16) or not (13 × 13: 11 repeats a channel block). The
// 910A keeps fp32 off vnchwconv (its Intrinsic_vnchwconv lists no 32-bit type).
TEST(VectorTransDataNchwConv, Fp32TakesOneRepeatPer512BytesOfCellsWhereVnchwconvTakes32BitElements) {
    auto count = [](const ChipConfig& chip, std::int64_t c0Attr, bool toBlocked, std::int64_t side) {
        CubeOpHarness h(chip);
        return nchwConvRepeatsAndOthers(h.lower(conversionOp(h, {32, 256, side, side}, DataType::Fp32, toBlocked, c0Attr)));
    };
    for (const bool toBlocked : {true, false}) {
        // 16 × 16 = 256 positions: 16 repeats for each of 32 · 32 eight-channel blocks, 32 for 32 · 16
        EXPECT_EQ(count(ascend910B1(), 0, toBlocked, 16), std::pair(std::uint64_t{32} * 32 * 16, std::uint64_t{0}));
        EXPECT_EQ(count(ascend910B1(), 16, toBlocked, 16), std::pair(std::uint64_t{32} * 16 * 32, std::uint64_t{0}));
        EXPECT_EQ(count(ascend910B1(), 0, toBlocked, 13), std::pair(std::uint64_t{32} * 32 * 11, std::uint64_t{0}));
        const auto gathered = count(coupledChip(), 0, toBlocked, 16);
        EXPECT_EQ(gathered.first, 0u);
        EXPECT_GT(gathered.second, 0u);
    }
}

// What the blocks of a conversion run (the leading scalar work: block 0's, before its first move).
struct DslSteps {
    std::uint32_t leadingScalarCycles = 0;
    std::uint64_t loads = 0, stores = 0, barriers = 0;
    std::uint64_t depadMoves = 0, depadBursts = 0;  // UB → UB moves and their bursts
    bool depadRowsWholeBlocks = true, storesReadDepadRows = true;
};

DslSteps dslStepsOf(const ChipConfig& chip, DataType dtype, bool toBlocked) {
    CubeOpHarness h(chip);
    const auto kernels = h.lower(conversionOp(h, {8, 64, 13, 13}, dtype, toBlocked));
    DslSteps steps;
    for (std::uint32_t block = 0; block < kernels.at(0).blockDim; ++block) {
        bool moved = block > 0;
        std::uint64_t depadRows = ~std::uint64_t{0};
        auto stream = kernels.at(0).program({block, CoreKind::Vector, 0});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                if (const auto* work = std::get_if<ScalarWork>(&instruction.operands); work && !moved)
                    steps.leadingScalarCycles += work->cycles;
                if (instruction.opcode == Opcode::Barrier) ++steps.barriers;
                const auto* m = std::get_if<DataMove>(&instruction.operands);
                if (m == nullptr) continue;
                moved = true;
                if (m->src == MemSpace::GM) ++steps.loads;
                if (m->dst == MemSpace::GM) {
                    ++steps.stores;
                    steps.storesReadDepadRows = steps.storesReadDepadRows && m->srcAddr == depadRows;
                }
                if (m->src == MemSpace::UB && m->dst == MemSpace::UB) {
                    ++steps.depadMoves, steps.depadBursts += m->burstCount, depadRows = m->dstAddr;
                    steps.depadRowsWholeBlocks = steps.depadRowsWholeBlocks && m->burstBytes % 32 == 0 && m->dstGapBytes == 0;
                }
            }
            chunk.clear();
        }
    }
    return steps;
}

// CANN's DSL TransData for 32-bit data on the 220x parts (§112): a block first picks its tiling case
// on the scalar unit; one buffer a queue. The way back runs its tiles in series (every tile ends with
// a PIPE_ALL barrier) and copies every transposed channel row of 676 B to a block-aligned row on the
// vector pipe, and the store reads those; the way in ends its tiles without a barrier (the forward
// schedule's load and transpose output are two buffers: the next load runs beside this store, §164b). The 16-bit form (the 910A's fp16 conversions, §20) keeps its
// double-buffered overlap and none of these steps.
TEST(VectorTransDataNchwConv, Fp32RunsAsTheDslSchedulesItOnThe220xParts) {
    for (const bool toBlocked : {true, false}) {
        const DslSteps dsl = dslStepsOf(ascend910B1(), DataType::Fp32, toBlocked);
        EXPECT_GE(dsl.leadingScalarCycles, kDslTransDataDispatchScalarCycles);
        EXPECT_GT(dsl.loads, 0u);
        EXPECT_EQ(dsl.stores, dsl.loads);    // a tile: one load, one store
        EXPECT_EQ(dsl.barriers, toBlocked ? 0u : dsl.loads);  // and one barrier on the way back
        EXPECT_EQ(dsl.depadMoves, toBlocked ? 0u : dsl.loads);
        if (!toBlocked) {
            EXPECT_EQ(dsl.depadBursts, 8u * 64u);  // every channel row once
            EXPECT_TRUE(dsl.depadRowsWholeBlocks);
            EXPECT_TRUE(dsl.storesReadDepadRows);
        }
        const DslSteps fp16 = dslStepsOf(coupledChip(), DataType::Fp16, toBlocked);
        EXPECT_LT(fp16.leadingScalarCycles, kDslTransDataDispatchScalarCycles);
        EXPECT_EQ(fp16.barriers, 0u);
        EXPECT_EQ(fp16.depadMoves, 0u);
    }
}

// The planar loads of an fp32 way in of `shape` on the 910B1 (burst bytes of each), over every block.
std::vector<std::uint64_t> planarLoadBurstsOf(const std::vector<std::int64_t>& shape, std::int64_t c0Attr) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto kernels = h.lower(conversionOp(h, shape, DataType::Fp32, true, c0Attr));
    std::vector<std::uint64_t> bursts;
    for (std::uint32_t block = 0; block < kernels.at(0).blockDim; ++block) {
        auto stream = kernels.at(0).program({block, CoreKind::Vector, 0});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk)
                if (const auto* m = std::get_if<DataMove>(&instruction.operands); m && m->src == MemSpace::GM)
                    bursts.push_back(m->burstBytes);
            chunk.clear();
        }
    }
    return bursts;
}

// The DSL tiling cuts a plane longer than a tile at its UB bound ((UB − 2560 B) / 2 live tensors,
// a block stride of at most 255) into equal pieces (transdata_dsl_general.cc OnceTiling, §164b):
// a 55 × 55 plane in 2 pieces of 8-channel cells and 3 of 16-channel cells, none whole 32 B blocks
// — where 16-aligned chunks of the transpose's own bound made 1520 + 1505 and 752 · 4 + 17.
TEST(VectorTransDataNchwConv, Fp32WaysInCutALongPlaneEvenlyAtTheDslUbBound) {
    const std::vector<std::uint64_t> c8 = planarLoadBurstsOf({1, 8, 55, 55}, 0);
    EXPECT_EQ(c8, (std::vector<std::uint64_t>{1513 * 4, 1512 * 4}));
    const std::vector<std::uint64_t> c16 = planarLoadBurstsOf({1, 16, 55, 55}, 16);
    EXPECT_EQ(c16, (std::vector<std::uint64_t>{1009 * 4, 1009 * 4, 1007 * 4}));
    for (const std::uint64_t burst : c16) EXPECT_NE(burst % 32, 0u);
    checkRoundTrip(ascend910B1(), 1, 16, 55, 55, DataType::Fp32, 16);  // through the uneven cut
}

// The DSL tiling's COMMON_ALIGN choice (transdata_dsl_general.cc, ChooseType / CommonAlignLimit,
// §127, §133): planar rows that are not whole blocks, at most 256 B long and at most 168 (32-bit) /
// 160 (16-bit) elements once aligned.
TEST(VectorTransDataNchwConv, RowsUpTo256BytesThatAreNotWholeBlocksTakeCommonAlign) {
    EXPECT_TRUE(dslTransDataTakesCommonAlign(36, 4));    // 6 × 6: AlexNet's pooled features
    EXPECT_TRUE(dslTransDataTakesCommonAlign(60, 4));
    EXPECT_FALSE(dslTransDataTakesCommonAlign(24, 4));   // whole 32 B blocks: STORAGE_ALIGN
    EXPECT_FALSE(dslTransDataTakesCommonAlign(66, 4));   // past 256 B
    EXPECT_FALSE(dslTransDataTakesCommonAlign(169, 4));  // 13 × 13
    EXPECT_TRUE(dslTransDataTakesCommonAlign(36, 2));    // the 910A's fp16 6 × 6
    EXPECT_TRUE(dslTransDataTakesCommonAlign(120, 2));   // 240 B, 128 once aligned
    EXPECT_FALSE(dslTransDataTakesCommonAlign(48, 2));   // whole 32 B blocks
    EXPECT_FALSE(dslTransDataTakesCommonAlign(169, 2));  // 338 B: past 256 B
    EXPECT_FALSE(dslTransDataTakesCommonAlign(36, 1));   // no 8-bit form here
    checkRoundTrip(ascend910B1(), 3, 32, 6, 6, DataType::Fp32);      // C0 = 8: 144 B rows
    checkRoundTrip(ascend910B1(), 2, 32, 6, 6, DataType::Fp32, 16);  // the MaxPool kernels' C0 = 16
    checkRoundTrip(ascend910B1(), 2, 3, 5, 7, DataType::Fp32);       // C = 3 → 5 zero channels, 140 B rows
    checkRoundTrip(coupledChip(), 3, 32, 6, 6, DataType::Fp16);      // the 910A's DSL: 72 B rows
    checkRoundTrip(coupledChip(), 2, 3, 5, 7, DataType::Fp16);       // C = 3 → 13 zero channels
}

// What a [8,64,6,6] conversion's tiles do: moves whose planar side is one run, UB → UB re-pitches
// (and the rows they move, each one burst of `rowBytes`), and the scalar work right before them.
struct CommonAlignSteps {
    std::uint64_t tiles = 0, planarRunMoves = 0, repitches = 0, repitchedRows = 0, repitchScalarCycles = 0;
};

CommonAlignSteps commonAlignStepsOf(const ChipConfig& chip, DataType dtype, bool toBlocked) {
    const std::uint64_t rowBytes = 36 * bytesOf(dtype);
    CubeOpHarness h(chip);
    const auto kernels = h.lower(conversionOp(h, {8, 64, 6, 6}, dtype, toBlocked));
    CommonAlignSteps steps;
    for (std::uint32_t block = 0; block < kernels.at(0).blockDim; ++block) {
        auto stream = kernels.at(0).program({block, CoreKind::Vector, 0});
        std::vector<Instruction> chunk;
        std::uint32_t scalarBefore = 0;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                const auto* work = std::get_if<ScalarWork>(&instruction.operands);
                const auto* m = std::get_if<DataMove>(&instruction.operands);
                if (m != nullptr && (toBlocked ? m->src : m->dst) == MemSpace::GM) {
                    ++steps.tiles;
                    if (m->burstCount == 1 && m->burstBytes % rowBytes == 0) ++steps.planarRunMoves;
                }
                if (m != nullptr && m->src == MemSpace::UB && m->dst == MemSpace::UB) {
                    ++steps.repitches, steps.repitchedRows += m->burstCount, steps.repitchScalarCycles += scalarBefore;
                    EXPECT_EQ(m->burstBytes, rowBytes);
                }
                scalarBefore = work != nullptr ? work->cycles : 0;
            }
            chunk.clear();
        }
    }
    return steps;
}

// COMMON_ALIGN's tiles: the way in loads the tile's rows as one burst and re-pitches them in UB (one
// UB → UB move, a burst a row, after the scalar work of kDslTransDataRepitchScalarCyclesPerRow a
// row); the way back packs the transposed rows the same way and stores them as one burst.
TEST(VectorTransDataNchwConv, Fp32CommonAlignMovesEachTileAsOneRunAndRepitchesItsRowsInUb) {
    for (const bool toBlocked : {true, false}) {
        const CommonAlignSteps steps = commonAlignStepsOf(ascend910B1(), DataType::Fp32, toBlocked);
        ASSERT_GT(steps.tiles, 0u);
        EXPECT_EQ(steps.planarRunMoves, steps.tiles) << (toBlocked ? "way in" : "way back");
        EXPECT_EQ(steps.repitches, steps.tiles);
        EXPECT_EQ(steps.repitchedRows, 8u * 64u);  // every channel row once
        EXPECT_EQ(steps.repitchScalarCycles, 8u * 64u * kDslTransDataRepitchScalarCyclesPerRow);
    }
}

// The 910A's DSL runs 16-bit NCHW ↔ NC1HWC0 and takes COMMON_ALIGN for 6 × 6 planes too (§133): one
// run a tile, the rows re-pitched in UB, without the 220x form's per-row scalar work (the real rows
// show none); the 910B parts' 16-bit form (Ascend C's) keeps a burst a row.
TEST(VectorTransDataNchwConv, Fp16CommonAlignOnTheCoupledChipMovesEachTileAsOneRunWithoutPerRowScalarWork) {
    for (const bool toBlocked : {true, false}) {
        const CommonAlignSteps coupled = commonAlignStepsOf(coupledChip(), DataType::Fp16, toBlocked);
        ASSERT_GT(coupled.tiles, 0u);
        EXPECT_EQ(coupled.planarRunMoves, coupled.tiles) << (toBlocked ? "way in" : "way back");
        EXPECT_EQ(coupled.repitches, coupled.tiles);
        EXPECT_EQ(coupled.repitchedRows, 8u * 64u);
        EXPECT_EQ(coupled.repitchScalarCycles, 0u);
        const CommonAlignSteps split = commonAlignStepsOf(ascend910B1(), DataType::Fp16, toBlocked);
        ASSERT_GT(split.tiles, 0u);
        EXPECT_EQ(split.planarRunMoves, 0u);
        EXPECT_EQ(split.repitches, 0u);
    }
}

}  // namespace
}  // namespace ascendsim::test
