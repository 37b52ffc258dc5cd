// A MatMul whose operands and C are stored FRACTAL_NZ in GM (the 910A's TBE MatMuls, docs/
// fidelity.md §50): every GM move over them names the tensor's fractal geometry, so the timing
// model charges the fractal layout's bursts, while the functional model still computes the
// product on the logical matrices.
#include <gtest/gtest.h>

#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// The GM move (with a fractal layout) names `tensor`'s fractal geometry: its logical rows, bytes per row and per C0 block row.
void expectFractalGeometry(const DataMove& move, const TensorInfo& tensor, std::uint64_t rows, std::uint64_t rowBytes,
                           std::uint64_t blockRowBytes) {
    EXPECT_EQ(move.gmNz.tensorAddr, tensor.deviceAddr);
    EXPECT_EQ(move.gmNz.rows, rows);
    EXPECT_EQ(move.gmNz.rowBytes, rowBytes);
    EXPECT_EQ(move.gmNz.blockRowBytes, blockRowBytes);
}

TEST(CubeMatMulFractalGm, FractalOperandsAndOutputMoveAsTheirFractalLayout) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip);
    // [32 × 512] ND · [512 × 512] NZ (read K-major) → [32 × 512] fp32 NZ: tiles narrower than a row.
    auto a = h.tensor("a", {32, 512}, DataType::Fp16);
    auto b = h.tensor("b", {512, 512}, DataType::Fp16);
    auto y = h.tensor("y", {32, 512}, DataType::Fp32);
    b.format = TensorFormat::FractalNz;
    y.format = TensorFormat::FractalNz;
    const auto av = h.fillRandom(a), bv = h.fillRandom(b);
    auto op = makeOp("MatMul", {a, b}, {y});
    op.blockDim = 2;
    h.run(op);
    std::vector<double> expected(32 * 512, 0.0);
    for (std::size_t i = 0; i < 32; ++i)
        for (std::size_t j = 0; j < 512; ++j)
            for (std::size_t p = 0; p < 512; ++p) expected[i * 512 + j] += double(av[i * 512 + p]) * bv[p * 512 + j];
    expectNear(h.read(y), expected, 3e-2, 3e-3, "fractal operands");

    std::uint64_t aLoads = 0, bLoads = 0, stores = 0;
    forEachBlockInstruction(h.lower(op).at(0), CoreKind::Coupled, [&](const Instruction& i) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move == nullptr) return;
        if (move->src == MemSpace::GM && move->dst == MemSpace::L1 && move->srcAddr < b.deviceAddr) {
            ++aLoads;
            EXPECT_FALSE(move->gmNz.present());  // A is ND
        } else if (move->src == MemSpace::GM && move->dst == MemSpace::L1) {
            ++bLoads;
            ASSERT_TRUE(move->gmNz.present());
            expectFractalGeometry(*move, b, 512, 512 * 2, 32);
            // A K-major tile: one run of its K rows × 32 B per 16 columns, where ND has a burst per row.
            const GmBursts bursts = fractalNzBursts(move->gmNz, move->srcAddr, move->burstCount, move->burstBytes,
                                                    move->burstBytes + move->srcGapBytes);
            EXPECT_GT(move->burstCount, 1u);
            EXPECT_EQ(bursts.count * 32, move->burstBytes);
            EXPECT_EQ(bursts.burstBytes, std::uint64_t{move->burstCount} * 32);
        } else if (move->dst == MemSpace::GM) {
            ++stores;
            ASSERT_TRUE(move->gmNz.present());
            expectFractalGeometry(*move, y, 32, 512 * 4, 64);
        } else {
            EXPECT_FALSE(move->gmNz.present());  // no GM side
        }
    });
    EXPECT_GT(aLoads, 0u);
    EXPECT_GT(bLoads, 0u);
    EXPECT_GE(stores, 2u);  // tiles of at most 256 columns
}

}  // namespace
}  // namespace ascendsim::test
