// The NCHW batch-norm application kernels choose their tile plan by shape (batch_norm_apply.h):
// small planes are applied in slabs of several channels (one GM burst per image covers several
// planes), large planes keep one channel per tile (one burst per plane). Either plan must match
// the reference for every block_dim.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

// The GM→UB bursts that read `x` in block 0 of `kernel`.
std::vector<std::uint64_t> burstsFrom(const LoweredKernel& kernel, const TensorInfo& x) {
    std::vector<std::uint64_t> bursts;
    for (const Instruction& instruction : blockProgram(kernel, 0, CoreKind::Vector)) {
        const auto* m = std::get_if<DataMove>(&instruction.operands);
        if (m && m->src == MemSpace::GM && m->srcAddr >= x.deviceAddr && m->srcAddr < x.deviceAddr + x.bytes())
            bursts.push_back(m->burstBytes);
    }
    return bursts;
}

// The longest of them: a plane's bytes for channel tiles, several planes' for channel slabs.
std::uint64_t longestBurstFrom(const LoweredKernel& kernel, const TensorInfo& x) {
    const auto bursts = burstsFrom(kernel, x);
    return bursts.empty() ? 0 : *std::max_element(bursts.begin(), bursts.end());
}

struct BnShape {
    std::int64_t n, c, h, w;
    std::vector<std::int64_t> dims() const { return {n, c, h, w}; }
    std::size_t channelOf(std::size_t flat) const {
        return flat / static_cast<std::size_t>(h * w) % static_cast<std::size_t>(c);
    }
    std::uint64_t planeBytes(DataType dtype) const { return static_cast<std::uint64_t>(h * w) * bytesOf(dtype); }
};

// Runs BNInfer on `shape` for every block_dim of the sweep, checks y and returns the longest x
// burst of each run.
std::vector<std::uint64_t> checkBnInfer(const BnShape& shape, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    std::vector<std::uint64_t> bursts;
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", shape.dims(), dtype), y = h.tensor("y", shape.dims(), dtype);
        std::vector<TensorInfo> params;
        for (const char* name : {"scale", "offset", "mean", "variance"})
            params.push_back(h.tensor(name, {shape.c}, DataType::Fp32));
        const auto in = h.fillRandom(x, -2, 2);
        const auto scale = h.fillRandom(params[0], 0.5, 1.5), offset = h.fillRandom(params[1], -1, 1);
        const auto mean = h.fillRandom(params[2], -0.5, 0.5), variance = h.fillRandom(params[3], 0.2, 2);
        auto op = makeOp("BNInfer", {x, params[0], params[1], params[2], params[3]}, {y});
        op.blockDim = blockDim;
        bursts.push_back(longestBurstFrom(h.run(op).at(0), x));
        std::vector<double> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::size_t c = shape.channelOf(i);
            expected[i] = (in[i] - mean[c]) / std::sqrt(variance[c] + 1e-5) * scale[c] + offset[c];
        }
        expectNear(h.read(y), roundedTo(dtype, expected), 1e-3, relativeTolerance(dtype),
                   "BNInfer, " + blockDimName(blockDim));
    }
    return bursts;
}

// BNInfer of fp16 x of `shape` with per-channel inputs of `paramType` (x is the op's input 0), for
// tests that only inspect the programs.
OpInstance bnInferOf(CubeOpHarness& h, const BnShape& shape, DataType paramType) {
    const auto x = h.tensor("x", shape.dims(), DataType::Fp16), y = h.tensor("y", shape.dims(), DataType::Fp16);
    std::vector<TensorInfo> params;
    for (const char* name : {"scale", "offset", "mean", "variance"})
        params.push_back(h.tensor(name, {shape.c}, paramType));
    return makeOp("BNInfer", {x, params[0], params[1], params[2], params[3]}, {y});
}

TEST(VectorBatchNormSlabs, BnInferAppliesSevenBySevenPlanesInSlabsOfSeveralChannels) {
    const BnShape shape{4, 96, 7, 7};
    const auto bursts = checkBnInfer(shape, DataType::Fp16);
    EXPECT_GT(bursts.front(), 8 * shape.planeBytes(DataType::Fp16)) << "default block_dim";
}

TEST(VectorBatchNormSlabs, BnInferAppliesFourteenByFourteenPlanesInSlabsWhenFewImages) {
    const BnShape shape{2, 40, 14, 14};
    const auto bursts = checkBnInfer(shape, DataType::Fp16);
    EXPECT_GT(bursts.front(), shape.planeBytes(DataType::Fp16)) << "default block_dim";
}

// With one block every channel's coefficient tile would have to fit in UB at once: 2048 channels
// of 7×7 do not, so that launch keeps one channel per tile while the default one uses slabs.
TEST(VectorBatchNormSlabs, BnInferFallsBackToChannelTilesWhenCoefficientTilesDoNotFit) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // GM is not touched: only the programs are inspected
    const BnShape shape{32, 2048, 7, 7};
    auto op = bnInferOf(h, shape, DataType::Fp16);
    const TensorInfo x = op.inputs[0];
    EXPECT_GT(longestBurstFrom(h.lower(op).at(0), x), shape.planeBytes(DataType::Fp16));
    op.blockDim = 1;
    EXPECT_EQ(longestBurstFrom(h.lower(op).at(0), x), shape.planeBytes(DataType::Fp16));
}

// ResNet-50's [32, 1024, 14, 14] fp16 layer: 392 B planes. One channel's 32 planes per tile issue
// fewer instructions, but that tile moves one padded burst a plane; CANN's DSL broadcast schedule
// moves runs of the fused [N, C, H·W] shape (docs/fidelity.md §87), as the slabs do: every burst
// whole 32 B blocks and several planes long.
TEST(VectorBatchNormSlabs, BnInferMovesUnalignedPlanesAsRunsOfPlanes) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // GM is not touched: only the programs are inspected
    const BnShape shape{32, 1024, 14, 14};
    const auto op = bnInferOf(h, shape, DataType::Fp32);
    const auto bursts = burstsFrom(h.lower(op).at(0), op.inputs[0]);
    ASSERT_FALSE(bursts.empty());
    for (const std::uint64_t burst : bursts) {
        EXPECT_EQ(burst % kUbBlockBytes, 0u);
        EXPECT_GT(burst, shape.planeBytes(DataType::Fp16));
    }
}

TEST(VectorBatchNormSlabs, BnInferOfUnalignedPlanesMatchesTheReference) {
    for (const std::uint64_t burst : checkBnInfer({16, 48, 5, 5}, DataType::Fp16))
        EXPECT_EQ(burst % kUbBlockBytes, 0u);
}

TEST(VectorBatchNormSlabs, BnInferKeepsOneChannelPerTileForLargePlanes) {
    const BnShape shape{4, 6, 56, 56};
    for (const std::uint64_t burst : checkBnInfer(shape, DataType::Fp16))
        EXPECT_EQ(burst, shape.planeBytes(DataType::Fp16));
}

TEST(VectorBatchNormSlabs, BnTrainingUpdateAndReduceGradApplySlabs) {
    const ChipConfig chip = ascend910B1();
    const BnShape shape{4, 72, 7, 7};
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", shape.dims(), DataType::Fp16), dy = h.tensor("dy", shape.dims(), DataType::Fp16);
        const auto y = h.tensor("y", shape.dims(), DataType::Fp16), dx = h.tensor("dx", shape.dims(), DataType::Fp32);
        auto channel = [&](const char* name, float lo, float hi) {
            const auto t = h.tensor(name, {shape.c}, DataType::Fp32);
            return std::make_pair(t, h.fillRandom(t, lo, hi));
        };
        const auto in = h.fillRandom(x, -2, 2), g = h.fillRandom(dy);
        const double count = static_cast<double>(shape.n * shape.h * shape.w);
        const auto [sum, s] = channel("sum", -20, 20);
        const auto [squareSum, q] = channel("square_sum", 300, 400);  // E[x²] > mean² for every channel
        const auto [scale, sc] = channel("scale", 0.5, 1.5);
        const auto [offset, b] = channel("offset", -1, 1);
        const auto [diffScale, ds] = channel("diff_scale", -1, 1);
        const auto [diffOffset, doff] = channel("diff_offset", -1, 1);
        const auto [mean, mu] = channel("batch_mean", -0.3, 0.3);
        const auto [variance, var] = channel("batch_variance", 0.5, 2);
        auto update = makeOp("BNTrainingUpdate", {x, sum, squareSum, scale, offset}, {y});
        auto grad = makeOp("BNTrainingReduceGrad", {dy, x, diffScale, diffOffset, scale, mean, variance}, {dx});
        update.blockDim = grad.blockDim = blockDim;
        EXPECT_GT(longestBurstFrom(h.run(update).at(0), x), shape.planeBytes(DataType::Fp16));
        EXPECT_GT(longestBurstFrom(h.run(grad).at(0), x), shape.planeBytes(DataType::Fp16));
        std::vector<double> expectedY(in.size()), expectedDx(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::size_t c = shape.channelOf(i);
            const double m = s[c] / count, v = q[c] / count - m * m;
            expectedY[i] = (in[i] - m) / std::sqrt(v + 1e-5) * sc[c] + b[c];
            const double rstd = 1 / std::sqrt(var[c] + 1e-5);
            expectedDx[i] = sc[c] * rstd * (g[i] - doff[c] / count - (in[i] - mu[c]) * rstd * ds[c] / count);
        }
        expectNear(h.read(y), roundedTo(DataType::Fp16, expectedY), 1e-3, 2e-3,
                   "BNTrainingUpdate, " + blockDimName(blockDim));
        expectNear(h.read(dx), expectedDx, 1e-5, 1e-4, "BNTrainingReduceGrad, " + blockDimName(blockDim));
    }
}

}  // namespace
}  // namespace ascendsim::test
