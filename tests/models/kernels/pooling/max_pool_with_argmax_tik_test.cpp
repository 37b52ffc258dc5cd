// MaxPoolWithArgmaxV1's TIK kernel (fp16, max_pool_argmax_tik.h) as CANN 8.1's
// MaxPoolWithargmaxPytorch runs it (docs/fidelity.md §96): the tiling mode a plane's size picks,
// the per-tap gather moves and compares, and the PIPE_V barrier and scalar work in front of every
// vector-pipe instruction; the grad's TIK kernel carries the same scalar work.
#include <gtest/gtest.h>

#include <variant>

#include "models/kernels/pooling/tik_scalar_work.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kTaps = 9;

struct TikPoolProgram {
    std::uint64_t loads = 0, yStores = 0, maskStores = 0, maskStoredBytes = 0;
    std::uint64_t gatherMoves = 0, gatherBursts = 0, compares = 0;
    std::uint64_t vectorPipeSteps = 0, stepsBehindScalarAndBarrier = 0;
};

// One block's program (block dim 1) of a 3 × 3, stride 2 pool of x [n, c, h, w] fp16 on the coupled
// test chip (UB 256 KiB, as the 910A).
TikPoolProgram lowerTikPool(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness harness(chip, 256ull << 20);
    const std::int64_t oh = (h - 3) / 2 + 1, ow = (w - 3) / 2 + 1;
    const auto x = harness.tensor("x", {n, c, h, w}, DataType::Fp16), y = harness.tensor("y", {n, c, oh, ow}, DataType::Fp16);
    const auto mask = harness.tensor("argmax", {n, c / 16, 9, (oh * ow + 15) / 16 + 1, 16}, DataType::Int16);
    auto op = makeOp("MaxPoolWithArgmaxV1", {x}, {y, mask});
    op.attrs["ksize"] = std::vector<std::int64_t>{3, 3};
    op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
    op.blockDim = 1u;
    const auto kernels = harness.lower(op);
    EXPECT_EQ(kernels.size(), 1u);
    TikPoolProgram p;
    std::vector<Instruction> program;
    forEachProgramInstruction(kernels[0], CoreKind::Vector, [&](const Instruction& i) { program.push_back(i); });
    for (std::size_t k = 0; k < program.size(); ++k) {
        const Instruction& i = program[k];
        const auto* move = std::get_if<DataMove>(&i.operands);
        const auto* vector = std::get_if<VectorInstr>(&i.operands);
        const bool ubToUb = move != nullptr && move->src == MemSpace::UB && move->dst == MemSpace::UB;
        if (move != nullptr && move->src == MemSpace::GM) ++p.loads;
        if (move != nullptr && move->dst == MemSpace::GM) {
            if (move->dstAddr >= mask.deviceAddr) {
                ++p.maskStores;
                p.maskStoredBytes += move->totalBytes();
            } else {
                ++p.yStores;
            }
        }
        if (ubToUb && move->burstBytes == 32 && move->srcGapBytes == 32) {  // a tap's inputs, one per 2 positions' stride
            ++p.gatherMoves;
            p.gatherBursts += move->burstCount;
        }
        if (vector != nullptr && vector->op == VectorOp::CompareGt) ++p.compares;
        if (vector == nullptr && !ubToUb) continue;
        ++p.vectorPipeSteps;
        // The barrier waits for the previous instruction, then the scalar unit works out this one's operands.
        const auto* barrier = k >= 2 ? std::get_if<Barrier>(&program[k - 2].operands) : nullptr;
        const auto* scalar = k >= 2 ? std::get_if<ScalarWork>(&program[k - 1].operands) : nullptr;
        if (barrier != nullptr && barrier->pipe == Pipe::Vector && scalar != nullptr &&
            scalar->cycles == kTikScalarCyclesPerInstruction)
            ++p.stepsBehindScalarAndBarrier;
    }
    return p;
}

TEST(MaxPoolWithArgmaxTik, SmallPlanesRunWholeInUnitsOfSeveralPlanes) {
    // 13 × 13 → 6 × 6: a plane (13·13·16 fp16) fits a sixth of UB 7 times (mode 1, c_factor 7);
    // 4 planes make one unit: 4 plane loads, one y store, the unit's masks moved once per plane.
    const TikPoolProgram p = lowerTikPool(2, 32, 13, 13);
    EXPECT_EQ(p.loads, 4u);
    EXPECT_EQ(p.yStores, 1u);
    EXPECT_EQ(p.maskStores, 4u);
    const std::uint64_t unitMaskBytes = 4 * kTaps * ((36 + 15) / 16 + 1) * 16 * 2;
    EXPECT_EQ(p.maskStoredBytes, 4 * unitMaskBytes);
    // Per plane and tap: one gather move per output row (6 positions each) and one compare.
    EXPECT_EQ(p.gatherMoves, 4 * kTaps * 6);
    EXPECT_EQ(p.gatherBursts, 4 * kTaps * 36);
    EXPECT_EQ(p.compares, 4 * kTaps);
}

TEST(MaxPoolWithArgmaxTik, LargePlanesRunInBandsWithOneMaskMovePerTap) {
    // 55 × 55 → 27 × 27: a plane does not fit a sixth of UB, a window's rows do (mode 4); GetFactor's
    // band is 11 output rows ((21162 / (55·16) − 3) / 2 + 1), so 3 bands (11, 11, 5) a plane.
    const TikPoolProgram p = lowerTikPool(1, 32, 55, 55);
    const std::uint64_t planes = 2, bands = 3;
    EXPECT_EQ(p.loads, planes * bands);
    EXPECT_EQ(p.yStores, planes * bands);
    EXPECT_EQ(p.maskStores, planes * bands * kTaps);
    // Every tap's input gathered once per plane: one 32 B burst a position.
    EXPECT_EQ(p.gatherBursts, planes * kTaps * 27 * 27);
    // 297 positions a full band: 256 + 41 → two compares a tap; the 5-row band's 135 one.
    EXPECT_EQ(p.compares, planes * kTaps * (2 + 2 + 1));
}

TEST(MaxPoolWithArgmaxTik, EveryVectorPipeStepWaitsBehindItsScalarWorkAndABarrier) {
    for (const TikPoolProgram& p : {lowerTikPool(2, 32, 13, 13), lowerTikPool(1, 32, 55, 55)}) {
        ASSERT_GT(p.vectorPipeSteps, 0u);
        EXPECT_EQ(p.stepsBehindScalarAndBarrier, p.vectorPipeSteps);
    }
}

TEST(MaxPoolWithArgmaxTik, TheGradsVectorInstructionsCarryTheSameScalarWork) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip, 64ull << 20);
    const auto x = h.tensor("x", {2, 32, 13, 13}, DataType::Fp16), dy = h.tensor("dy", {2, 32, 6, 6}, DataType::Fp16);
    const auto mask = h.tensor("argmax", {2, 2, 9, (36 + 15) / 16 + 1, 16}, DataType::Int16);
    const auto dx = h.tensor("dx", {2, 32, 13, 13}, DataType::Fp16);
    auto op = makeOp("MaxPoolGradWithArgmaxV1", {x, dy, mask}, {dx});
    op.attrs["ksize"] = std::vector<std::int64_t>{3, 3};
    op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
    op.blockDim = 1u;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    std::vector<Instruction> program;
    forEachProgramInstruction(kernels[0], CoreKind::Vector, [&](const Instruction& i) { program.push_back(i); });
    std::uint64_t vectorOps = 0, withScalar = 0;
    for (std::size_t k = 1; k < program.size(); ++k) {
        if (program[k].opcode != Opcode::Vector) continue;
        ++vectorOps;
        const auto* scalar = std::get_if<ScalarWork>(&program[k - 1].operands);
        if (scalar != nullptr && scalar->cycles == kTikScalarCyclesPerInstruction) ++withScalar;
    }
    ASSERT_GT(vectorOps, 0u);
    EXPECT_EQ(withScalar, vectorOps);
}

}  // namespace
}  // namespace ascendsim::test
