// RotaryMul and the global AdaptiveAvgPool2d against references computed here.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

void checkRotary(DataType dtype, std::int64_t b, std::int64_t n, std::int64_t s, std::int64_t d) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {b, n, s, d}, dtype);
        const auto cos = h.tensor("cos", {s, d}, dtype), sin = h.tensor("sin", {s, d}, dtype);
        const auto y = h.tensor("y", {b, n, s, d}, dtype);
        const auto xs = h.fillRandom(x), cs = h.fillRandom(cos), ss = h.fillRandom(sin);
        auto op = makeOp("RotaryMul", {x, cos, sin}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(xs.size());
        const auto half = static_cast<std::size_t>(d / 2), dd = static_cast<std::size_t>(d);
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const std::size_t row = i / dd, j = i % dd, table = (row % static_cast<std::size_t>(s)) * dd + j;
            const double rotated = j < half ? -double{xs[i + half]} : double{xs[i - half]};
            expected[i] = xs[i] * cs[table] + rotated * ss[table];
        }
        expectNear(h.read(y), roundedTo(dtype, expected), 1e-3, relativeTolerance(dtype),
                   "RotaryMul, " + blockDimName(blockDim));
    }
}

TEST(VectorRotary, RotaryMulRotatesHalvesAndSharesTablesOverBatchAndHeads) {
    checkRotary(DataType::Fp16, 2, 3, 17, 128);
    checkRotary(DataType::Fp32, 1, 4, 9, 64);
    checkRotary(DataType::Bf16, 2, 2, 5, 256);  // half rows longer than a repeat
}

TEST(VectorRotary, HeadDimThatIsNotAMultipleOf16IsALoweringError) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto op = makeOp("RotaryMul", {h.tensor("x", {1, 1, 4, 40}, DataType::Fp16), h.tensor("c", {4, 40}, DataType::Fp16),
                                         h.tensor("s", {4, 40}, DataType::Fp16)},
                           {h.tensor("y", {1, 1, 4, 40}, DataType::Fp16)});
    EXPECT_THROW(h.lower(op), LoweringError);
}

TEST(VectorPooling, GlobalAdaptiveAvgPoolAveragesEachPlane) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {4, 96, 7, 7}, DataType::Fp16);
        const auto y = h.tensor("y", {4, 96, 1, 1}, DataType::Fp16);
        const auto xs = h.fillRandom(x, -3, 3);
        auto op = makeOp("AdaptiveAvgPool2d", {x}, {y});
        op.attrs["output_size"] = std::vector<std::int64_t>{1, 1};
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(4 * 96, 0.0);
        for (std::size_t i = 0; i < xs.size(); ++i) expected[i / 49] += xs[i] / 49.0;
        expectNear(h.read(y), roundedTo(DataType::Fp16, expected), 1e-3, 2e-3, "AdaptiveAvgPool2d, " + blockDimName(blockDim));
    }
}

}  // namespace
}  // namespace ascendsim::test
