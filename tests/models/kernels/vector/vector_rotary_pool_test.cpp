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

struct PoolCase {
    bool average;
    std::vector<std::int64_t> shape, ksize, strides, pads;
    DataType dtype;
};

void checkPool(const PoolCase& c) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t n = c.shape[0], ch = c.shape[1], hh = c.shape[2], ww = c.shape[3];
    const std::int64_t oh = (hh + c.pads[0] + c.pads[1] - c.ksize[0]) / c.strides[0] + 1;
    const std::int64_t ow = (ww + c.pads[2] + c.pads[3] - c.ksize[1]) / c.strides[1] + 1;
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", c.shape, c.dtype);
        const auto y = h.tensor("y", {n, ch, oh, ow}, c.dtype);
        const auto xs = h.fillRandom(x, -4, 4);
        auto op = makeOp(c.average ? "AvgPoolV2" : "MaxPoolV3", {x}, {y});
        op.attrs["ksize"] = c.ksize;
        op.attrs["strides"] = c.strides;
        op.attrs["pads"] = c.pads;
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected;
        for (std::int64_t p = 0; p < n * ch; ++p)
            for (std::int64_t i = 0; i < oh; ++i)
                for (std::int64_t j = 0; j < ow; ++j) {
                    double acc = c.average ? 0.0 : -INFINITY;
                    for (std::int64_t a = 0; a < c.ksize[0]; ++a)
                        for (std::int64_t b = 0; b < c.ksize[1]; ++b) {
                            const std::int64_t r = i * c.strides[0] + a - c.pads[0], q = j * c.strides[1] + b - c.pads[2];
                            const bool inside = r >= 0 && r < hh && q >= 0 && q < ww;
                            const double v = inside ? xs[static_cast<std::size_t>((p * hh + r) * ww + q)] : (c.average ? 0.0 : -INFINITY);
                            acc = c.average ? acc + v : std::max(acc, v);
                        }
                    expected.push_back(c.average ? acc / static_cast<double>(c.ksize[0] * c.ksize[1]) : acc);
                }
        expectNear(h.read(y), roundedTo(c.dtype, expected), 1e-4, relativeTolerance(c.dtype),
                   std::string(c.average ? "AvgPoolV2, " : "MaxPoolV3, ") + blockDimName(blockDim));
    }
}

TEST(VectorPooling, MaxPoolTakesTheWindowMaximumWithPadding) {
    checkPool({false, {2, 3, 13, 11}, {3, 3}, {2, 2}, {1, 1, 1, 1}, DataType::Fp16});  // ResNet stem shape
    checkPool({false, {1, 5, 8, 8}, {2, 2}, {2, 2}, {0, 0, 0, 0}, DataType::Fp32});
}

TEST(VectorPooling, AvgPoolAveragesWindowsCountingPadding) {
    checkPool({true, {2, 4, 8, 8}, {2, 2}, {2, 2}, {0, 0, 0, 0}, DataType::Fp32});
    checkPool({true, {1, 6, 9, 7}, {3, 3}, {1, 1}, {1, 1, 1, 1}, DataType::Fp16});
}

}  // namespace
}  // namespace ascendsim::test
