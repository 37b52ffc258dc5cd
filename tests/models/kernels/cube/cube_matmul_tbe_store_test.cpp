// TBE's GEMM kernel — a MatMul marked kTbeKernelAttr (the replay's MatMulV2 rows) or a true-fp32
// GEMM of CANN's small-shape path (the M = 32 MatMulV2 rows, docs/fidelity.md §119) — stores C after
// the cube on a plain event, not as a unit-flag store in flight (§34's Ascend C Matmul), so FixPipe
// busy is the store alone (§125). Unmarked fp16 / hf32, CANN's base-block shapes and the coupled
// cores (C through UB) keep their stores as they were.
#include <gtest/gtest.h>

#include "models/kernels/cube/matmul/matmul_tbe_kernel.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// fc8 forward in miniature: x [32, 512] · w [96, 512]ᵀ fp32 on 2 blocks of 48 columns (the legacy N
// split): every store of every block waits on a plain event.
TEST(CubeMatMulTbeStore, SkinnyFp32GemmStoresAfterTheCubeOnAPlainEvent) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // lowering only
    const LoweredKernel kernel = h.lower(linearForwardOp(h, DataType::Fp32, 32, 96, 512, 2)).at(0);
    const FixPipeStoreWaits w = fixPipeStoreWaitsOf(kernel);
    ASSERT_GT(w.stores, 0);
    EXPECT_EQ(w.plain, w.stores);
    EXPECT_EQ(w.unit, 0);
}

TEST(CubeMatMulTbeStore, Fp16Hf32AndBaseBlockShapesKeepTheUnitFlagStore) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    const auto expectUnitFlag = [&h](const OpInstance& op) {
        const FixPipeStoreWaits w = fixPipeStoreWaitsOf(h.lower(op).at(0));
        ASSERT_GT(w.stores, 0);
        EXPECT_EQ(w.unit, w.stores);
        EXPECT_EQ(w.plain, 0);
    };
    expectUnitFlag(linearForwardOp(h, DataType::Fp16, 32, 96, 512));
    auto hf32 = linearForwardOp(h, DataType::Fp32, 32, 96, 512);
    hf32.attrs["allow_hf32"] = true;
    expectUnitFlag(hf32);
    // 256 × 4096 output: 32 base blocks of 128 × 256 for 24 cores, CANN's base-block path.
    expectUnitFlag(linearForwardOp(h, DataType::Fp32, 256, 4096, 64, 24));
}

// A MatMul marked TBE's kernel stores after the cube whatever its dtype and base block.
TEST(CubeMatMulTbeStore, MarkedTbeKernelStoresAfterTheCubeOnAnyShape) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    const auto expectPlain = [&h](OpInstance op) {
        op.attrs[kTbeKernelAttr] = true;
        const FixPipeStoreWaits w = fixPipeStoreWaitsOf(h.lower(op).at(0));
        ASSERT_GT(w.stores, 0);
        EXPECT_EQ(w.plain, w.stores);
        EXPECT_EQ(w.unit, 0);
    };
    expectPlain(linearForwardOp(h, DataType::Fp16, 32, 96, 512));
    expectPlain(linearForwardOp(h, DataType::Fp32, 256, 4096, 64, 24));  // CANN's base block
}

TEST(CubeMatMulTbeStore, CoupledCoresStoreThroughUbWithoutAFixPipeWait) {
    const ChipConfig coupled = coupledChip();
    CubeOpHarness h(coupled, 1 << 20);
    auto op = linearForwardOp(h, DataType::Fp32, 32, 96, 512);
    op.attrs[kTbeKernelAttr] = true;
    const LoweredKernel kernel = h.lower(op).at(0);
    FixPipeStoreWaits w;
    for (const Instruction& i : blockProgram(kernel, 0, CoreKind::Coupled)) {
        if (i.opcode != Opcode::WaitFlag) continue;
        const Flag& f = std::get<Flag>(i.operands);
        if (f.src == Pipe::Cube && f.dst == Pipe::FixPipe) ++w.unit;
    }
    EXPECT_EQ(w.unit, 0);
}

// The flag only moves the counter: the product is unchanged.
TEST(CubeMatMulTbeStore, ProductIsUnchanged) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 4 << 20);
    auto op = linearForwardOp(h, DataType::Fp32, 32, 96, 256, 2);
    const auto xv = h.fillRandom(op.inputs[0]), wv = h.fillRandom(op.inputs[1]);
    h.run(op);
    expectNear(h.read(op.outputs[0]), productWithTransposedB(xv, wv, 32, 96, 256), 1e-4, 1e-5, "tbe store");
}

}  // namespace
}  // namespace ascendsim::test
