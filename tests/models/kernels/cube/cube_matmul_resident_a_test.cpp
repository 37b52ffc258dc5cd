// MatMul keeps a tile's A rows resident in L1 (CubeBufferPlan::residentA) when the block's whole A
// share (all K chunks of every m-tile it touches) fits beside two B slots and a block runs several
// tiles along n: the block then reads each A row once per m-tile instead of once per tile.
// Matrix-vector shapes keep the ping-pong plan.
#include <gtest/gtest.h>

#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// [256 × 512] · [512 × 1024] fp16 on one block: 2 m-tiles × 4 n-tiles of 128 × 256.
TEST(CubeMatMulResidentA, BlockReadsARowsOncePerMTileInsteadOfOncePerTile) {
    const auto chip = ascend910B1();
    ChipConfig smallL1 = chip;  // room for two (A + B) chunk slots, not for 128 rows of A's whole K
    smallL1.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = 160 * 1024;
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    auto a = h.tensor("a", {256, 512}, DataType::Fp16);
    auto b = h.tensor("b", {512, 1024}, DataType::Fp16);
    auto op = makeOp("MatMul", {a, b}, {h.tensor("y", {256, 1024}, DataType::Fp16)});
    op.blockDim = 1;

    const LoweredKernel resident = KernelRegistry::instance().lower(op, chip).at(0);
    const LoweredKernel pingPong = KernelRegistry::instance().lower(op, smallL1).at(0);
    const auto aBytes = static_cast<std::uint64_t>(a.bytes()), bBytes = static_cast<std::uint64_t>(b.bytes());
    EXPECT_EQ(gmToL1BytesFrom(resident, 0, a), aBytes);
    EXPECT_EQ(gmToL1BytesFrom(pingPong, 0, a), 4 * aBytes);
    EXPECT_EQ(gmToL1BytesFrom(resident, 0, b), 2 * bBytes);  // B is still read once per m-tile
    EXPECT_EQ(gmToL1BytesFrom(pingPong, 0, b), 2 * bBytes);
}

// AL1 full load: a block whose tiles cover 8 m-tiles (8 × 128 rows × K = 1024 fp16 = 2 MiB of A)
// cannot keep its A share in a 512 KiB L1, so it reloads A for every tile (each row is read once
// per n-tile), although one m-tile's rows (256 KiB) would fit beside two B slots.
TEST(CubeMatMulResidentA, BlockWhoseAShareExceedsL1ReloadsAPerTile) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    auto a = h.tensor("a", {1024, 1024}, DataType::Fp16);
    auto op = makeOp("MatMul", {a, h.tensor("b", {1024, 1024}, DataType::Fp16)},
                     {h.tensor("y", {1024, 1024}, DataType::Fp16)});
    op.blockDim = 1;
    const auto aBytes = static_cast<std::uint64_t>(a.bytes());
    const std::uint64_t read = gmToL1BytesFrom(KernelRegistry::instance().lower(op, chip).at(0), 0, a);
    EXPECT_GE(read, 4 * aBytes);  // at least 4 n-tiles of 256 columns, each reading all of A
    EXPECT_EQ(read % aBytes, 0u);
}

TEST(CubeMatMulResidentA, MatrixVectorShapesKeepThePingPongPlan) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    auto a = h.tensor("a", {1, 4096}, DataType::Fp16);
    auto op = makeOp("MatMul", {a, h.tensor("b", {4096, 4096}, DataType::Fp16)}, {h.tensor("y", {1, 4096}, DataType::Fp16)});
    op.blockDim = 1;
    // 16 n-tiles of 256 columns, each reading the one row of A again.
    EXPECT_EQ(gmToL1BytesFrom(KernelRegistry::instance().lower(op, chip).at(0), 0, a), 16 * static_cast<std::uint64_t>(a.bytes()));
}

}  // namespace
}  // namespace ascendsim::test
