// ArgMaxWithValue and Range (both built on the lane numbers of tiling/lane_numbers.h) against
// references computed here. ArgMaxWithValue: rows longer than UB (several chunks, a
// partial last step), rows shorter than one step, ties (bf16 values repeat: the first occurrence
// wins), over the block_dim sweep.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kGmBytes = 8ull << 20;

void checkArgMax(std::vector<std::int64_t> shape, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t length = shape.back();
    const std::int64_t rows = [&] {
        std::int64_t n = 1;
        for (auto d : shape) n *= d;
        return n / length;
    }();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", shape, dtype);
        const auto indices = h.tensor("indices", {rows}, DataType::Int32), values = h.tensor("values", {rows}, dtype);
        const auto xs = h.fillRandom(x, -1, 1);
        auto op = makeOp("ArgMaxWithValue", {x}, {indices, values});
        op.attrs = {{"dimension", std::int64_t{-1}}};
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expectedIndex, expectedValue;
        std::size_t ties = 0;
        for (std::int64_t r = 0; r < rows; ++r) {
            const auto begin = xs.begin() + r * length;
            const auto best = std::max_element(begin, begin + length);  // the first of equal maxima
            ties += static_cast<std::size_t>(std::count(begin, begin + length, *best) > 1);
            expectedIndex.push_back(static_cast<double>(best - begin));
            expectedValue.push_back(*best);
        }
        const std::string what = "ArgMaxWithValue " + std::string(dataTypeName(dtype)) + ", " + blockDimName(blockDim);
        expectNear(h.read(indices), expectedIndex, 0.0, 0.0, what + " indices");
        expectNear(h.read(values), expectedValue, 0.0, 0.0, what + " values");
        if (dtype == DataType::Bf16 && length > 1000) {
            EXPECT_GT(ties, 0u) << "the bf16 case must exercise ties";
        }
    }
}

TEST(VectorArgMax, LongRowsStreamThroughChunks) { checkArgMax({3, 1, 40000}, DataType::Fp32); }
TEST(VectorArgMax, TiesKeepTheFirstOccurrence) { checkArgMax({5, 9000}, DataType::Bf16); }
TEST(VectorArgMax, ShortRows) { checkArgMax({7, 100}, DataType::Fp16); }

TEST(VectorRange, WritesStartPlusIndexTimesDelta) {
    const ChipConfig chip = ascend910B1();
    for (const std::int64_t n : {std::int64_t{4096}, std::int64_t{20000}, std::int64_t{37}}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto y = h.tensor("y", {n}, DataType::Fp32);
            h.fill(y, -7.0f);
            auto op = makeOp("Range", {}, {y});
            op.attrs = {{"start", 3.0}, {"limit", 3.0 + 0.5 * static_cast<double>(n)}, {"delta", 0.5}};
            op.blockDim = blockDim;
            h.run(op);
            std::vector<double> expected;
            for (std::int64_t i = 0; i < n; ++i) expected.push_back(3.0 + 0.5 * static_cast<double>(i));
            expectNear(h.read(y), expected, 0.0, 0.0, "Range " + std::to_string(n) + ", " + blockDimName(blockDim));
        }
    }
}

}  // namespace
}  // namespace ascendsim::test
