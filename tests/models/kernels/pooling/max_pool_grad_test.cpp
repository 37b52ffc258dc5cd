// MaxPoolGrad against a reference computed here: each window's dy goes to its first maximum (in
// row-major tap order), summed where windows overlap. On the FunctionalMachine with hazard
// checking, over block_dims and shapes whose bands and plane groups do not divide evenly.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct PoolGradCase {
    std::vector<std::int64_t> shape, ksize, strides, pads;
    DataType dtype;
    float xRange = 4.0f;  // small integer ranges make ties likely
    bool integerX = false;
};

void checkMaxPoolGrad(const PoolGradCase& c, const std::vector<std::optional<std::uint32_t>>& blockDims) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t n = c.shape[0], ch = c.shape[1], hh = c.shape[2], ww = c.shape[3];
    const std::int64_t oh = (hh + c.pads[0] + c.pads[1] - c.ksize[0]) / c.strides[0] + 1;
    const std::int64_t ow = (ww + c.pads[2] + c.pads[3] - c.ksize[1]) / c.strides[1] + 1;
    for (const auto& blockDim : blockDims) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", c.shape, c.dtype);
        const auto y = h.tensor("y", {n, ch, oh, ow}, c.dtype);
        const auto dy = h.tensor("dy", {n, ch, oh, ow}, c.dtype);
        const auto dx = h.tensor("dx", c.shape, c.dtype);
        std::vector<float> xs = h.fillRandom(x, -c.xRange, c.xRange);
        if (c.integerX) {  // few distinct values: most windows have tied maxima
            for (auto& v : xs) v = std::floor(v);
            h.machine().writeTensor(x.deviceAddr, c.dtype, xs);
        }
        const auto dys = h.fillRandom(dy, -1, 1);
        h.fill(dx, 55.0f);  // every element must be written
        // The forward result and the reference gradient.
        std::vector<float> ys;
        std::vector<double> expected(xs.size(), 0.0);
        for (std::int64_t p = 0; p < n * ch; ++p)
            for (std::int64_t i = 0; i < oh; ++i)
                for (std::int64_t j = 0; j < ow; ++j) {
                    double best = -INFINITY;
                    std::int64_t at = -1;
                    for (std::int64_t a = 0; a < c.ksize[0]; ++a)
                        for (std::int64_t b = 0; b < c.ksize[1]; ++b) {
                            const std::int64_t r = i * c.strides[0] + a - c.pads[0], q = j * c.strides[1] + b - c.pads[2];
                            if (r < 0 || r >= hh || q < 0 || q >= ww) continue;
                            const std::int64_t idx = (p * hh + r) * ww + q;
                            if (xs[static_cast<std::size_t>(idx)] > best) best = xs[static_cast<std::size_t>(idx)], at = idx;
                        }
                    ys.push_back(static_cast<float>(best));
                    expected[static_cast<std::size_t>(at)] += dys[static_cast<std::size_t>((p * oh + i) * ow + j)];
                }
        h.machine().writeTensor(y.deviceAddr, c.dtype, ys);
        auto op = makeOp("MaxPoolGrad", {x, y, dy}, {dx});
        op.attrs["ksize"] = c.ksize;
        op.attrs["strides"] = c.strides;
        op.attrs["pads"] = c.pads;
        op.blockDim = blockDim;
        h.run(op);
        expectNear(h.read(dx), roundedTo(c.dtype, expected), 2e-3, relativeTolerance(c.dtype),
                   "MaxPoolGrad " + std::string(dataTypeName(c.dtype)) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorMaxPoolGrad, ResNetStemWindowRoutesDyToTheFirstMaximumAndSumsOverlaps) {
    // ResNet-50's max pool (3×3, stride 2, pad 1) on a small and on the real 112×112 plane.
    checkMaxPoolGrad({{2, 3, 13, 11}, {3, 3}, {2, 2}, {1, 1, 1, 1}, DataType::Fp16}, blockDimSweep());
    checkMaxPoolGrad({{1, 9, 112, 112}, {3, 3}, {2, 2}, {1, 1, 1, 1}, DataType::Fp16}, {std::nullopt, 7u});
}

TEST(VectorMaxPoolGrad, TiesGoToTheFirstTapInRowMajorOrder) {
    checkMaxPoolGrad({{1, 10, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, DataType::Fp32, 2.0f, true}, {std::nullopt, 1u, 7u});
}

TEST(VectorMaxPoolGrad, NonOverlappingAndStrideOneWindows) {
    checkMaxPoolGrad({{2, 5, 8, 8}, {2, 2}, {2, 2}, {0, 0, 0, 0}, DataType::Fp32}, {std::nullopt, 1u, 7u});
    checkMaxPoolGrad({{1, 4, 10, 7}, {3, 2}, {1, 1}, {1, 1, 0, 1}, DataType::Fp16}, {std::nullopt, 1u, 7u});
}

TEST(VectorMaxPoolGrad, RunsOnVectorCoresOfSplitChipsAndTheAiCoreOfCoupledChips) {
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        CubeOpHarness h(chip);
        auto op = makeOp("MaxPoolGrad",
                         {h.tensor("x", {2, 64, 112, 112}, DataType::Fp16), h.tensor("y", {2, 64, 56, 56}, DataType::Fp16),
                          h.tensor("dy", {2, 64, 56, 56}, DataType::Fp16)},
                         {h.tensor("dx", {2, 64, 112, 112}, DataType::Fp16)});
        op.attrs["ksize"] = std::vector<std::int64_t>{3, 3};
        op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
        op.attrs["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        EXPECT_EQ(kernels[0].type, chip.organisation == CoreOrganisation::Split ? TaskType::AiVectorCore : TaskType::AiCore);
        EXPECT_EQ(kernels[0].blockDim, chip.organisation == CoreOrganisation::Split ? chip.vectorCoreCount : chip.aiCoreCount);
    }
}

}  // namespace
}  // namespace ascendsim::test
