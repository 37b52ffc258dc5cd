// A true-fp32 GEMM that CANN tiles on its small-shape path (M or N under 256, no base block) loads
// each step's B block L1 → L0B one 16-column fractal column at a time on the split cores
// (docs/fidelity.md §97): the scalar unit issues ceil(n / 16) loads a step. The data still moves as
// one copy; the other loads' issue is charged as scalar work of the AIC's per-instruction cost.
// hf32, fp16, CANN's base-block shapes and the coupled cores keep one load a step.
#include <gtest/gtest.h>

#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kAicInstructionCycles = 29;  // the shipped 910B parts' scalar_cycles_per_instruction_aic

ChipConfig splitChip() {
    ChipConfig chip = ascend910B1();
    chip.scalarCyclesPerInstructionAic = kAicInstructionCycles;
    return chip;
}

// Scalar work items of block 0's AIC program that stand for the extra column loads of a step
// (cycles a multiple of the per-instruction cost), and their total.
struct ColumnLoadIssue {
    std::uint64_t steps = 0, mmads = 0, cycles = 0;
};
ColumnLoadIssue columnLoadIssueOf(const LoweredKernel& kernel, CoreKind kind = CoreKind::Cube) {
    ColumnLoadIssue issue;
    for (const Instruction& instruction : blockProgram(kernel, 0, kind)) {
        if (instruction.opcode == Opcode::Mmad) ++issue.mmads;
        const auto* work = std::get_if<ScalarWork>(&instruction.operands);
        if (instruction.opcode != Opcode::Scalar || work == nullptr || work->cycles < kAicInstructionCycles ||
            work->cycles % kAicInstructionCycles != 0)
            continue;
        ++issue.steps;
        issue.cycles += work->cycles;
    }
    return issue;
}

// AlexNet's fc7 forward in miniature: x [32, 512] · w [256, 512]ᵀ fp32 on one block, one tile of
// 32 × 256 (16 fractal columns) in 32-deep steps: 15 more loads issued every step.
TEST(CubeMatMulFp32BColumnLoads, SkinnyFp32GemmIssuesOneLoadPerFractalColumnEveryStep) {
    const auto chip = splitChip();
    CubeOpHarness h(chip, 4 << 20);
    const auto op = linearForwardOp(h, DataType::Fp32, 32, 256, 512);
    const ColumnLoadIssue issue = columnLoadIssueOf(h.lower(op).at(0));
    EXPECT_EQ(issue.mmads, 512u / 32u);
    EXPECT_EQ(issue.steps, issue.mmads);
    EXPECT_EQ(issue.cycles, issue.mmads * 15 * kAicInstructionCycles);
}

TEST(CubeMatMulFp32BColumnLoads, ProductIsUnchanged) {
    const auto chip = splitChip();
    CubeOpHarness h(chip, 4 << 20);
    auto op = linearForwardOp(h, DataType::Fp32, 32, 64, 256);
    const auto xv = h.fillRandom(op.inputs[0]), wv = h.fillRandom(op.inputs[1]);
    h.run(op);
    expectNear(h.read(op.outputs[0]), productWithTransposedB(xv, wv, 32, 64, 256), 1e-4, 1e-5,
               "fp32 column loads");
    EXPECT_GT(columnLoadIssueOf(h.lower(op).at(0)).steps, 0u);
}

TEST(CubeMatMulFp32BColumnLoads, Hf32Fp16BaseBlockShapesAndCoupledCoresLoadTheBlockAtOnce) {
    const auto chip = splitChip();
    CubeOpHarness h(chip, 4 << 20);
    EXPECT_EQ(columnLoadIssueOf(h.lower(linearForwardOp(h, DataType::Fp16, 32, 256, 512)).at(0)).steps, 0u);
    auto hf32 = linearForwardOp(h, DataType::Fp32, 32, 256, 512);
    hf32.attrs["allow_hf32"] = true;
    EXPECT_EQ(columnLoadIssueOf(h.lower(hf32).at(0)).steps, 0u);
    // 256 × 4096 output: 32 base blocks of 128 × 256 for 24 cores, CANN's base-block path.
    EXPECT_EQ(columnLoadIssueOf(h.lower(linearForwardOp(h, DataType::Fp32, 256, 4096, 64)).at(0)).steps, 0u);

    ChipConfig coupled = coupledChip();
    coupled.scalarCyclesPerInstructionAic = kAicInstructionCycles;
    CubeOpHarness c(coupled, 4 << 20);
    EXPECT_EQ(columnLoadIssueOf(c.lower(linearForwardOp(c, DataType::Fp32, 32, 256, 512)).at(0), CoreKind::Coupled).steps,
              0u);
}

}  // namespace
}  // namespace ascendsim::test
