// CANN's legacy MatMulV2 tiling spreads a true-fp32 GEMM whose M is one base tile over the cores by
// N alone: n_dim the largest factor of N's 16-column fractal count within the cores
// (docs/fidelity.md §119), each core one share of N. Every block of such a GEMM reads all of A at
// the same K depth, so on a chip that keeps L2 line requests in flight the A loads carry the blocks
// as readers of their lines (the turns of shared_line_requests.h).
#include <gtest/gtest.h>

#include <set>

#include "models/kernels/cube/matmul/matmul_legacy_n_split.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// The block dims of the AlexNet 910B2 export's M = 32 MatMulV2 rows: N = 1000 (63 fractals) 21,
// 4096 (256) 16, 9216 (576) 24.
TEST(CubeMatMulLegacyNSplit, ShareIsNOverItsLargestFactorWithinTheCores) {
    const ChipConfig chip = ascend910B1();  // 24 AI cores
    EXPECT_EQ(legacyBlockShareN(matmulWithBlockDim(std::nullopt), chip,
                                fp32MatmulProblem(32, 1000, 4096, true), 128),
              48u);
    EXPECT_EQ(legacyBlockShareN(matmulWithBlockDim(21), chip,
                                fp32MatmulProblem(32, 1000, 4096, true), 128),
              48u);
    EXPECT_EQ(legacyBlockShareN(matmulWithBlockDim(std::nullopt), chip,
                                fp32MatmulProblem(32, 4096, 4096, true), 128),
              256u);
    EXPECT_EQ(legacyBlockShareN(matmulWithBlockDim(16), chip,
                                fp32MatmulProblem(32, 4096, 4096, true), 128),
              256u);
    EXPECT_EQ(legacyBlockShareN(matmulWithBlockDim(24), chip,
                                fp32MatmulProblem(32, 9216, 4096, true), 128),
              384u);
}

TEST(CubeMatMulLegacyNSplit, NoShareForSeveralMTilesABatchOrAPrimeFractalCount) {
    const ChipConfig chip = ascend910B1();
    EXPECT_FALSE(legacyBlockShareN(matmulWithBlockDim(std::nullopt), chip,
                                   fp32MatmulProblem(256, 1000, 4096, true), 128));
    MatmulProblem batched = fp32MatmulProblem(32, 1000, 4096, true);
    batched.batchShape = {2};
    EXPECT_FALSE(legacyBlockShareN(matmulWithBlockDim(std::nullopt), chip, batched, 128));
    EXPECT_FALSE(legacyBlockShareN(matmulWithBlockDim(std::nullopt), chip,
                                   fp32MatmulProblem(32, 29 * 16, 4096, true), 128));
    EXPECT_FALSE(legacyBlockShareN(matmulWithBlockDim(1), chip,
                                   fp32MatmulProblem(32, 4096, 4096, true), 128));
}

// N columns of each mmad and the GM → L1 reader counts of the A and B loads of block 0.
struct BlockLoads {
    std::set<std::uint32_t> mmadN;
    std::set<float> aReaders, bReaders;
};
BlockLoads blockLoadsOf(const LoweredKernel& kernel, const OpInstance& op) {
    BlockLoads loads;
    for (const Instruction& instruction : blockProgram(kernel, 0)) {
        if (const auto* mmad = std::get_if<Mmad>(&instruction.operands))
            loads.mmadN.insert(mmad->n);
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
        const TensorInfo& a = op.inputs[0];
        (move->srcAddr >= a.deviceAddr && move->srcAddr < a.deviceAddr + a.bytes() ? loads.aReaders
                                                                                   : loads.bReaders)
            .insert(move->concurrentLineReaders);
    }
    return loads;
}

ChipConfig lineRequestChip() {
    ChipConfig chip = ascend910B1();
    chip.mte2LineRequestsInFlight = 40;
    return chip;
}

// fc8 forward: x [32, 4096] · w [1000, 4096]ᵀ fp32 on 21 blocks of 48 columns (the model took 8
// blocks of 128 before); all 21 read x's lines together.
TEST(CubeMatMulLegacyNSplit, Fc8ForwardRunsOneShareABlockAndItsBlocksShareA) {
    const auto chip = lineRequestChip();
    CubeOpHarness h(chip, 64 << 20);
    const auto op = linearForwardOp(h, DataType::Fp32, 32, 1000, 4096, 21);
    const LoweredKernel kernel = h.lower(op).at(0);
    EXPECT_EQ(kernel.blockDim, 21u);
    const BlockLoads loads = blockLoadsOf(kernel, op);
    EXPECT_EQ(loads.mmadN, (std::set<std::uint32_t>{48}));
    EXPECT_EQ(loads.aReaders, (std::set<float>{21.0f}));
    EXPECT_EQ(loads.bReaders, (std::set<float>{0.0f}));
}

// dX fc6's share of 384 columns does not fit one base block: two of 192, the share still one
// block's.
TEST(CubeMatMulLegacyNSplit, AShareTooWideForOneBaseBlockTakesTheWidestDivisorThatFits) {
    const auto chip = lineRequestChip();
    CubeOpHarness h(chip, 256 << 20);
    auto op = makeOp(
        "MatMul",
        {h.tensor("g", {32, 4096}, DataType::Fp32), h.tensor("w", {4096, 9216}, DataType::Fp32)},
        {h.tensor("dx", {32, 9216}, DataType::Fp32)});
    op.blockDim = 24;
    const BlockLoads loads = blockLoadsOf(h.lower(op).at(0), op);
    EXPECT_EQ(loads.mmadN, (std::set<std::uint32_t>{192}));
    EXPECT_EQ(loads.aReaders, (std::set<float>{24.0f}));
}

TEST(CubeMatMulLegacyNSplit, ProductIsUnchanged) {
    const auto chip = lineRequestChip();
    CubeOpHarness h(chip, 4 << 20);
    const auto op =
        linearForwardOp(h, DataType::Fp32, 32, 192, 64, 6);  // 12 fractals: 6 shares of 32 columns
    const auto xv = h.fillRandom(op.inputs[0]), wv = h.fillRandom(op.inputs[1]);
    h.run(op);
    expectNear(h.read(op.outputs[0]), productWithTransposedB(xv, wv, 32, 192, 64), 1e-4, 1e-5,
               "legacy N split");
    EXPECT_EQ(blockLoadsOf(h.lower(op).at(0), op).mmadN, (std::set<std::uint32_t>{32}));
}

// Not taken: hf32 / fp16 small GEMMs keep the base blocks; several m-tiles, or a chip without line
// requests in flight, carry no A readers.
TEST(CubeMatMulLegacyNSplit, OtherDtypesKeepTheBaseBlocksAndOnlyOneMTileSharesA) {
    const auto chip = lineRequestChip();
    CubeOpHarness h(chip, 64 << 20);
    const auto fp16 = linearForwardOp(h, DataType::Fp16, 32, 1000, 512, std::nullopt);
    const BlockLoads fp16Loads = blockLoadsOf(h.lower(fp16).at(0), fp16);
    EXPECT_EQ(fp16Loads.mmadN.count(48), 0u);
    ASSERT_EQ(fp16Loads.aReaders.size(), 1u);  // every block still reads all of A at once
    EXPECT_GT(*fp16Loads.aReaders.begin(), 1.0f);
    const auto tall = linearForwardOp(h, DataType::Fp16, 512, 1000, 256, std::nullopt);
    EXPECT_EQ(blockLoadsOf(h.lower(tall).at(0), tall).aReaders, (std::set<float>{0.0f}));
    const ChipConfig noLineRequests = ascend910B1();
    CubeOpHarness off(noLineRequests, 64 << 20);
    const auto noRequests = linearForwardOp(off, DataType::Fp32, 32, 1000, 4096, 21);
    EXPECT_EQ(blockLoadsOf(off.lower(noRequests).at(0), noRequests).aReaders,
              (std::set<float>{0.0f}));
}

}  // namespace
}  // namespace ascendsim::test
