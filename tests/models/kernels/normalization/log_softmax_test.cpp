// LogSoftmaxV2 / LogSoftmaxGrad over the last axis against the formulas, on both core organisations.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::size_t kRows = 5, kLength = 1000;  // the CNN samples' [32, 1000] head, fewer rows

std::vector<double> logSoftmaxOf(const std::vector<float>& x) {
    std::vector<double> y(x.size());
    for (std::size_t r = 0; r < kRows; ++r) {
        double max = -INFINITY, sum = 0.0;
        for (std::size_t i = 0; i < kLength; ++i) max = std::max(max, double{x[r * kLength + i]});
        for (std::size_t i = 0; i < kLength; ++i) sum += std::exp(x[r * kLength + i] - max);
        for (std::size_t i = 0; i < kLength; ++i) y[r * kLength + i] = x[r * kLength + i] - max - std::log(sum);
    }
    return y;
}

TEST(VectorLogSoftmax, ForwardIsXMinusTheLogOfTheRowsExpSum) {
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip);
            const auto x = h.tensor("x", {kRows, kLength}, DataType::Fp32);
            const auto y = h.tensor("y", {kRows, kLength}, DataType::Fp32);
            const auto xs = h.fillRandom(x, -8.0f, 8.0f);
            auto op = makeOp("LogSoftmaxV2", {x}, {y});
            op.attrs["axis"] = std::vector<std::int64_t>{-1};
            op.blockDim = blockDim;
            h.run(op);
            expectNear(h.read(y), logSoftmaxOf(xs), 1e-4, 1e-4, "LogSoftmaxV2, " + chip.name + ", " + blockDimName(blockDim));
        }
    }
}

TEST(VectorLogSoftmax, GradIsDyMinusSoftmaxTimesTheRowsDySum) {
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        CubeOpHarness h(chip);
        const auto dy = h.tensor("dy", {kRows, kLength}, DataType::Fp32);
        const auto y = h.tensor("y", {kRows, kLength}, DataType::Fp32);
        const auto dx = h.tensor("dx", {kRows, kLength}, DataType::Fp32);
        const auto dys = h.fillRandom(dy);
        const auto ys = h.fillRandom(y, -9.0f, -5.0f);  // log-probabilities
        h.run(makeOp("LogSoftmaxGrad", {dy, y}, {dx}));
        std::vector<double> expected(dys.size());
        for (std::size_t r = 0; r < kRows; ++r) {
            double sum = 0.0;
            for (std::size_t i = 0; i < kLength; ++i) sum += dys[r * kLength + i];
            for (std::size_t i = 0; i < kLength; ++i)
                expected[r * kLength + i] = dys[r * kLength + i] - std::exp(double{ys[r * kLength + i]}) * sum;
        }
        expectNear(h.read(dx), expected, 1e-4, 1e-4, "LogSoftmaxGrad, " + chip.name);
    }
}

TEST(VectorLogSoftmax, OnlyTheLastAxisIsModelled) {
    const ChipConfig chip = ascend910B1();  // the harness keeps a reference: no temporary
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {kRows, kLength}, DataType::Fp32);
    const auto y = h.tensor("y", {kRows, kLength}, DataType::Fp32);
    auto op = makeOp("LogSoftmaxV2", {x}, {y});
    op.attrs["axis"] = std::int64_t{0};
    EXPECT_THROW(h.lower(op), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
