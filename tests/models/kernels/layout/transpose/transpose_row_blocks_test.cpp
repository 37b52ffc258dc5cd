// ND → FRACTAL_NZ moves rows of one fractal row (32 B fp16): the kernel must read and write GM in
// long contiguous runs (models/kernels/layout/transpose/transpose_row_blocks.h), not row by row from
// strided places — on hardware it streams at HBM speed (docs/fidelity.md "Mechanisms" §10).
#include <gtest/gtest.h>

#include <set>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

TEST(TransposeRowBlocks, NdToFractalNzMovesGmInRunsOfAtLeastOneKiB) {
    const ChipConfig chip = ascend910B1();  // the split chip's form: a store per column, no vector step
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {1024, 4096}, DataType::Fp16);
    auto nz = h.tensor("nz", {1024, 4096}, DataType::Fp16);
    nz.format = TensorFormat::FractalNz;
    auto op = makeOp("TransData", {x}, {nz});
    op.attrs["dst_format"] = std::string("FRACTAL_NZ");
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    std::uint64_t loaded = 0, stored = 0;
    for (std::uint32_t block = 0; block < kernels[0].blockDim; ++block) {
        auto stream = kernels[0].program(BlockProgramRequest{.blockIdx = block, .coreKind = CoreKind::Cube});
        std::vector<Instruction> code;
        while (stream->next(code)) {
        }
        for (const Instruction& instr : code) {
            const auto* move = std::get_if<DataMove>(&instr.operands);
            if (move == nullptr) continue;
            if (move->src == MemSpace::GM) {  // bursts of whole 1 KiB runs of input rows
                EXPECT_GE(move->burstBytes, 1024u);
                loaded += move->totalBytes();
            }
            if (move->dst == MemSpace::GM) {  // contiguous in GM: one run per instruction
                EXPECT_EQ(move->dstGapBytes, 0u);
                EXPECT_GE(move->totalBytes(), 1024u);
                stored += move->totalBytes();
            }
        }
    }
    EXPECT_EQ(loaded, x.bytes());  // every byte read once
    EXPECT_EQ(stored, x.bytes());
}

// Every instruction of every block of the op's one kernel.
std::vector<Instruction> allBlocksCode(const LoweredKernel& kernel) {
    std::vector<Instruction> all, code;
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        auto stream = kernel.program(BlockProgramRequest{.blockIdx = block, .coreKind = CoreKind::Cube});
        code.clear();
        while (stream->next(code)) {
        }
        all.insert(all.end(), code.begin(), code.end());
    }
    return all;
}

// The 910A's TBE nd_2_nz / nz_2_nd (transpose_row_blocks.cpp, fractalNzKernelRearrangesInUb): the
// loaded tile is copied into its columns by vadds (256 B a repeat, each byte once) and each tile
// leaves in one move whose bursts are its columns, one column of the output apart; the values
// land where FRACTAL_NZ puts them and come back. fp32 rows are two blocks (two copies per 8 columns).
TEST(TransposeRowBlocks, CoupledChipRearrangesTilesOnTheVectorPipeAndStoresThemInOneMove) {
    const ChipConfig chip = coupledChip();
    for (const DataType dtype : {DataType::Fp16, DataType::Fp32}) {
        CubeOpHarness h(chip);
        const std::int64_t m = 512, n = 1024;
        const auto x = h.tensor("x", {m, n}, dtype);
        auto nz = h.tensor("nz", {m, n}, dtype);
        nz.format = TensorFormat::FractalNz;
        const auto back = h.tensor("back", {m, n}, dtype);
        const auto xs = h.fillRandom(x);
        const auto kernels = runTransData(h, x, nz, "FRACTAL_NZ");
        ASSERT_EQ(kernels.size(), 1u);
        const std::uint64_t rowBytes = 16 * bytesOf(dtype), eb = bytesOf(dtype);
        std::uint64_t copied = 0, stored = 0, stores = 0, tiles = 0;
        std::set<std::uint64_t> pitches;
        for (const Instruction& instr : allBlocksCode(kernels[0])) {
            if (const auto* v = std::get_if<VectorInstr>(&instr.operands)) {
                ASSERT_EQ(v->op, VectorOp::Adds);
                EXPECT_LE(v->mask * eb, 256u);
                EXPECT_EQ(v->dstBlockStride % (rowBytes / 32), 0u);  // a column pitch of whole rows
                copied += std::uint64_t{v->repeats} * v->mask * eb;
            }
            const auto* move = std::get_if<DataMove>(&instr.operands);
            if (move == nullptr) continue;
            if (move->src == MemSpace::GM) ++tiles;
            if (move->dst != MemSpace::GM) continue;
            ++stores;
            stored += move->totalBytes();
            EXPECT_EQ(move->burstBytes % rowBytes, 0u);  // a column: whole rows of the tile
            EXPECT_EQ(move->burstBytes + move->dstGapBytes, static_cast<std::uint64_t>(m) * rowBytes)
                << "columns one output column (M rows) apart";
            // In UB the columns are one pitch apart, a spare row past the fullest tile's (TBE's ub_trans).
            EXPECT_GE(move->srcGapBytes, rowBytes);
            pitches.insert(move->burstBytes + move->srcGapBytes);
        }
        EXPECT_EQ(copied, x.bytes());
        EXPECT_EQ(stored, x.bytes());
        EXPECT_EQ(stores, tiles) << "one store per tile";
        EXPECT_EQ(pitches.size(), 1u);
        const auto fractal = h.read(nz);
        for (std::size_t r = 0; r < static_cast<std::size_t>(m); r += 37)
            for (std::size_t c = 0; c < static_cast<std::size_t>(n); c += 29)
                ASSERT_EQ(fractal[((c / 16) * m + r) * 16 + c % 16], xs[r * n + c]) << r << "," << c;
        runTransData(h, nz, back, "ND");
        EXPECT_EQ(h.read(back), xs);
    }
}

// The split chip (910B) stores each column from the loaded tile: no vector step.
TEST(TransposeRowBlocks, SplitChipFractalNzConversionHasNoVectorStep) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto nz = h.tensor("nz", {512, 1024}, DataType::Fp16);
    nz.format = TensorFormat::FractalNz;
    auto op = makeOp("TransData", {h.tensor("x", {512, 1024}, DataType::Fp16)}, {nz});
    op.attrs["dst_format"] = std::string("FRACTAL_NZ");
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    for (const Instruction& instr : allBlocksCode(kernels[0])) EXPECT_FALSE(std::holds_alternative<VectorInstr>(instr.operands));
}

// Rows as long as an L2 line keep the row-reorder pass (whose vector copy is its own step).
TEST(TransposeRowBlocks, RowsOfALineOrMoreKeepTheRowReorder) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip);
    auto op = makeOp("Transpose", {h.tensor("x", {8, 4, 256}, DataType::Fp16)},
                     {h.tensor("y", {4, 8, 256}, DataType::Fp16)});
    op.attrs["perm"] = std::vector<std::int64_t>{1, 0, 2};
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    auto stream = kernels[0].program(BlockProgramRequest{.blockIdx = 0, .coreKind = CoreKind::Cube});
    std::vector<Instruction> code;
    while (stream->next(code)) {
    }
    bool copies = false;
    for (const Instruction& instr : code)
        if (const auto* v = std::get_if<VectorInstr>(&instr.operands)) copies |= v->op == VectorOp::Copy;
    EXPECT_TRUE(copies);
}

// GM loads of block 0 of every kernel an op lowers to.
std::vector<DataMove> gmLoadsOfBlock0(const std::vector<LoweredKernel>& kernels) {
    std::vector<DataMove> loads;
    for (const LoweredKernel& kernel : kernels) {
        auto stream = kernel.program(BlockProgramRequest{.blockIdx = 0, .coreKind = CoreKind::Cube});
        std::vector<Instruction> code;
        while (stream->next(code)) {
        }
        for (const Instruction& instr : code)
            if (const auto* move = std::get_if<DataMove>(&instr.operands); move != nullptr && move->src == MemSpace::GM)
                loads.push_back(*move);
    }
    return loads;
}

// NCHW → FRACTAL_Z of a [64, 32, 3, 3] fp16 weight: the coupled chip (910A) packs the [C0][kh·kw]
// blocks several to a load; the split chip (910B) keeps a load per block, as its scalar-bound real
// kernels behave (transpose.cpp, movesSmallPiecesInBlocks). (fp16: the 32-bit weights run CANN's
// vnchwconv loop instead, trans_data_fractal_z_loop.h, docs/fidelity.md §139h.)
TEST(TransposeRowBlocks, OnlyTheCoupledChipPacksFractalZBlocks) {
    std::size_t loadCount[2] = {0, 0};
    for (const bool coupled : {false, true}) {
        const ChipConfig chip = coupled ? coupledChip() : ascend910B1();
        CubeOpHarness h(chip);
        auto fz = h.tensor("fz", {18, 4, 16, 16}, DataType::Fp16);
        fz.format = TensorFormat::FractalZ;
        auto op = makeOp("TransData", {h.tensor("w", {64, 32, 3, 3}, DataType::Fp16)}, {fz});
        op.attrs["dst_format"] = std::string("FRACTAL_Z");
        op.blockDim = 1;
        loadCount[coupled] = gmLoadsOfBlock0(h.lower(op)).size();
    }
    EXPECT_LT(4 * loadCount[1], loadCount[0]) << loadCount[1] << " vs " << loadCount[0];
}

}  // namespace
}  // namespace ascendsim::test
