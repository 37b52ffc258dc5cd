// CANN's MatMulV3 base kernel hands each L2 tile's base blocks to the cores a round at a time
// (docs/fidelity.md §111): the cores of a round read the same A and B strips together, and a
// K-major strip narrower than an L2 line shares the line with its neighbours. The counts below are
// the Qwen3 weight gradients' (20 AIC, 96 MiB L2, 512 B lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "models/kernels/cube/matmul/matmul_cann_round_readers.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

ChipConfig qwenChip() {
    ChipConfig chip = ascend910B1();
    chip.aiCoreCount = 20;
    chip.l2.sizeBytes = 96ull << 20;
    chip.l2.lineBytes = 512;
    return chip;
}

MatmulProblem bf16Gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k, bool transposeA, bool transposeB) {
    MatmulProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.transposeA = transposeA;
    p.transposeB = transposeB;
    p.inputType = p.mmadType = p.outputType = DataType::Bf16;
    return p;
}

TEST(CubeMatMulCannRoundReaders, FreeSharingIsCannsConflictLimit) {
    EXPECT_EQ(cannFreeSharers(20, false), 5u);
    EXPECT_EQ(cannFreeSharers(20, true), 4u);
    EXPECT_EQ(cannFreeSharers(24, false), 6u);
    EXPECT_EQ(cannFreeSharers(24, true), 3u);
    EXPECT_EQ(cannFreeSharers(2, false), 2u);
}

TEST(CubeMatMulCannRoundReaders, SmallGemmsTakeTheDefaultL2TileLargeOnesCalcTilesSplit) {
    const auto chip = qwenChip();
    // [4096,1024]ᵀ·[4096,3072]: 38 MiB, below 100 MB × 96/192: 4 m-blocks × 20/4 n-blocks.
    const CannL2Tile small = cannL2Tile(chip, bf16Gemm(1024, 3072, 4096, true, false), 128, 256);
    EXPECT_EQ(small.mBlocks, 4u);
    EXPECT_EQ(small.nBlocks, 5u);
    // [4096,6144]ᵀ·[4096,1024]: 68 MiB: M split in two L2 tiles of 3072 rows (12 blocks of 256), all of N.
    const CannL2Tile large = cannL2Tile(chip, bf16Gemm(6144, 1024, 4096, true, false), 256, 128);
    EXPECT_EQ(large.mBlocks, 12u);
    EXPECT_EQ(large.nBlocks, 8u);
    // A GEMM with fewer blocks than the default tile keeps what it has.
    const CannL2Tile tiny = cannL2Tile(chip, bf16Gemm(256, 512, 64, false, false), 128, 256);
    EXPECT_EQ(tiny.mBlocks, 2u);
    EXPECT_EQ(tiny.nBlocks, 2u);
}

TEST(CubeMatMulCannRoundReaders, NarrowKMajorStripsShareTheirLinesWithTheRound) {
    const auto chip = qwenChip();
    // 128-wide A strips of a transposed [4096,1024] bf16 are 256 B: two m-blocks to a line, each
    // m-block on five cores of the round → ten readers a line. The 512 B B strips: four.
    const auto weightGrad = cannRoundReaders(chip, bf16Gemm(1024, 3072, 4096, true, false), 128, 256);
    ASSERT_EQ(weightGrad.a.size(), 8u * 12u);
    EXPECT_EQ(weightGrad.a[0], 10.0f);
    EXPECT_EQ(weightGrad.b[0], 4.0f);
    // Plain [4096,1024]·[1024,3072]: A's rows are its own (five cores an m-block), B as above.
    const auto forward = cannRoundReaders(chip, bf16Gemm(4096, 3072, 1024, false, false), 128, 256);
    EXPECT_EQ(forward.a[0], 5.0f);
    EXPECT_EQ(forward.b[0], 4.0f);
    // CalcTile's 12 × 8 tile spreads the round: A (512 B strips) on at most two cores, B (256 B,
    // two n-blocks a line) on four to six.
    const auto wideM = cannRoundReaders(chip, bf16Gemm(6144, 1024, 4096, true, false), 256, 128);
    EXPECT_LE(*std::max_element(wideM.a.begin(), wideM.a.end()), 2.0f);
    const std::set<float> bCounts(wideM.b.begin(), wideM.b.end());
    EXPECT_EQ(*bCounts.rbegin(), 6.0f);
    EXPECT_GE(*bCounts.begin(), 4.0f);
}

// The loads of CANN's base kernel carry the readers that queue on their lines (their own core and
// the round's beyond CANN's free sharing: 4 for a K-major strip on 20 cores) when the chip keeps a
// line-request count; without the key they carry none.
TEST(CubeMatMulCannRoundReaders, BaseKernelLoadsCarryTheirReaderCounts) {
    ChipConfig chip = qwenChip();
    chip.mte2LineRequestsInFlight = 40;
    const auto a = ndTensorAt("a", {4096, 1024}, DataType::Bf16, 0);
    const auto b = ndTensorAt("b", {4096, 3072}, DataType::Bf16, 16ull << 20);
    const auto y = ndTensorAt("y", {1024, 3072}, DataType::Bf16, 64ull << 20);
    auto op = makeOp("MatMul", {a, b}, {y});
    op.attrs["transpose_a"] = true;
    const auto readersOf = [&](const ChipConfig& c) {
        std::set<float> readers;
        forEachProgramInstruction(KernelRegistry::instance().lower(op, c).at(0), CoreKind::Cube,
                                  [&](const Instruction& instruction) {
                                      const auto* move = std::get_if<DataMove>(&instruction.operands);
                                      if (move && move->src == MemSpace::GM && move->dst == MemSpace::L1)
                                          readers.insert(move->concurrentLineReaders);
                                  });
        return readers;
    };
    EXPECT_EQ(readersOf(chip), (std::set<float>{1.0f, 7.0f}));  // B: 4 readers, A: 10
    ChipConfig off = chip;
    off.mte2LineRequestsInFlight = 0;
    EXPECT_EQ(readersOf(off), (std::set<float>{0.0f}));
}

}  // namespace
}  // namespace ascendsim::test
