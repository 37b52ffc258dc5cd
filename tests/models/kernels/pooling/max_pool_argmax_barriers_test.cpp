// MaxPoolWithArgmaxV1 and MaxPoolGradWithArgmaxV1 separate dependent vector instructions with a
// PipeBarrier<PIPE_V>, as CANN's generated code does (docs/fidelity.md §62), and the grad's TIK
// form (fp16) selects one repeat per CMPMASK load where the DSL form (fp32) selects in one pass;
// the TIK form's taps take turns on one mask buffer (§70); the DSL grad runs its col2img scalar
// loop before each tap (§127).
#include <gtest/gtest.h>

#include <variant>
#include <vector>

#include "models/kernels/pooling/max_pool_grad_dsl_loop.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kWindowTaps = 9;

// One block's vector-pipe program: its vector instructions and V barriers in order, and its loads.
struct VectorSteps {
    std::vector<const VectorInstr*> steps;  // nullptr: a PipeBarrier<PIPE_V>
    std::uint64_t gmLoads = 0;
};

VectorSteps vectorSteps(const LoweredKernel& kernel, std::vector<Instruction>& keep) {
    forEachProgramInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) { keep.push_back(i); });
    VectorSteps s;
    for (const Instruction& i : keep) {
        if (const auto* v = std::get_if<VectorInstr>(&i.operands)) s.steps.push_back(v);
        else if (const auto* b = std::get_if<Barrier>(&i.operands); b != nullptr && b->pipe == Pipe::Vector) s.steps.push_back(nullptr);
        else if (const auto* m = std::get_if<DataMove>(&i.operands); m != nullptr && m->src == MemSpace::GM) ++s.gmLoads;
    }
    return s;
}

OpInstance argmaxPoolOp(const std::string& type, const std::vector<TensorInfo>& inputs, const std::vector<TensorInfo>& outputs) {
    auto op = makeOp(type, inputs, outputs);
    op.attrs["ksize"] = std::vector<std::int64_t>{3, 3};
    op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
    op.blockDim = 1u;
    return op;
}

// The DSL form (fp32, PoolingWithArg's NO_SPLIT schedule); the TIK form (fp16) puts a barrier
// before every vector-pipe instruction (max_pool_with_argmax_tik_test.cpp).
TEST(VectorMaxPoolArgmaxBarriers, EachTapsMaxAndEachMaskStepWaitForWhatTheyRead) {
    const ChipConfig chip = ascend910B1();
    for (const DataType dtype : {DataType::Fp32}) {
        CubeOpHarness h(chip, 64ull << 20);
        const auto x = h.tensor("x", {2, 32, 13, 13}, dtype), y = h.tensor("y", {2, 32, 6, 6}, dtype);
        const auto mask = h.tensor("argmax", {2, 2, 9, (36 + 15) / 16 + 1, 16}, DataType::Int16);
        const auto kernels = h.lower(argmaxPoolOp("MaxPoolWithArgmaxV1", {x}, {y, mask}));
        ASSERT_EQ(kernels.size(), 1u);
        std::vector<Instruction> keep;
        const VectorSteps s = vectorSteps(kernels[0], keep);
        // 6 × 6 outputs are 3 fractals, one UB tile a plane; it reads all 13 input rows, a move each.
        const std::uint64_t tiles = 4;
        EXPECT_EQ(s.gmLoads, tiles * 13);
        std::uint64_t barriers = 0, maxAfterBarrier = 0, compareAfterBarrier = 0, chainCopies = 0, chainSteps = 0;
        for (std::size_t k = 0; k < s.steps.size(); ++k) {
            const VectorInstr* v = s.steps[k];
            if (v == nullptr) {
                ++barriers;
                continue;
            }
            const bool afterBarrier = k > 0 && s.steps[k - 1] == nullptr;
            if (v->op == VectorOp::Max && afterBarrier) ++maxAfterBarrier;
            if (v->op == VectorOp::CompareGt && afterBarrier) ++compareAfterBarrier;
            // The mask chain per tap: vand of the tap's bits with the complement, vor of the result
            // into the bits so far, vnot of those (a Copy standing in), each reading the step before.
            if (v->dtype != DataType::Int16 || v->op == VectorOp::Duplicate) continue;
            ++chainSteps;
            if (v->op == VectorOp::Copy) ++chainCopies;
            EXPECT_TRUE(afterBarrier) << dataTypeName(dtype) << " step " << k;
        }
        // Per tile: one before each Max (the first reads img2col's tiles, each later one the previous
        // Max's y), one before the compares, three per tap in the chain.
        EXPECT_EQ(barriers, tiles * (4 * kWindowTaps)) << dataTypeName(dtype);
        EXPECT_EQ(maxAfterBarrier, tiles * (kWindowTaps - 1)) << dataTypeName(dtype);
        // Only the first tap's compare waits (for the last Max); the others read x and y alone.
        EXPECT_EQ(compareAfterBarrier, tiles) << dataTypeName(dtype);
        EXPECT_EQ(chainSteps, tiles * 3 * kWindowTaps) << dataTypeName(dtype);
        EXPECT_EQ(chainCopies, tiles * kWindowTaps) << dataTypeName(dtype);
    }
}

constexpr std::uint64_t kGradPlanes = 4, kGradOutPositions = 36;  // x [2, 32, 13, 13]: 2 x 2 planes of 6 x 6 windows

struct GradSelects {
    std::uint64_t selects = 0, selectLanes = 0, maskLoads = 0, oneRepeatSelects = 0, addsAfterBarrier = 0, tiles = 0;
};

// MaxPoolGradWithArgmaxV1 of x [2, 32, 13, 13] (kGradPlanes planes of 6 x 6 windows) in one block;
// `mask` is set to the argmax tensor.
std::vector<LoweredKernel> lowerGrad(CubeOpHarness& h, DataType dtype, TensorInfo& mask) {
    const auto x = h.tensor("x", {2, 32, 13, 13}, dtype), dy = h.tensor("dy", {2, 32, 6, 6}, dtype);
    mask = h.tensor("argmax", {2, 2, 9, (36 + 15) / 16 + 1, 16}, DataType::Int16);
    const auto dx = h.tensor("dx", {2, 32, 13, 13}, dtype);
    return h.lower(argmaxPoolOp("MaxPoolGradWithArgmaxV1", {x, dy, mask}, {dx}));
}

GradSelects gradSelects(DataType dtype) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 64ull << 20);
    TensorInfo mask;
    const auto kernels = lowerGrad(h, dtype, mask);
    EXPECT_EQ(kernels.size(), 1u);
    std::vector<Instruction> keep;
    const VectorSteps s = vectorSteps(kernels[0], keep);
    GradSelects g;
    // Per plane: TIK loads the dy rows and one mask per tap; the DSL (one COMMON tile a plane) the
    // dy rows and one argmax move.
    g.tiles = s.gmLoads / (dtype == DataType::Fp32 ? 2 : 1 + kWindowTaps);
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
        const VectorInstr* v = s.steps[k];
        if (v == nullptr) continue;
        const VectorInstr* before = k > 0 ? s.steps[k - 1] : nullptr;
        if (v->op == VectorOp::Select) {
            ++g.selects;
            g.selectLanes += (v->repeats - 1) * (kVectorRepeatBytes / bytesOf(dtype)) + v->mask;
            if (v->repeats == 1) ++g.oneRepeatSelects;
            if (before != nullptr && before->op == VectorOp::Copy && before->dtype == DataType::Int16) ++g.maskLoads;
        }
        if (v->op == VectorOp::Add && k > 0 && before == nullptr) ++g.addsAfterBarrier;
    }
    return g;
}

TEST(VectorMaxPoolArgmaxBarriers, GradSelectsOneRepeatPerCmpmaskLoadInTikAndInOnePassInTheDsl) {
    const GradSelects tik = gradSelects(DataType::Fp16), dsl = gradSelects(DataType::Fp32);
    ASSERT_EQ(tik.tiles, kGradPlanes);
    ASSERT_EQ(dsl.tiles, kGradPlanes);
    // Both select every window lane of every tap once; TIK over ⌈Ho·Wo/16⌉·16 positions (ho_wo_16).
    EXPECT_EQ(dsl.selectLanes, kGradPlanes * kWindowTaps * kGradOutPositions * 16);
    EXPECT_EQ(tik.selectLanes, kGradPlanes * kWindowTaps * 48 * 16);
    // TIK: each vsel is one repeat (8 fp16 positions) right after its CMPMASK load.
    EXPECT_EQ(tik.oneRepeatSelects, tik.selects);
    EXPECT_EQ(tik.maskLoads, tik.selects);
    EXPECT_GE(tik.selects, tik.selectLanes / 128);
    // DSL: one pass per tap and tile, no CMPMASK loads.
    EXPECT_EQ(dsl.maskLoads, 0u);
    EXPECT_LT(dsl.selects * 2, tik.selects);
    // Each tap's Adds wait for the selected values (and the previous tap's sums).
    EXPECT_EQ(tik.addsAfterBarrier, tik.tiles * kWindowTaps);
    EXPECT_EQ(dsl.addsAfterBarrier, dsl.tiles * kWindowTaps);
}

// CANN 8.1's TIK grad reuses one mask buffer: each tap's mask load waits for the previous tap's
// vector work (a V -> MTE2 flag between every two mask loads), and each tap's vector work for its
// load. A plane's grad rows are one load; the plane's dx one store after the last tap.
TEST(VectorMaxPoolArgmaxBarriers, TikGradTapsTakeTurnsOnOneMaskBuffer) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 64ull << 20);
    TensorInfo mask;
    const auto kernels = lowerGrad(h, DataType::Fp16, mask);
    ASSERT_EQ(kernels.size(), 1u);
    std::vector<Instruction> program;
    forEachProgramInstruction(kernels[0], CoreKind::Vector, [&](const Instruction& i) { program.push_back(i); });
    std::uint64_t maskLoads = 0, gradLoads = 0, loadsAfterVectorWait = 0, stores = 0;
    bool waitedForVector = false;
    for (const Instruction& i : program) {
        if (const auto* f = std::get_if<Flag>(&i.operands); f != nullptr && i.opcode == Opcode::WaitFlag && f->src == Pipe::Vector &&
                                                             f->dst == Pipe::Mte2)
            waitedForVector = true;
        const auto* m = std::get_if<DataMove>(&i.operands);
        if (m == nullptr) continue;
        if (m->src == MemSpace::GM) {
            const bool isMask = m->srcAddr >= mask.deviceAddr && m->srcAddr < mask.deviceAddr + mask.bytes();
            ++(isMask ? maskLoads : gradLoads);
            if (isMask && waitedForVector) ++loadsAfterVectorWait;
            if (isMask) waitedForVector = false;
        } else if (m->dst == MemSpace::GM) {
            ++stores;
        }
    }
    EXPECT_EQ(gradLoads, kGradPlanes);
    EXPECT_EQ(maskLoads, kGradPlanes * kWindowTaps);
    // Every mask load waits for the vector work before it (the first for the block's set-up clears).
    EXPECT_EQ(loadsAfterVectorWait, maskLoads);
    EXPECT_EQ(stores, kGradPlanes);
}

// The DSL grad (fp32) is scalar-bound on the chip: before each tap's Adds the scalar unit runs the
// schedule's col2img loop, sh·sw iterations of kDslCol2ImgIterationScalarCycles (the selects come
// first, one a tap, §174); the TIK form (fp16) has no such loop (its scalar work is
// tik_scalar_work.h's, a few cycles an instruction).
TEST(VectorMaxPoolArgmaxBarriers, DslGradRunsItsCol2ImgScalarLoopBeforeEveryTap) {
    const std::uint32_t loopCycles = dslCol2ImgTapScalarCycles(2, 2);
    ASSERT_EQ(loopCycles, 4 * kDslCol2ImgIterationScalarCycles);
    for (const DataType dtype : {DataType::Fp32, DataType::Fp16}) {
        const ChipConfig chip = ascend910B1();
        CubeOpHarness h(chip, 64ull << 20);
        TensorInfo mask;
        const auto kernels = lowerGrad(h, dtype, mask);
        ASSERT_EQ(kernels.size(), 1u);
        std::vector<Instruction> program;
        forEachProgramInstruction(kernels[0], CoreKind::Vector, [&](const Instruction& i) { program.push_back(i); });
        std::uint64_t loops = 0, selects = 0, addsAfterLoop = 0;
        for (std::size_t k = 0; k < program.size(); ++k) {
            const auto* work = std::get_if<ScalarWork>(&program[k].operands);
            const bool loop = program[k].opcode == Opcode::Scalar && work != nullptr && work->cycles == loopCycles;
            if (loop) ++loops;
            const auto* v = std::get_if<VectorInstr>(&program[k].operands);
            if (v == nullptr) continue;
            if (v->op == VectorOp::Select) ++selects;
            const auto* before = k > 0 ? std::get_if<ScalarWork>(&program[k - 1].operands) : nullptr;
            if (v->op == VectorOp::Add && before != nullptr && before->cycles == loopCycles) ++addsAfterLoop;
        }
        if (dtype == DataType::Fp32) {
            EXPECT_EQ(loops, kGradPlanes * kWindowTaps);  // one UB tile a plane
            EXPECT_EQ(addsAfterLoop, loops);
            EXPECT_EQ(selects, kGradPlanes * kWindowTaps);
        } else {
            EXPECT_EQ(loops, 0u);
        }
    }
}

}  // namespace
}  // namespace ascendsim::test
