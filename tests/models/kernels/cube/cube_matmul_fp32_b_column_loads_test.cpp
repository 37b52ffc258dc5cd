// A true-fp32 GEMM that CANN tiles on its small-shape path (M or N under 256, no base block) loads
// each step's B block L1 → L0B one 16-column fractal column at a time on the split cores
// (docs/fidelity.md §97, §130): ceil(n / 16) loads a step, each of one column's bytes, so MTE1 pays
// each load's fixed cost on the L1 → L0B curve and the scalar unit issues each one. hf32, fp16, CANN's
// base-block shapes and the coupled cores keep one load a step.
#include <gtest/gtest.h>

#include "models/timing/transfer_timing.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kAicInstructionCycles = 29;  // the shipped 910B parts' scalar_cycles_per_instruction_aic

// The shipped 910B1's L1 → L0B curve (configs/Ascend910B1.yaml): ~2 cycles fixed a load, 131 B/cycle.
PathTiming l1ToL0bPath() {
    PathTiming path;
    path.src = MemSpace::L1;
    path.dst = MemSpace::L0B;
    path.peakBytesPerCycle = 131.0;
    path.curve.bytes = {1024, 4096, 16384, 32768, 65536};
    path.curve.cycles = {9.9, 33.2, 126.6, 251.1, 500.3};
    return path;
}

ChipConfig splitChip() {
    ChipConfig chip = ascend910B1();
    chip.scalarCyclesPerInstructionAic = kAicInstructionCycles;
    chip.paths.push_back(l1ToL0bPath());
    return chip;
}

// Block 0's AIC program: its mmads, its L1 → L0B loads (count, bytes, MTE1 cycles) and the scalar
// work that stands for column loads not issued on their own (cycles a multiple of the issue cost).
struct BLoads {
    std::uint64_t mmads = 0, loads = 0, bytes = 0, mte1Cycles = 0, largestLoad = 0, scalarIssueCycles = 0;
};
BLoads bLoadsOf(const ChipConfig& chip, const LoweredKernel& kernel, CoreKind kind = CoreKind::Cube) {
    const TransferTiming timing(chip);
    BLoads out;
    for (const Instruction& instruction : blockProgram(kernel, 0, kind)) {
        if (instruction.opcode == Opcode::Mmad) ++out.mmads;
        if (const auto* move = std::get_if<DataMove>(&instruction.operands);
            move != nullptr && move->src == MemSpace::L1 && move->dst == MemSpace::L0B) {
            ++out.loads;
            out.bytes += move->totalBytes();
            out.mte1Cycles += timing.cycles(*move);
            out.largestLoad = std::max(out.largestLoad, move->totalBytes());
        }
        const auto* work = std::get_if<ScalarWork>(&instruction.operands);
        if (instruction.opcode == Opcode::Scalar && work != nullptr && work->cycles >= kAicInstructionCycles &&
            work->cycles % kAicInstructionCycles == 0)
            out.scalarIssueCycles += work->cycles;
    }
    return out;
}

OpInstance skinnyGemm(CubeOpHarness& h, DataType dtype, std::int64_t m, std::int64_t n, std::int64_t k,
                      bool transposeB = true) {
    auto op = makeOp("MatMul",
                     {h.tensor("x", {m, k}, dtype),
                      transposeB ? h.tensor("w", {n, k}, dtype) : h.tensor("w", {k, n}, dtype)},
                     {h.tensor("y", {m, n}, dtype)});
    op.attrs["transpose_b"] = transposeB;
    op.blockDim = 1;
    return op;
}

// AlexNet's fc7 forward in miniature: x [32, 512] · w [256, 512]ᵀ fp32 on one block, one tile of
// 32 × 256 (16 fractal columns) in 32-deep steps: 16 loads of one 32 × 16 column (2 KiB) a step,
// which cost MTE1 more than the block in one load would (each pays the curve's fixed cost).
TEST(CubeMatMulFp32BColumnLoads, SkinnyFp32GemmLoadsOneFractalColumnAtATime) {
    const auto chip = splitChip();
    CubeOpHarness h(chip, 4 << 20);
    for (const bool transposeB : {true, false}) {
        const BLoads loads = bLoadsOf(chip, h.lower(skinnyGemm(h, DataType::Fp32, 32, 256, 512, transposeB)).at(0));
        EXPECT_EQ(loads.mmads, 512u / 32u) << transposeB;
        EXPECT_EQ(loads.loads, loads.mmads * 16) << transposeB;
        EXPECT_EQ(loads.largestLoad, 32u * 16u * 4u) << transposeB;
        EXPECT_EQ(loads.bytes, 512u * 256u * 4u) << transposeB;
        EXPECT_EQ(loads.scalarIssueCycles, 0u) << transposeB;
        DataMove block;
        block.src = MemSpace::L1;
        block.dst = MemSpace::L0B;
        block.burstBytes = 32u * 256u * 4u;
        EXPECT_GT(loads.mte1Cycles, loads.mmads * TransferTiming(chip).cycles(block)) << transposeB;
    }
}

// Stored [n × K] (transposed) and [K × n], with an n of whole fractal columns (80: five); an N or K
// off the fractal runs CANN's unaligned pattern instead (cube_matmul_fractal_loads_test.cpp).
TEST(CubeMatMulFp32BColumnLoads, ProductIsUnchanged) {
    const auto chip = splitChip();
    CubeOpHarness h(chip, 4 << 20);
    constexpr std::int64_t k = 256;
    auto op = skinnyGemm(h, DataType::Fp32, 32, 80, k);
    const auto xv = h.fillRandom(op.inputs[0]), wv = h.fillRandom(op.inputs[1]);
    h.run(op);
    expectNear(h.read(op.outputs[0]), productWithTransposedB(xv, wv, 32, 80, static_cast<std::size_t>(k)), 1e-4, 1e-5,
               "fp32 column loads, B transposed");
    auto plain = skinnyGemm(h, DataType::Fp32, 32, 80, k, false);
    const auto pxv = h.fillRandom(plain.inputs[0]), pwv = h.fillRandom(plain.inputs[1]);
    h.run(plain);
    std::vector<double> expected(32 * 80, 0.0);
    for (std::size_t i = 0; i < 32; ++i)
        for (std::size_t j = 0; j < 80; ++j)
            for (std::size_t p = 0; p < static_cast<std::size_t>(k); ++p)
                expected[i * 80 + j] += double(pxv[i * static_cast<std::size_t>(k) + p]) * pwv[p * 80 + j];
    expectNear(h.read(plain.outputs[0]), expected, 1e-4, 1e-5, "fp32 column loads, B stored K × n");
    const BLoads loads = bLoadsOf(chip, h.lower(op).at(0));
    EXPECT_EQ(loads.loads, loads.mmads * 5u);
    EXPECT_EQ(loads.scalarIssueCycles, 0u);
}

TEST(CubeMatMulFp32BColumnLoads, Hf32Fp16BaseBlockShapesAndCoupledCoresLoadTheBlockAtOnce) {
    const auto chip = splitChip();
    CubeOpHarness h(chip, 4 << 20);
    const auto oneLoadAStep = [&](const ChipConfig& c, const LoweredKernel& kernel, CoreKind kind) {
        const BLoads loads = bLoadsOf(c, kernel, kind);
        EXPECT_EQ(loads.loads, loads.mmads);
        EXPECT_EQ(loads.scalarIssueCycles, 0u);
    };
    oneLoadAStep(chip, h.lower(skinnyGemm(h, DataType::Fp16, 32, 256, 512)).at(0), CoreKind::Cube);
    auto hf32 = skinnyGemm(h, DataType::Fp32, 32, 256, 512);
    hf32.attrs["allow_hf32"] = true;
    oneLoadAStep(chip, h.lower(hf32).at(0), CoreKind::Cube);
    // 256 × 4096 output: 32 base blocks of 128 × 256 for 24 cores, CANN's base-block path.
    oneLoadAStep(chip, h.lower(skinnyGemm(h, DataType::Fp32, 256, 4096, 64)).at(0), CoreKind::Cube);

    ChipConfig coupled = coupledChip();
    coupled.scalarCyclesPerInstructionAic = kAicInstructionCycles;
    coupled.paths.push_back(l1ToL0bPath());
    CubeOpHarness c(coupled, 4 << 20);
    oneLoadAStep(coupled, c.lower(skinnyGemm(c, DataType::Fp32, 32, 256, 512)).at(0), CoreKind::Coupled);
}

}  // namespace
}  // namespace ascendsim::test
