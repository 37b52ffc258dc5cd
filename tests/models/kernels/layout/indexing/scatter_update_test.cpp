// ScatterUpdate (the KV-cache row write) against a reference computed here: the indexed rows of
// var take the update rows, every other row keeps its value, on the FunctionalMachine with hazard
// checking, over the block_dim sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tests/models/kernels/index_test_support.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

// Writes `count` distinct rows of axis `axis` of var (shape `varShape`).
void checkScatter(const std::vector<std::int64_t>& varShape, std::int64_t axis, std::int64_t count,
                  DataType dtype, DataType indexType) {
    const ChipConfig chip = ascend910B1();
    const auto at = static_cast<std::size_t>(
        axis < 0 ? axis + static_cast<std::int64_t>(varShape.size()) : axis);
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < varShape.size(); ++d) {
        if (d < at) outer *= varShape[d];
        if (d > at) inner *= varShape[d];
    }
    const std::int64_t rows = varShape[at];
    auto updateShape = varShape;
    updateShape[at] = count;
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto var = h.tensor("var", varShape, dtype);
        const auto indices = h.tensor("indices", {count}, indexType);
        const auto updates = h.tensor("updates", updateShape, dtype);
        const auto before = h.fillRandom(var, -2, 2);
        const auto news = h.fillRandom(updates, 3, 5);  // distinguishable from var's values
        std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), h.rng());
        order.resize(static_cast<std::size_t>(count));
        writeIndices(h, indices, order);
        auto op = makeOp("ScatterUpdate", {var, indices, updates}, {var});
        op.attrs["axis"] = axis;
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(before.begin(), before.end());
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t i = 0; i < count; ++i)
                for (std::int64_t e = 0; e < inner; ++e)
                    expected[static_cast<std::size_t>(
                        (o * rows + order[static_cast<std::size_t>(i)]) * inner + e)] =
                        news[static_cast<std::size_t>((o * count + i) * inner + e)];
        expectNear(h.read(var), expected, 0.0, 0.0,
                   "ScatterUpdate axis " + std::to_string(axis) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorScatterUpdate, DecodeWritesOneRowPerHeadIntoTheCache) {
    checkScatter({1, 8, 40, 128}, 2, 1, DataType::Fp16,
                 DataType::Int64);  // [B, N, max_seq, D], one new token
    checkScatter({2, 4, 33, 64}, -2, 1, DataType::Bf16, DataType::Int32);
}

TEST(VectorScatterUpdate, PrefillWritesThePromptRows) {
    checkScatter({1, 4, 300, 64}, 2, 260, DataType::Fp16,
                 DataType::Int64);                                   // several tiles per head
    checkScatter({50, 24}, 0, 37, DataType::Fp32, DataType::Int32);  // axis 0, 96 B rows
    checkScatter({3, 9, 5}, 1, 4, DataType::Fp16, DataType::Int32);  // 10 B rows
}

TEST(VectorScatterUpdate, IndexOutsideVarIsRejectedByTheFunctionalModel) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto var = h.tensor("var", {8, 16}, DataType::Fp16);
    const auto indices = h.tensor("indices", {2}, DataType::Int32);
    const auto updates = h.tensor("updates", {2, 16}, DataType::Fp16);
    writeIndices(h, indices, {3, 8});
    EXPECT_THROW(h.run(makeOp("ScatterUpdate", {var, indices, updates}, {var})), std::exception);
}

TEST(VectorScatterUpdate, TheOutputMustBeVarItself) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto var = h.tensor("var", {8, 16}, DataType::Fp16);
    auto op =
        makeOp("ScatterUpdate",
               {var, h.tensor("i", {2}, DataType::Int32), h.tensor("u", {2, 16}, DataType::Fp16)},
               {h.tensor("copy", {8, 16}, DataType::Fp16)});
    EXPECT_THROW(h.lower(op), LoweringError);
}

TEST(VectorScatterUpdate, RunsOnCoupledChipsToo) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip);
    const auto var = h.tensor("var", {2, 20, 32}, DataType::Fp16);
    const auto indices = h.tensor("indices", {3}, DataType::Int32);
    const auto updates = h.tensor("updates", {2, 3, 32}, DataType::Fp16);
    const auto before = h.fillRandom(var, -2, 2);
    const auto news = h.fillRandom(updates, 3, 5);
    writeIndices(h, indices, {7, 0, 19});
    auto op = makeOp("ScatterUpdate", {var, indices, updates}, {var});
    op.attrs["axis"] = std::int64_t{1};
    const auto kernels = h.run(op);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::AiCore);
    const auto after = h.read(var);
    EXPECT_EQ(after[(1 * 20 + 19) * 32 + 5], news[(1 * 3 + 2) * 32 + 5]);
    EXPECT_EQ(after[(0 * 20 + 1) * 32], before[(0 * 20 + 1) * 32]);
}

}  // namespace
}  // namespace ascendsim::test
