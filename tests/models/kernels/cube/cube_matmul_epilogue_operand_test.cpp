// An elementwise op TBE fuses after a BatchMatMul (UB fusion) on a coupled chip: its GM operand is
// loaded GM → UB with every output tile — a broadcast operand again for every batch — and multiplied
// into the staged C before the store (models/kernels/cube/matmul/matmul_epilogue_operand.cpp,
// docs/fidelity.md §100).
#include <gtest/gtest.h>

#include "models/kernels/cube/matmul/matmul_epilogue_operand.h"
#include "models/kernels/tiling/cube_tiling.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

constexpr std::int64_t kBatches = 64, kEdge = 16, kBlocks = 4;

TensorInfo nz(CubeOpHarness& h, const std::string& name, std::vector<std::int64_t> shape, DataType dtype) {
    TensorInfo t = h.tensor(name, std::move(shape), dtype);
    t.format = TensorFormat::FractalNz;
    return t;
}

// AdaptiveAvgPool2d24RightBatchMatMulV2...Mul's form: fp16 NZ batches times one shared B, C fp32,
// times one fp32 [16,16] operand shared by every batch.
struct FusedBatchMatMul {
    TensorInfo a, b, x, y;
    OpInstance op;
};

FusedBatchMatMul fusedBatchMatMul(CubeOpHarness& h) {
    FusedBatchMatMul f;
    f.a = nz(h, "a", {kBatches, kEdge, kEdge}, DataType::Fp16);
    f.b = nz(h, "b", {kEdge, kEdge}, DataType::Fp16);
    f.x = nz(h, "x", {kEdge, kEdge}, DataType::Fp32);
    f.y = nz(h, "y", {kBatches, kEdge, kEdge}, DataType::Fp32);
    f.op = makeOp("BatchMatMul", {f.a, f.b, f.x}, {f.y});
    f.op.attrs[kFusedElementwiseInputAttr] = true;
    f.op.blockDim = kBlocks;
    return f;
}

TEST(CubeMatmulEpilogueOperand, EveryBatchLoadsTheSharedOperandAndMultipliesItIn) {
    const ChipConfig chip = streamingCoupledChip();
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    const FusedBatchMatMul f = fusedBatchMatMul(h);
    std::uint32_t mmads = 0, operandLoads = 0, muls = 0, mulRepeats = 0;
    const std::uint64_t xEnd = f.x.deviceAddr + static_cast<std::uint64_t>(f.x.bytes());
    forEachProgramInstruction(h.lower(f.op).at(0), CoreKind::Coupled, [&](const Instruction& i) {
        if (std::holds_alternative<Mmad>(i.operands)) ++mmads;
        if (const auto* v = std::get_if<VectorInstr>(&i.operands); v && v->op == VectorOp::Mul) {
            ++muls;
            mulRepeats = v->repeats;
        }
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move && move->src == MemSpace::GM && move->srcAddr >= f.x.deviceAddr && move->srcAddr < xEnd) {
            EXPECT_EQ(move->dst, MemSpace::UB);
            EXPECT_EQ(move->totalBytes(), static_cast<std::uint64_t>(f.x.bytes()));
            ++operandLoads;
        }
    });
    const auto batchesABlock = static_cast<std::uint32_t>(kBatches / kBlocks);
    EXPECT_EQ(mmads, batchesABlock);         // the batch loop is kept (not folded into M)
    EXPECT_EQ(operandLoads, batchesABlock);  // the shared operand reloaded for every batch
    EXPECT_EQ(muls, batchesABlock);
    EXPECT_EQ(mulRepeats, 4u);  // a 16 × 16 fp32 tile, rows unpadded: four whole 256 B repeats
}

TEST(CubeMatmulEpilogueOperand, FusedProductIsEveryBatchTimesTheOperand) {
    const ChipConfig chip = streamingCoupledChip();
    CubeOpHarness h(chip);
    const FusedBatchMatMul f = fusedBatchMatMul(h);
    const auto av = h.fillRandom(f.a), bv = h.fillRandom(f.b), xv = h.fillRandom(f.x);
    h.run(f.op);
    auto expected = batchedSquareProducts(av, bv, std::size_t{kBatches}, std::size_t{kEdge}, true);
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] *= xv[i % xv.size()];
    expectNear(h.read(f.y), expected, 3e-2, 3e-3, "batches times the fused operand");
}

TEST(CubeMatmulEpilogueOperand, OperandOfAnotherDtypeOrShapeIsRefused) {
    const ChipConfig chip = streamingCoupledChip();
    CubeOpHarness h(chip, 1 << 20);
    FusedBatchMatMul f = fusedBatchMatMul(h);
    f.op.inputs[2] = nz(h, "x16", {kEdge, kEdge}, DataType::Fp16);
    EXPECT_THROW(h.lower(f.op), LoweringError);
    f.op.inputs[2] = nz(h, "xrow", {1, kEdge}, DataType::Fp32);
    EXPECT_THROW(h.lower(f.op), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
