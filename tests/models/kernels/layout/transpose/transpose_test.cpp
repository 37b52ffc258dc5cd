// Transpose: row reorders and batched 2-D transposes against index arithmetic.
#include <gtest/gtest.h>

#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

// The tiling CANN's dynamic Transpose reads on the 220x (transpose.cpp, §61): the head's 2 blocks,
// the fixed part (5 + 61 int64 words, 17 blocks) and one per-core part (51 words, 13 blocks) per block.
constexpr std::uint64_t kTilingHeadBytes = 64, kTilingFixedBytes = 544, kTilingPerCoreBytes = 416;
std::uint64_t transposeTilingBytes(std::uint32_t blockDim) {
    return kTilingHeadBytes + kTilingFixedBytes + kTilingPerCoreBytes * blockDim;
}

void checkTranspose(std::vector<std::int64_t> shape, std::vector<std::int64_t> perm,
                    DataType dtype, const ChipConfig& chip = ascend910B1()) {
    std::vector<std::int64_t> outShape;
    for (auto p : perm) outShape.push_back(shape[static_cast<std::size_t>(p)]);
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", shape, dtype);
        const auto y = h.tensor("y", outShape, dtype);
        const auto xs = h.fillRandom(x, -100, 100);
        auto op = makeOp("Transpose", {x}, {y});
        op.attrs["perm"] = perm;
        op.blockDim = blockDim;
        h.run(op);
        const std::size_t rank = shape.size();
        std::vector<double> expected(xs.size());
        for (std::size_t o = 0; o < xs.size(); ++o) {
            std::vector<std::int64_t> outIndex(rank);
            std::size_t rest = o;
            for (std::size_t d = rank; d-- > 0;) {
                outIndex[d] =
                    static_cast<std::int64_t>(rest % static_cast<std::size_t>(outShape[d]));
                rest /= static_cast<std::size_t>(outShape[d]);
            }
            std::vector<std::int64_t> inIndex(rank);
            for (std::size_t d = 0; d < rank; ++d)
                inIndex[static_cast<std::size_t>(perm[d])] = outIndex[d];
            std::size_t flat = 0;
            for (std::size_t d = 0; d < rank; ++d)
                flat = flat * static_cast<std::size_t>(shape[d]) +
                       static_cast<std::size_t>(inIndex[d]);
            expected[o] = xs[flat];
        }
        expectNear(h.read(y), expected, 0, 0, "Transpose, " + blockDimName(blockDim));
    }
}

TEST(VectorTranspose, SwappingMiddleDimsReordersRows) {
    checkTranspose({2, 30, 4, 64}, {0, 2, 1, 3},
                   DataType::Fp16);  // attention [B,S,N,D] → [B,N,S,D]
}

TEST(VectorTranspose, SwappingTheLastTwoDimsTransposesTiles) {
    checkTranspose({3, 70, 130}, {0, 2, 1}, DataType::Fp32);
    checkTranspose({2, 5, 6, 7}, {0, 2, 3, 1}, DataType::Fp16);  // NCHW → NHWC
    checkTranspose({4, 5, 6}, {2, 0, 1}, DataType::Fp32);
}

// Narrow N (the C0 columns of NC1HWC0 → NCHW): tiles of 4096/N' rows × N' columns.
TEST(VectorTranspose, NarrowLastDimTransposesInTallTiles) {
    checkTranspose({3, 300, 16}, {0, 2, 1}, DataType::Fp16);
    checkTranspose({2, 700, 8}, {0, 2, 1}, DataType::Fp32);
    checkTranspose({2, 150, 48}, {0, 2, 1}, DataType::Fp16);  // 85 rows rounded down to 80
}

// Small matrices (a FRACTAL_Z weight's [C0][kh·kw] blocks) packed several to a tile, with a
// partial last tile.
// (On the coupled chip: movesSmallPiecesInBlocks, transpose.cpp.) The second case is FRACTAL_Z →
// NCHW of a [32, 32, 3, 3] weight, whose second pass merges C0 and kh·kw into one row.
TEST(VectorTranspose, SmallMatricesArePackedSeveralToATile) {
    checkTranspose({40, 16, 9}, {0, 2, 1}, DataType::Fp32, coupledChip());
    checkTranspose({7, 16, 9}, {0, 2, 1}, DataType::Fp16, coupledChip());
    checkTranspose({2, 9, 2, 16, 16}, {2, 3, 0, 4, 1}, DataType::Fp32, coupledChip());
}

// Rows shorter than an L2 line swapped in 2-D row blocks ([B][A][C] rows → [B][C][A]), with
// partial blocks at both edges.
TEST(VectorTranspose, ShortRowsSwapInRowBlocks) {
    checkTranspose({2, 70, 45, 16}, {0, 2, 1, 3}, DataType::Fp16);
    checkTranspose({130, 3, 8}, {1, 0, 2}, DataType::Fp32);
}

TEST(VectorTranspose, RowReordersAndBatched2DTransposesAreOneKernel) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    for (const auto& [shape, perm] :
         std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>>{
             {{2, 30, 4, 64}, {0, 2, 1, 3}},
             {{3, 70, 130}, {0, 2, 1}},
             {{2, 5, 6, 7}, {0, 2, 3, 1}}}) {
        std::vector<std::int64_t> outShape;
        for (auto p : perm) outShape.push_back(shape[static_cast<std::size_t>(p)]);
        auto op = makeOp("Transpose", {h.tensor("x", shape, DataType::Fp16)},
                         {h.tensor("y", outShape, DataType::Fp16)});
        op.attrs["perm"] = perm;
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        EXPECT_EQ(kernels[0].workspaceBytes, transposeTilingBytes(kernels[0].blockDim));  // no intermediate
    }
}

TEST(VectorTranspose, AnyOtherPermutationRunsAsTwoPassesThroughTheWorkspace) {
    checkTranspose({2, 3, 4, 5}, {3, 1, 2, 0}, DataType::Fp16);
    checkTranspose({3, 4, 5, 6}, {1, 3, 0, 2}, DataType::Fp32);
    checkTranspose({2, 3, 4, 5, 6}, {4, 2, 0, 3, 1}, DataType::Fp16);
    checkTranspose({1, 7, 1, 9, 3}, {3, 0, 4, 1, 2}, DataType::Fp32);  // size-1 dims dropped
    checkTranspose({4, 66, 70}, {2, 1, 0}, DataType::Bf16);            // a full reversal
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("Transpose", {h.tensor("x", {2, 3, 4, 5}, DataType::Fp16)},
                     {h.tensor("y", {5, 3, 4, 2}, DataType::Fp16)});
    op.attrs["perm"] = std::vector<std::int64_t>{3, 1, 2, 0};
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 2u);
    // The intermediate, shared by both kernels; the first also reads the tiling placed after it.
    EXPECT_EQ(kernels[0].workspaceBytes, 2u * 128 + transposeTilingBytes(kernels[0].blockDim));
    EXPECT_EQ(kernels[1].workspaceBytes, 2u * 120);
}

// On the 220x every block walks CANN's tiling before its work: the head, the fixed part and its own
// per-core part, each move waited for by the scalar unit and followed by the set_as of its words
// (5, 61, 51); the 910A's transpose row shows no such walk, so coupled chips read no tiling.
TEST(VectorTranspose, EveryBlockWalksTheTilingBeforeItsWorkOnSplitChips) {
    constexpr std::uint64_t kWorkspace = 5ull << 20;
    struct Read {
        std::uint64_t offset = 0, bytes = 0;
        std::uint32_t words = 0;
        bool waited = false;
    };
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("Transpose", {h.tensor("x", {3, 70, 130}, DataType::Fp32)}, {h.tensor("y", {3, 130, 70}, DataType::Fp32)});
    op.attrs["perm"] = std::vector<std::int64_t>{0, 2, 1};
    op.blockDim = 4;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    for (std::uint32_t block = 0; block < kernels[0].blockDim; ++block) {
        auto stream = kernels[0].program({block, CoreKind::Vector, 0, kWorkspace});
        std::vector<Instruction> all, chunk;
        while (stream->next(chunk)) all.insert(all.end(), chunk.begin(), chunk.end()), chunk.clear();
        std::vector<Read> reads;
        bool workBeforeWalk = false;
        for (const Instruction& instruction : all) {
            if (const auto* move = std::get_if<DataMove>(&instruction.operands)) {
                const bool tiling = move->src == MemSpace::GM && move->srcAddr >= kWorkspace;
                if (tiling) reads.push_back({move->srcAddr - kWorkspace, move->totalBytes()});
                else if (reads.size() < 3) workBeforeWalk = true;
            } else if (instruction.opcode == Opcode::WaitFlag && !reads.empty()) {
                const auto& flag = std::get<Flag>(instruction.operands);
                reads.back().waited |= flag.src == Pipe::Mte2 && flag.dst == Pipe::Scalar;
            } else if (const auto* work = std::get_if<ScalarWork>(&instruction.operands); work && !reads.empty()) {
                reads.back().words += work->loads;
            } else if (instruction.opcode == Opcode::Vector && reads.size() < 3) {
                workBeforeWalk = true;
            }
        }
        ASSERT_EQ(reads.size(), 3u) << "block " << block;
        EXPECT_EQ(reads[0].offset, 0u);
        EXPECT_EQ(reads[0].bytes, kTilingHeadBytes);
        EXPECT_EQ(reads[1].offset, kTilingHeadBytes);
        EXPECT_EQ(reads[1].bytes, kTilingFixedBytes);
        EXPECT_EQ(reads[2].offset, kTilingHeadBytes + kTilingFixedBytes + block * kTilingPerCoreBytes);
        EXPECT_EQ(reads[2].bytes, kTilingPerCoreBytes);
        EXPECT_GE(reads[0].words, 5u);  // a read's words, then whatever scalar work the tiles add
        EXPECT_GE(reads[1].words, 61u);
        EXPECT_GE(reads[2].words, 51u);
        for (const Read& read : reads) EXPECT_TRUE(read.waited) << "block " << block;
        EXPECT_FALSE(workBeforeWalk) << "block " << block;
    }
    const ChipConfig coupledConfig = coupledChip();
    CubeOpHarness coupled(coupledConfig);
    auto plain = makeOp("Transpose", {coupled.tensor("x", {3, 70, 130}, DataType::Fp32)},
                        {coupled.tensor("y", {3, 130, 70}, DataType::Fp32)});
    plain.attrs["perm"] = std::vector<std::int64_t>{0, 2, 1};
    const auto coupledKernels = coupled.lower(plain);
    ASSERT_EQ(coupledKernels.size(), 1u);
    EXPECT_EQ(coupledKernels[0].workspaceBytes, 0u);
}

// The GM moves and PIPE_ALL barriers of one block's program, in order: 'L' a load of the tensor,
// 'G' a store, 'B' a barrier (the tiling reads from the workspace at `workspace` left out).
std::string movesAndBarriers(const LoweredKernel& kernel, std::uint32_t block, std::uint64_t workspace) {
    std::string events;
    auto stream = kernel.program({block, CoreKind::Vector, 0, workspace});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const Instruction& i : chunk) {
            if (const auto* m = std::get_if<DataMove>(&i.operands)) {
                if (m->src == MemSpace::GM && m->srcAddr < workspace) events += 'L';
                if (m->dst == MemSpace::GM) events += 'G';
            } else if (const auto* b = std::get_if<Barrier>(&i.operands)) {
                if (b->pipe == Pipe::All) events += 'B';
            }
        }
        chunk.clear();
    }
    return events;
}

// CANN's TIK Transpose on the 220x has no ping-pong and keeps TIK's own synchronisation (§98): a
// tile's load comes after the previous tile's stores have landed. The coupled chip's transpose and
// the TransData permutations that share the passes keep their pipelined tiles.
TEST(VectorTranspose, TikTilesFollowThePreviousTilesStoresOnSplitChipsOnly) {
    constexpr std::uint64_t kWorkspace = 5ull << 20;
    const ChipConfig split = ascend910B1(), coupled = coupledChip();
    for (const ChipConfig* chip : {&split, &coupled}) {
        CubeOpHarness h(*chip);
        // [3, 70, 130] → [3, 130, 70] at 2 blocks: 3 · 2 · 3 = 18 tiles of 64 × 64, 9 a block.
        auto op = makeOp("Transpose", {h.tensor("x", {3, 70, 130}, DataType::Fp32)}, {h.tensor("y", {3, 130, 70}, DataType::Fp32)});
        op.attrs["perm"] = std::vector<std::int64_t>{0, 2, 1};
        op.blockDim = 2;
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        for (std::uint32_t block = 0; block < 2; ++block) {
            std::string serialTile = chip == &split ? "LGB" : "LG", expected;
            for (int tile = 0; tile < 9; ++tile) expected += serialTile;
            EXPECT_EQ(movesAndBarriers(kernels[0], block, kWorkspace), expected) << chip->name << ", block " << block;
        }
    }
    CubeOpHarness h(split);
    // ND → FRACTAL_NZ of whole fractal rows runs the permutation on the split chip (its fp32
    // NC1HWC0 conversions now run CANN's DSL form, serial too: trans_data_nchwconv.cpp, §112).
    auto nz = h.tensor("nz", {64, 96}, DataType::Fp32);
    nz.format = TensorFormat::FractalNz;
    auto toNz = makeOp("TransData", {h.tensor("x", {64, 96}, DataType::Fp32)}, {nz});
    toNz.attrs["dst_format"] = std::string("FRACTAL_NZ");
    for (const LoweredKernel& kernel : h.lower(toNz))
        for (std::uint32_t block = 0; block < kernel.blockDim; ++block)
            EXPECT_EQ(movesAndBarriers(kernel, block, kWorkspace).find('B'), std::string::npos) << "block " << block;
}

TEST(VectorTranspose, TwoPassesRunOnCoupledChipsToo) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {3, 4, 5}, DataType::Fp16);
    const auto y = h.tensor("y", {5, 3, 4}, DataType::Fp16);
    const auto xs = h.fillRandom(x, -100, 100);
    auto op = makeOp("Transpose", {x}, {y});
    op.attrs["perm"] = std::vector<std::int64_t>{2, 0, 1};  // merges to a 2-D transpose: one kernel
    EXPECT_EQ(h.run(op).size(), 1u);
    auto reversal = makeOp("Transpose", {x}, {h.tensor("z", {5, 4, 3}, DataType::Fp16)});
    reversal.attrs["perm"] = std::vector<std::int64_t>{2, 1, 0};
    const auto kernels = h.run(reversal);
    ASSERT_EQ(kernels.size(), 2u);
    const auto z = h.read(reversal.outputs[0]);
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 4; ++j)
            for (std::size_t k = 0; k < 5; ++k)
                EXPECT_EQ(z[(k * 4 + j) * 3 + i], xs[(i * 4 + j) * 5 + k]);
}

// The UB → GM stores of block 0 of every kernel: whether each is one run (no gap on either side)
// and whether any stores bursts that are not whole 32 B blocks with a gap (a padded burst each).
std::pair<bool, bool> storesAreRunsAndAnyPadded(const std::vector<LoweredKernel>& kernels) {
    bool runs = true, padded = false;
    for (const auto& kernel : kernels) {
        auto stream = kernel.program({0, CoreKind::Cube, 0});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& i : chunk)
                if (const auto* m = std::get_if<DataMove>(&i.operands); m && m->dst == MemSpace::GM) {
                    const bool run = m->burstCount == 1 || (m->srcGapBytes == 0 && m->dstGapBytes == 0);
                    runs = runs && run;
                    padded = padded || (!run && m->burstBytes % 32 != 0);
                }
            chunk.clear();
        }
    }
    return {runs, padded};
}

// A tile holding all m input rows of a narrow 2-D transpose (m = 9 fp32: 36 B output rows) has its
// output rows written back to back on the coupled chip, whose kernels move merged rows, and stored
// as one run; the split chips keep each output row padded to a block in UB, a padded burst each.
TEST(VectorTranspose, NarrowOutputRowsAreStoredAsOneRunOnCoupledChips) {
    checkTranspose({3, 9, 70}, {0, 2, 1}, DataType::Fp32, coupledChip());
    const auto storesOn = [](const ChipConfig& chip) {
        CubeOpHarness h(chip);
        auto op = makeOp("Transpose", {h.tensor("x", {3, 9, 70}, DataType::Fp32)},
                         {h.tensor("y", {3, 70, 9}, DataType::Fp32)});
        op.attrs["perm"] = std::vector<std::int64_t>{0, 2, 1};
        return storesAreRunsAndAnyPadded(h.lower(op));
    };
    EXPECT_EQ(storesOn(coupledChip()), std::pair(true, false));
    EXPECT_EQ(storesOn(ascend910B1()), std::pair(false, true));
}

}  // namespace
}  // namespace ascendsim::test

namespace ascendsim::test {
namespace {

TEST(VectorTransData, NchwToNc1hwc0MovesChannelBlocksInnermost) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const std::int64_t n = 2, c = 32, hh = 5, ww = 3, c0 = 16;
    const auto x = h.tensor("x", {n, c, hh, ww}, DataType::Fp16);
    auto y = h.tensor("y", {n, c, hh, ww}, DataType::Fp16);
    y.format = TensorFormat::NC1HWC0;
    const auto xs = h.fillRandom(x);
    auto op = makeOp("TransData", {x}, {y});
    op.attrs["dst_format"] = std::string("NC1HWC0");
    h.run(op);
    std::vector<double> expected(xs.size());
    for (std::int64_t i = 0; i < n * c * hh * ww; ++i) {
        const std::int64_t b = i / (c * hh * ww), ch = i / (hh * ww) % c, p = i % (hh * ww);
        expected[static_cast<std::size_t>(((b * (c / c0) + ch / c0) * hh * ww + p) * c0 +
                                          ch % c0)] = xs[static_cast<std::size_t>(i)];
    }
    expectNear(h.read(y), expected, 0, 0, "TransData NC1HWC0");
}

TEST(VectorTransData, NdToFractalNzAndBackRoundTrips) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {2, 48, 64}, DataType::Fp16);
    auto nz = h.tensor("nz", {2, 48, 64}, DataType::Fp16);
    nz.format = TensorFormat::FractalNz;
    auto back = h.tensor("back", {2, 48, 64}, DataType::Fp16);
    const auto xs = h.fillRandom(x);
    auto there = makeOp("TransData", {x}, {nz});
    there.attrs["dst_format"] = std::string("FRACTAL_NZ");
    h.run(there);
    const auto fractal = h.read(nz);
    // Element (m, n) of batch b sits at [b][n/16][m][n%16].
    EXPECT_EQ(fractal[static_cast<std::size_t>(((1 * 4 + 2) * 48 + 5) * 16 + 3)],
              xs[static_cast<std::size_t>((1 * 48 + 5) * 64 + 2 * 16 + 3)]);
    auto again = makeOp("TransData", {nz}, {back});
    again.attrs["dst_format"] = std::string("ND");
    h.run(again);
    EXPECT_EQ(h.read(back), xs);
}

// M = 40 rows go to FRACTAL_NZ as 48 (its logical shape holds M1·16), the 8 extra rows zeros, and
// come back dropping them.
TEST(VectorTransData, NdToFractalNzPadsMWithZeroRowsAndBackDropsThem) {
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {2, 40, 64}, DataType::Fp32);
        auto nz = h.tensor("nz", {2, 48, 64}, DataType::Fp32);
        nz.format = TensorFormat::FractalNz;
        const auto xs = h.fillRandom(x);
        auto there = makeOp("TransData", {x}, {nz});
        there.attrs["dst_format"] = std::string("FRACTAL_NZ");
        h.run(there);
        const auto fractal = h.read(nz);
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t n = 0; n < 64; ++n)
                for (std::size_t m = 0; m < 48; ++m)
                    EXPECT_EQ(fractal[((b * 4 + n / 16) * 48 + m) * 16 + n % 16], m < 40 ? xs[(b * 40 + m) * 64 + n] : 0.0)
                        << b << "," << m << "," << n;
        const auto back = h.tensor("back", {2, 40, 64}, DataType::Fp32);
        runTransData(h, nz, back, "ND");
        EXPECT_EQ(h.read(back), xs);
    }
}

TEST(VectorTransData, ShapesNeedingPaddingAreLoweringErrors) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    // Into NC1HWC0 a small C is padded (below); y must then hold the padded N·C1·H·W·C0 elements.
    auto op = makeOp("TransData", {h.tensor("x", {1, 3, 4, 4}, DataType::Fp16)},
                     {h.tensor("y", {1, 3, 4, 4}, DataType::Fp16)});
    op.attrs["dst_format"] = std::string("NC1HWC0");
    EXPECT_THROW(h.lower(op), LoweringError);
    // Back from a padded C1·C0 is not modelled.
    auto back = makeOp("TransData", {h.tensor("x5", {1, 3, 4, 4}, DataType::Fp16)},
                       {h.tensor("y4", {1, 3, 4, 4}, DataType::Fp16)});
    back.inputs[0].format = TensorFormat::NC1HWC0;
    back.attrs["dst_format"] = std::string("NCHW");
    EXPECT_THROW(h.lower(back), LoweringError);
    // FRACTAL_NZ: a y that does not hold M rounded up to 16 (an N that is no multiple of 16 pads:
    // trans_data_padded_test.cpp), and one that does not hold N rounded up.
    for (const auto& [from, to] : std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>>{
             {{32, 40}, {32, 64}}, {{40, 64}, {40, 64}}}) {
        auto nz = h.tensor("nz", to, DataType::Fp16);
        nz.format = TensorFormat::FractalNz;
        auto there = makeOp("TransData", {h.tensor("nd", from, DataType::Fp16)}, {nz});
        there.attrs["dst_format"] = std::string("FRACTAL_NZ");
        EXPECT_THROW(h.lower(there), LoweringError);
    }
}


// Bytes every block of `kernel` moves from UB to GM, and the most Gather elements of one instruction.
struct MovedBytes {
    std::uint64_t stored = 0, widestGather = 0;
};
MovedBytes movedBytes(const LoweredKernel& kernel) {
    MovedBytes moved;
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        auto stream = kernel.program({block, CoreKind::Vector, 0, 0});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                if (const auto* m = std::get_if<DataMove>(&instruction.operands); m && m->dst == MemSpace::GM)
                    moved.stored += std::uint64_t{m->burstCount} * m->burstBytes;
                if (const auto* v = std::get_if<VectorInstr>(&instruction.operands); v && v->op == VectorOp::Gather)
                    moved.widestGather = std::max<std::uint64_t>(moved.widestGather, v->mask);
            }
            chunk.clear();
        }
    }
    return moved;
}

TEST(VectorTransData, NchwToNc1hwc0PadsASmallChannelCountWithZeroChannels) {
    const ChipConfig chip = ascend910B1();
    for (const auto& [dtype, channels] : std::vector<std::pair<DataType, std::int64_t>>{
             {DataType::Fp32, 3}, {DataType::Fp16, 3}, {DataType::Fp32, 20}}) {
        const std::int64_t c0 = 32 / static_cast<std::int64_t>(bytesOf(dtype)), c1 = (channels + c0 - 1) / c0;
        const std::int64_t n = 2, h = 9, w = 13;
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h5(chip);
            const auto x = h5.tensor("x", {n, channels, h, w}, dtype);
            auto y = h5.tensor("y", {n, c1, h, w, c0}, dtype);
            y.format = TensorFormat::NC1HWC0;
            const auto xs = h5.fillRandom(x, -100, 100);
            h5.fill(y, 777.0f);
            auto op = makeOp("TransData", {x}, {y});
            op.attrs["dst_format"] = std::string("NC1HWC0");
            op.blockDim = blockDim;
            const auto kernels = h5.run(op);
            ASSERT_EQ(kernels.size(), 1u);
            std::vector<double> expected;
            for (std::int64_t i = 0; i < n; ++i)
                for (std::int64_t b = 0; b < c1; ++b)
                    for (std::int64_t p = 0; p < h * w; ++p)
                        for (std::int64_t c = b * c0; c < (b + 1) * c0; ++c)
                            expected.push_back(c < channels ? xs[static_cast<std::size_t>((i * channels + c) * h * w + p)] : 0.0);
            expectNear(h5.read(y), expected, 0, 0, "TransData C=" + std::to_string(channels) + ", " + blockDimName(blockDim));
            // The padded tensor is what is written (N·C1·H·W·C0 elements), and the Gather writes
            // C0-element output rows, not 64-element ones.
            const MovedBytes moved = movedBytes(kernels[0]);
            EXPECT_EQ(moved.stored, static_cast<std::uint64_t>(n * c1 * h * w * c0) * bytesOf(dtype));
            EXPECT_LE(moved.widestGather, 256 / bytesOf(dtype));
        }
    }
}

}  // namespace
}  // namespace ascendsim::test
