// BN application/gradient ops and optimizer updates against references computed here.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::int64_t kN = 3, kC = 5, kH = 7, kW = 9;

std::size_t channelOf(std::size_t flat) { return flat / (kH * kW) % kC; }

TEST(VectorBatchNorm, BnInferAppliesPerChannelStatistics) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {kN, kC, kH, kW}, DataType::Fp16);
        std::vector<TensorInfo> params;
        for (const char* name : {"scale", "offset", "mean", "variance"}) params.push_back(h.tensor(name, {kC}, DataType::Fp32));
        const auto y = h.tensor("y", {kN, kC, kH, kW}, DataType::Fp16);
        const auto in = h.fillRandom(x, -2, 2);
        const auto scale = h.fillRandom(params[0], 0.5, 1.5), offset = h.fillRandom(params[1], -1, 1);
        const auto mean = h.fillRandom(params[2], -0.5, 0.5), variance = h.fillRandom(params[3], 0.2, 2);
        auto op = makeOp("BNInfer", {x, params[0], params[1], params[2], params[3]}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::size_t c = channelOf(i);
            expected[i] = (in[i] - mean[c]) / std::sqrt(variance[c] + 1e-5) * scale[c] + offset[c];
        }
        expectNear(h.read(y), roundedTo(DataType::Fp16, expected), 1e-3, 2e-3, "BNInfer, " + blockDimName(blockDim));
    }
}

// Inference graphs keep BN parameters in fp16 (workloads/resnet50.yaml): cast once per block.
TEST(VectorBatchNorm, BnInferAcceptsFp16Parameters) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {kN, kC, kH, kW}, DataType::Fp16), y = h.tensor("y", {kN, kC, kH, kW}, DataType::Fp16);
    std::vector<TensorInfo> params;
    for (const char* name : {"scale", "offset", "mean", "variance"}) params.push_back(h.tensor(name, {kC}, DataType::Fp16));
    const auto in = h.fillRandom(x, -2, 2);
    const auto scale = h.fillRandom(params[0], 0.5, 1.5), offset = h.fillRandom(params[1], -1, 1);
    const auto mean = h.fillRandom(params[2], -0.5, 0.5), variance = h.fillRandom(params[3], 0.2, 2);
    h.run(makeOp("BNInfer", {x, params[0], params[1], params[2], params[3]}, {y}));
    std::vector<double> expected(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const std::size_t c = channelOf(i);
        expected[i] = (in[i] - mean[c]) / std::sqrt(variance[c] + 1e-5) * scale[c] + offset[c];
    }
    expectNear(h.read(y), roundedTo(DataType::Fp16, expected), 1e-3, 2e-3, "BNInfer, fp16 parameters");
}

TEST(VectorBatchNorm, BnTrainingUpdateNormalisesWithBatchStatistics) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {kN, kC, kH, kW}, DataType::Fp32);
        const auto sum = h.tensor("sum", {kC}, DataType::Fp32), squareSum = h.tensor("square_sum", {kC}, DataType::Fp32);
        const auto scale = h.tensor("scale", {kC}, DataType::Fp32), offset = h.tensor("offset", {kC}, DataType::Fp32);
        const auto y = h.tensor("y", {kN, kC, kH, kW}, DataType::Fp32);
        const auto in = h.fillRandom(x, -2, 2);
        const auto s = h.fillRandom(sum, -20, 20), g = h.fillRandom(scale, 0.5, 1.5), b = h.fillRandom(offset, -1, 1);
        const double count = kN * kH * kW;
        std::vector<float> squares(kC);
        for (std::int64_t c = 0; c < kC; ++c) squares[c] = static_cast<float>(s[c] * s[c] / count + 50.0);
        h.machine().writeTensor(squareSum.deviceAddr, DataType::Fp32, squares);
        auto op = makeOp("BNTrainingUpdate", {x, sum, squareSum, scale, offset}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::size_t c = channelOf(i);
            const double mean = s[c] / count, variance = squares[c] / count - mean * mean;
            expected[i] = (in[i] - mean) / std::sqrt(variance + 1e-5) * g[c] + b[c];
        }
        expectNear(h.read(y), expected, 1e-4, 1e-4, "BNTrainingUpdate, " + blockDimName(blockDim));
    }
}

TEST(VectorBatchNorm, BnTrainingReduceGradMatchesTheBackwardFormula) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto dy = h.tensor("dy", {kN, kC, kH, kW}, DataType::Fp32);
        const auto x = h.tensor("x", {kN, kC, kH, kW}, DataType::Fp32);
        std::vector<TensorInfo> p;
        for (const char* name : {"diff_scale", "diff_offset", "scale", "batch_mean", "batch_variance"})
            p.push_back(h.tensor(name, {kC}, DataType::Fp32));
        const auto dx = h.tensor("dx", {kN, kC, kH, kW}, DataType::Fp32);
        const auto g = h.fillRandom(dy), in = h.fillRandom(x, -2, 2);
        const auto ds = h.fillRandom(p[0]), doff = h.fillRandom(p[1]), sc = h.fillRandom(p[2], 0.5, 1.5);
        const auto mean = h.fillRandom(p[3], -0.3, 0.3), var = h.fillRandom(p[4], 0.5, 2);
        auto op = makeOp("BNTrainingReduceGrad", {dy, x, p[0], p[1], p[2], p[3], p[4]}, {dx});
        op.blockDim = blockDim;
        h.run(op);
        const double m = kN * kH * kW;
        std::vector<double> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::size_t c = channelOf(i);
            const double rstd = 1 / std::sqrt(var[c] + 1e-5);
            expected[i] = sc[c] * rstd * (g[i] - doff[c] / m - (in[i] - mean[c]) * rstd * ds[c] / m);
        }
        expectNear(h.read(dx), expected, 1e-5, 1e-4, "BNTrainingReduceGrad, " + blockDimName(blockDim));
    }
}

// ResNet-50's 112×112 planes at fp16 need more UB than one plane per tile allows: the plane is
// cut into chunks, each reading the channel's parameters again.
TEST(VectorBatchNorm, BnTrainingReduceGradSplitsPlanesThatDoNotFitInUb) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t n = 2, c = 3, hw = 110 * 110;
    CubeOpHarness h(chip);
    const auto dy = h.tensor("dy", {n, c, hw, 1}, DataType::Fp16), x = h.tensor("x", {n, c, hw, 1}, DataType::Fp16);
    std::vector<TensorInfo> p;
    for (const char* name : {"diff_scale", "diff_offset", "scale", "batch_mean", "batch_variance"})
        p.push_back(h.tensor(name, {c}, DataType::Fp32));
    const auto dx = h.tensor("dx", {n, c, hw, 1}, DataType::Fp16);
    const auto g = h.fillRandom(dy), in = h.fillRandom(x, -2, 2);
    const auto ds = h.fillRandom(p[0]), doff = h.fillRandom(p[1]), sc = h.fillRandom(p[2], 0.5, 1.5);
    const auto mean = h.fillRandom(p[3], -0.3, 0.3), var = h.fillRandom(p[4], 0.5, 2);
    h.run(makeOp("BNTrainingReduceGrad", {dy, x, p[0], p[1], p[2], p[3], p[4]}, {dx}));
    const double m = static_cast<double>(n * hw);
    std::vector<double> expected(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const std::size_t ch = i / static_cast<std::size_t>(hw) % static_cast<std::size_t>(c);
        const double rstd = 1 / std::sqrt(var[ch] + 1e-5);
        expected[i] = sc[ch] * rstd * (g[i] - doff[ch] / m - (in[i] - mean[ch]) * rstd * ds[ch] / m);
    }
    expectNear(h.read(dx), roundedTo(DataType::Fp16, expected), 1e-3, 2e-3, "BNTrainingReduceGrad, 110x110 planes");
}

// A channel's planes span several tiles (32 planes of 56×56 do not fit in UB at once) and a
// block's tiles span several channels; every element of the output is written.
TEST(VectorBatchNorm, BnTrainingUpdateCoversChannelsSpreadOverSeveralTiles) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t n = 32, c = 6, hw = 56 * 56;
    for (const auto& blockDim : std::vector<std::optional<std::uint32_t>>{std::nullopt, 5u}) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {n, c, 56, 56}, DataType::Fp16);
        const auto sum = h.tensor("sum", {c}, DataType::Fp32), squareSum = h.tensor("square_sum", {c}, DataType::Fp32);
        const auto scale = h.tensor("scale", {c}, DataType::Fp32), offset = h.tensor("offset", {c}, DataType::Fp32);
        const auto y = h.tensor("y", {n, c, 56, 56}, DataType::Fp16);
        const auto in = h.fillRandom(x, -2, 2);
        const auto s = h.fillRandom(sum, -200, 200), g = h.fillRandom(scale, 0.5, 1.5), b = h.fillRandom(offset, -1, 1);
        const double count = static_cast<double>(n * hw);
        std::vector<float> squares(static_cast<std::size_t>(c));
        for (std::size_t k = 0; k < squares.size(); ++k) squares[k] = static_cast<float>(s[k] * s[k] / count + count);
        h.machine().writeTensor(squareSum.deviceAddr, DataType::Fp32, squares);
        auto op = makeOp("BNTrainingUpdate", {x, sum, squareSum, scale, offset}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::size_t ch = i / static_cast<std::size_t>(hw) % static_cast<std::size_t>(c);
            const double mean = s[ch] / count, variance = squares[ch] / count - mean * mean;
            expected[i] = (in[i] - mean) / std::sqrt(variance + 1e-5) * g[ch] + b[ch];
        }
        expectNear(h.read(y), roundedTo(DataType::Fp16, expected), 1e-3, 2e-3, "BNTrainingUpdate 56x56, " + blockDimName(blockDim));
    }
}

TEST(VectorOptimizer, ApplyMomentumUpdatesVarAndAccumulator) {
    const ChipConfig chip = ascend910B1();
    for (bool nesterov : {false, true}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip);
            const std::int64_t n = 50001;
            const auto var = h.tensor("var", {n}, DataType::Fp32), accum = h.tensor("accum", {n}, DataType::Fp32);
            const auto lr = h.tensor("lr", {1}, DataType::Fp32), grad = h.tensor("grad", {n}, DataType::Fp32);
            const auto momentum = h.tensor("momentum", {1}, DataType::Fp32);
            const auto varOut = h.tensor("var_out", {n}, DataType::Fp32), accumOut = h.tensor("accum_out", {n}, DataType::Fp32);
            const auto v = h.fillRandom(var), a = h.fillRandom(accum), g = h.fillRandom(grad);
            h.fill(lr, 0.01f);
            h.fill(momentum, 0.9f);
            auto op = makeOp("ApplyMomentum", {var, accum, lr, grad, momentum}, {varOut, accumOut});
            op.attrs["use_nesterov"] = nesterov;
            op.blockDim = blockDim;
            h.run(op);
            std::vector<double> expectedVar(v.size()), expectedAccum(v.size());
            for (std::size_t i = 0; i < v.size(); ++i) {
                expectedAccum[i] = a[i] * 0.9f + g[i];
                const double step = nesterov ? g[i] * 0.01f + expectedAccum[i] * 0.01f * 0.9f : expectedAccum[i] * 0.01f;
                expectedVar[i] = v[i] - step;
            }
            expectNear(h.read(accumOut), expectedAccum, 1e-6, 1e-5, "accum, " + blockDimName(blockDim));
            expectNear(h.read(varOut), expectedVar, 1e-6, 1e-5, "var, " + blockDimName(blockDim));
        }
    }
}

TEST(VectorOptimizer, ApplyAdamWFollowsDecoupledWeightDecay) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const std::int64_t n = 12345;
        auto full = [&](const char* name) { return h.tensor(name, {n}, DataType::Fp32); };
        auto one = [&](const char* name, float value) {
            auto t = h.tensor(name, {1}, DataType::Fp32);
            h.fill(t, value);
            return t;
        };
        const auto var = full("var"), m = full("m"), v = full("v"), grad = full("grad");
        const float b1p = 0.9f * 0.9f, b2p = 0.999f * 0.999f, lr = 1e-3f, wd = 0.01f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
        const std::vector<TensorInfo> inputs = {var, m, v, one("b1p", b1p), one("b2p", b2p), one("lr", lr), one("wd", wd),
                                                one("b1", b1), one("b2", b2), one("eps", eps), grad};
        const auto varOut = full("var_out"), mOut = full("m_out"), vOut = full("v_out");
        const auto p = h.fillRandom(var), m0 = h.fillRandom(m), v0 = h.fillRandom(v, 0, 1), g = h.fillRandom(grad);
        auto op = makeOp("ApplyAdamW", inputs, {varOut, mOut, vOut});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> ev(p.size()), em(p.size()), evv(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) {
            em[i] = b1 * m0[i] + (1 - b1) * g[i];
            evv[i] = b2 * v0[i] + (1 - b2) * g[i] * g[i];
            const double denom = std::sqrt(evv[i]) / std::sqrt(1 - b2p) + eps;
            ev[i] = p[i] * (1 - lr * wd) - lr / (1 - b1p) * em[i] / denom;
        }
        expectNear(h.read(mOut), em, 1e-6, 1e-5, "m, " + blockDimName(blockDim));
        expectNear(h.read(vOut), evv, 1e-6, 1e-5, "v, " + blockDimName(blockDim));
        expectNear(h.read(varOut), ev, 1e-5, 1e-5, "var, " + blockDimName(blockDim));
    }
}

// CANN's ApplyAdamWV2 (docs/fidelity.md §121): its attributes come with the tiling, so a block
// reads from GM only its step (a scalar load) and its four tensors; before its tiles it computes
// β1^step and β2^step on the vector unit, each a Duplicate and Ascend C's 40-step float Power,
// handed to the scalar unit by a V → S flag and closed by a PIPE_ALL barrier.
TEST(VectorOptimizer, ApplyAdamWV2ComputesItsBiasCorrectionsBeforeItsTilesAndReadsNoAttributes) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto full = [&](const char* name) { return h.tensor(name, {128}, DataType::Fp32); };
    const auto step = h.tensor("step", {1}, DataType::Int64);
    auto op = makeOp("ApplyAdamWV2", {full("var"), full("m"), full("v"), full("grad"), step},
                     {full("var_out"), full("m_out"), full("v_out")});
    op.blockDim = 1;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    auto stream = kernels[0].program({0, CoreKind::Vector, 0, 0});
    std::vector<Instruction> all, chunk;
    while (stream->next(chunk)) {
        all.insert(all.end(), chunk.begin(), chunk.end());
        chunk.clear();
    }
    ASSERT_FALSE(all.empty());
    const auto* stepRead = std::get_if<ScalarWork>(&all.front().operands);
    ASSERT_NE(stepRead, nullptr);
    EXPECT_EQ(stepRead->memory, MemSpace::GM);
    std::size_t vectorBeforeLoads = 0, drains = 0, vectorToScalar = 0, loads = 0, stores = 0;
    bool loaded = false;
    for (const Instruction& instr : all) {
        if (const auto* move = std::get_if<DataMove>(&instr.operands)) {
            loaded |= move->src == MemSpace::GM;
            loads += move->src == MemSpace::GM ? 1 : 0;
            stores += move->dst == MemSpace::GM ? 1 : 0;
        }
        if (loaded) continue;
        if (const auto* v = std::get_if<VectorInstr>(&instr.operands)) {
            ++vectorBeforeLoads;
            EXPECT_EQ(v->repeats, 1u);
        }
        if (const auto* barrier = std::get_if<Barrier>(&instr.operands)) drains += barrier->pipe == Pipe::All ? 1 : 0;
        if (const auto* flag = std::get_if<Flag>(&instr.operands))
            vectorToScalar += instr.opcode == Opcode::WaitFlag && flag->src == Pipe::Vector && flag->dst == Pipe::Scalar;
    }
    EXPECT_EQ(vectorBeforeLoads, 2u * 41u);  // Duplicate + 40 Power steps, twice
    EXPECT_EQ(drains, 2u);
    EXPECT_EQ(vectorToScalar, 2u);
    EXPECT_EQ(loads, 4u);  // var, m, v, grad: no attribute tensors
    EXPECT_EQ(stores, 3u);
}

}  // namespace
}  // namespace ascendsim::test
