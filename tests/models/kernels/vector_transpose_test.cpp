// Transpose: row reorders and batched 2-D transposes against index arithmetic.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

void checkTranspose(std::vector<std::int64_t> shape, std::vector<std::int64_t> perm, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    std::vector<std::int64_t> outShape;
    for (auto p : perm) outShape.push_back(shape[static_cast<std::size_t>(p)]);
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", shape, dtype);
        const auto y = h.tensor("y", outShape, dtype);
        const auto xs = h.fillRandom(x, -100, 100);
        auto op = makeOp("Transpose", {x}, {y});
        op.attrs["perm"] = perm;
        op.blockDim = blockDim;
        h.run(op);
        const std::size_t rank = shape.size();
        std::vector<double> expected(xs.size());
        for (std::size_t o = 0; o < xs.size(); ++o) {
            std::vector<std::int64_t> outIndex(rank);
            std::size_t rest = o;
            for (std::size_t d = rank; d-- > 0;) {
                outIndex[d] = static_cast<std::int64_t>(rest % static_cast<std::size_t>(outShape[d]));
                rest /= static_cast<std::size_t>(outShape[d]);
            }
            std::vector<std::int64_t> inIndex(rank);
            for (std::size_t d = 0; d < rank; ++d) inIndex[static_cast<std::size_t>(perm[d])] = outIndex[d];
            std::size_t flat = 0;
            for (std::size_t d = 0; d < rank; ++d) flat = flat * static_cast<std::size_t>(shape[d]) + static_cast<std::size_t>(inIndex[d]);
            expected[o] = xs[flat];
        }
        expectNear(h.read(y), expected, 0, 0, "Transpose, " + blockDimName(blockDim));
    }
}

TEST(VectorTranspose, SwappingMiddleDimsReordersRows) {
    checkTranspose({2, 30, 4, 64}, {0, 2, 1, 3}, DataType::Fp16);  // attention [B,S,N,D] → [B,N,S,D]
}

TEST(VectorTranspose, SwappingTheLastTwoDimsTransposesTiles) {
    checkTranspose({3, 70, 130}, {0, 2, 1}, DataType::Fp32);
    checkTranspose({2, 5, 6, 7}, {0, 2, 3, 1}, DataType::Fp16);  // NCHW → NHWC
    checkTranspose({4, 5, 6}, {2, 0, 1}, DataType::Fp32);
}

TEST(VectorTranspose, OtherPermutationsAreLoweringErrors) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("Transpose", {h.tensor("x", {2, 3, 4, 5}, DataType::Fp16)}, {h.tensor("y", {5, 3, 4, 2}, DataType::Fp16)});
    op.attrs["perm"] = std::vector<std::int64_t>{3, 1, 2, 0};
    EXPECT_THROW(h.lower(op), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
