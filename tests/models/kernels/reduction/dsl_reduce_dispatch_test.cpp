// CANN's dynamic reduce-schedule kernels on the 220x (docs/fidelity.md §68): a column reduction
// splits the kept axis over every core in 32 B granules, and every block of a column reduction or
// a LogSoftmax starts with its tiling-case dispatch on the scalar unit; the coupled chip's static
// kernels do not dispatch.
#include <gtest/gtest.h>

#include <variant>

#include "models/kernels/reduction/dsl_reduce_dispatch.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

// Whether the block begins with the dispatch: a scalar step of its cycles before any move or
// vector op, and nowhere else.
bool startsWithDispatch(const std::vector<Instruction>& program) {
    std::size_t dispatches = 0;
    bool first = true, leading = false;
    for (const Instruction& instruction : program) {
        const auto* work = std::get_if<ScalarWork>(&instruction.operands);
        const bool dispatch = instruction.opcode == Opcode::Scalar && work && work->cycles == kDslReduceDispatchScalarCycles;
        if (dispatch) ++dispatches, leading |= first;
        if (instruction.opcode == Opcode::DataMove || instruction.opcode == Opcode::Vector) first = false;
    }
    return dispatches == 1 && leading;
}

LoweredKernel soleKernelOf(CubeOpHarness& h, OpInstance op) {
    auto kernels = h.lower(op);
    EXPECT_EQ(kernels.size(), 1u);
    return std::move(kernels.front());
}

OpInstance sumOverRows(CubeOpHarness& h, std::int64_t columns) {
    auto op = makeOp("ReduceSum", {h.tensor("x", {32, columns}, DataType::Fp32)}, {h.tensor("y", {1, columns}, DataType::Fp32)});
    op.attrs["axes"] = std::vector<std::int64_t>{0};
    return op;
}

// ReduceSum [32, 1000] over axis 0 at the real row's block dim 42 (48 AIV): 24 columns a block,
// each block's load is the 32 rows of its 96 B (the last block's 16 columns: 64 B), its store one
// 96 B row. Before, a block's chunk was as wide as UB holds (496 columns) and 39 blocks idled.
TEST(VectorDslReduce, AColumnReductionSpreadsTheKeptAxisOverEveryCore) {
    const ChipConfig chip = ascend910B1();
    ASSERT_EQ(chip.vectorCoreCount, 48u);
    CubeOpHarness h(chip);
    auto op = sumOverRows(h, 1000);
    op.blockDim = 42;
    const LoweredKernel kernel = soleKernelOf(h, op);
    for (std::uint32_t block = 0; block < 42; ++block) {
        const std::uint32_t columns = block < 41 ? 24 : 1000 - 41 * 24;
        std::uint32_t loads = 0, stores = 0;
        for (const Instruction& instruction : blockProgram(kernel, block, CoreKind::Vector)) {
            const auto* move = std::get_if<DataMove>(&instruction.operands);
            if (!move) continue;
            if (move->src == MemSpace::GM) {
                ++loads;
                EXPECT_EQ(move->burstCount, 32u) << "block " << block;
                EXPECT_EQ(move->burstBytes, columns * 4) << "block " << block;
            } else if (move->dst == MemSpace::GM) {
                ++stores;
                EXPECT_EQ(move->burstBytes, columns * 4) << "block " << block;
            }
        }
        EXPECT_EQ(loads, 1u) << "block " << block;
        EXPECT_EQ(stores, 1u) << "block " << block;
    }
}

TEST(VectorDslReduce, EveryBlockDispatchesOnItsTilingCaseOnSplitChipsOnly) {
    for (const bool split : {true, false}) {
        const ChipConfig chip = split ? ascend910B1() : coupledChip();
        const CoreKind kind = split ? CoreKind::Vector : CoreKind::Coupled;
        CubeOpHarness h(chip);
        auto sum = sumOverRows(h, 4096);
        sum.blockDim = 4;
        auto forward = makeOp("LogSoftmaxV2", {h.tensor("x", {8, 1000}, DataType::Fp32)}, {h.tensor("y", {8, 1000}, DataType::Fp32)});
        forward.attrs["axis"] = std::vector<std::int64_t>{-1};
        forward.blockDim = 4;
        auto grad = makeOp("LogSoftmaxGrad", {h.tensor("dy", {8, 1000}, DataType::Fp32), h.tensor("y2", {8, 1000}, DataType::Fp32)},
                           {h.tensor("dx", {8, 1000}, DataType::Fp32)});
        grad.attrs["axis"] = std::vector<std::int64_t>{-1};
        grad.blockDim = 4;
        for (const OpInstance& op : {sum, forward, grad}) {
            const LoweredKernel kernel = soleKernelOf(h, op);
            for (std::uint32_t block = 0; block < kernel.blockDim; ++block)
                EXPECT_EQ(startsWithDispatch(blockProgram(kernel, block, kind)), split)
                    << op.type << " on " << chip.name << ", block " << block;
            // §102: the binary's code a block runs through is the reduce schedule's, not the
            // chip's default image, on the split chips only.
            EXPECT_EQ(kernel.codeBytes, split ? kDslReduceCodeBytes : 0u) << op.type << " on " << chip.name;
            EXPECT_EQ(kernelTaskOf(kernel).codeBytes, kernel.codeBytes) << op.type;
        }
    }
}

// docs/fidelity.md §176: a sum of every element is a launch of the same reduce binary (one per
// dtype, §68), so on the split chips its blocks run through the binary's image too.
TEST(VectorDslReduce, AWholeTensorSumRunsThroughTheReduceBinarysImageOnSplitChips) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("ReduceSum", {h.tensor("x", {32}, DataType::Fp32)}, {h.tensor("y", {1}, DataType::Fp32)});
    op.attrs["axes"] = std::vector<std::int64_t>{0};
    op.blockDim = 1;
    const LoweredKernel kernel = soleKernelOf(h, op);
    EXPECT_EQ(kernel.codeBytes, kDslReduceCodeBytes);
    EXPECT_EQ(kernelTaskOf(kernel).codeBytes, kDslReduceCodeBytes);
}

}  // namespace
}  // namespace ascendsim::test
