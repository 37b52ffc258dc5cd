// FlashAttentionScoreGrad as a MIX_AIC kernel: the AIC and AIV programs run interleaved at their
// cross-core flags (and the all-AIV barriers) on the FunctionalMachine and match dQ, dK, dV of a
// double-precision reference, causal or not, with GQA head sharing, for several block dims.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"
#include "models/functional/float_conversion.h"

namespace ascendsim::test {
namespace {

struct GradCase {
    std::int64_t batch, heads, kvHeads, seq, dim;
    bool causal;
    std::optional<std::uint32_t> blockDim;
};

struct Reference {
    std::vector<double> out, max, sum, dq, dk, dv;
};

std::size_t at(std::int64_t row, std::int64_t col, std::int64_t width) { return static_cast<std::size_t>(row * width + col); }

// q/dy [B·N, S, D], k/v [B·Nkv, S, D] as flat vectors; out is the forward output (rounded to the
// dtype as the forward kernel stored it) and feeds D = rowsum(dy∘out).
Reference reference(const GradCase& c, const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                    const std::vector<float>& dy, DataType dtype, double scale) {
    const std::int64_t s = c.seq, d = c.dim, group = c.heads / c.kvHeads;
    Reference r;
    r.out.assign(q.size(), 0.0);
    r.dq.assign(q.size(), 0.0);
    r.dk.assign(k.size(), 0.0);
    r.dv.assign(v.size(), 0.0);
    r.max.assign(static_cast<std::size_t>(c.batch * c.heads * s * 8), 0.0);
    r.sum = r.max;
    for (std::int64_t h = 0; h < c.batch * c.heads; ++h) {
        const std::int64_t kvh = (h / c.heads) * c.kvHeads + (h % c.heads) / group;
        const std::int64_t qBase = h * s, kBase = kvh * s;
        std::vector<double> p(static_cast<std::size_t>(s * s), 0.0);
        for (std::int64_t i = 0; i < s; ++i) {
            const std::int64_t visible = c.causal ? i + 1 : s;
            double m = -1e300;
            for (std::int64_t j = 0; j < visible; ++j) {
                double acc = 0;
                for (std::int64_t t = 0; t < d; ++t) acc += double(q[at(qBase + i, t, d)]) * k[at(kBase + j, t, d)];
                p[at(i, j, s)] = acc * scale;
                m = std::max(m, acc * scale);
            }
            double l = 0;
            for (std::int64_t j = 0; j < visible; ++j) l += (p[at(i, j, s)] = std::exp(p[at(i, j, s)] - m));
            for (std::int64_t j = 0; j < visible; ++j) p[at(i, j, s)] /= l;
            for (int e = 0; e < 8; ++e) {
                r.max[at(qBase + i, e, 8)] = m;
                r.sum[at(qBase + i, e, 8)] = l;
            }
            for (std::int64_t t = 0; t < d; ++t) {
                double o = 0;
                for (std::int64_t j = 0; j < visible; ++j) o += p[at(i, j, s)] * v[at(kBase + j, t, d)];
                r.out[at(qBase + i, t, d)] = roundToType(o, dtype);
            }
        }
        for (std::int64_t i = 0; i < s; ++i) {
            double dd = 0;
            for (std::int64_t t = 0; t < d; ++t) dd += double(dy[at(qBase + i, t, d)]) * r.out[at(qBase + i, t, d)];
            for (std::int64_t j = 0; j < s; ++j) {
                const double pij = p[at(i, j, s)];
                if (pij == 0.0) continue;
                double dp = 0;
                for (std::int64_t t = 0; t < d; ++t) dp += double(dy[at(qBase + i, t, d)]) * v[at(kBase + j, t, d)];
                const double ds = scale * pij * (dp - dd);
                for (std::int64_t t = 0; t < d; ++t) {
                    r.dv[at(kBase + j, t, d)] += pij * dy[at(qBase + i, t, d)];
                    r.dk[at(kBase + j, t, d)] += ds * q[at(qBase + i, t, d)];
                    r.dq[at(qBase + i, t, d)] += ds * k[at(kBase + j, t, d)];
                }
            }
        }
    }
    return r;
}

std::vector<float> asFloats(const std::vector<double>& values) { return {values.begin(), values.end()}; }

void runGrad(const GradCase& c) {
    const auto chip = ascend910B1();
    const DataType dtype = DataType::Fp16;
    CubeOpHarness h(chip);
    const std::vector<std::int64_t> qShape{c.batch, c.heads, c.seq, c.dim}, kvShape{c.batch, c.kvHeads, c.seq, c.dim};
    auto q = h.tensor("q", qShape, dtype), k = h.tensor("k", kvShape, dtype), v = h.tensor("v", kvShape, dtype);
    auto dy = h.tensor("dy", qShape, dtype), out = h.tensor("out", qShape, dtype);
    auto max = h.tensor("softmax_max", {c.batch, c.heads, c.seq, 8}, DataType::Fp32);
    auto sum = h.tensor("softmax_sum", {c.batch, c.heads, c.seq, 8}, DataType::Fp32);
    auto dq = h.tensor("dq", qShape, dtype), dk = h.tensor("dk", kvShape, dtype), dv = h.tensor("dv", kvShape, dtype);
    const auto qv = h.fillRandom(q, -2, 2), kv = h.fillRandom(k, -2, 2), vv = h.fillRandom(v), dyv = h.fillRandom(dy);
    const double scale = 1.0 / std::sqrt(double(c.dim));
    const Reference r = reference(c, qv, kv, vv, dyv, dtype, scale);
    h.machine().writeTensor(out.deviceAddr, dtype, asFloats(r.out));
    h.machine().writeTensor(max.deviceAddr, DataType::Fp32, asFloats(r.max));
    h.machine().writeTensor(sum.deviceAddr, DataType::Fp32, asFloats(r.sum));
    for (const auto* t : {&dq, &dk, &dv}) h.fill(*t, 99.0f);
    auto op = makeOp("FlashAttentionScoreGrad", {q, k, v, dy, out, max, sum}, {dq, dk, dv});
    op.attrs["causal"] = c.causal;
    op.blockDim = c.blockDim;
    const auto kernels = h.run(op);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::MixAic);
    EXPECT_EQ(kernels[0].mixBlockDim, 2 * kernels[0].blockDim);
    const std::string what = "FlashAttentionScoreGrad N" + std::to_string(c.heads) + "/" + std::to_string(c.kvHeads) + " S" +
                             std::to_string(c.seq) + (c.causal ? " causal" : "") + " blockDim " +
                             (c.blockDim ? std::to_string(*c.blockDim) : "default");
    // P and dS pass through fp16 on their way to the cube, as on hardware.
    expectNear(h.read(dq), r.dq, 2e-2, 2e-2, what + " dq");
    expectNear(h.read(dk), r.dk, 2e-2, 2e-2, what + " dk");
    expectNear(h.read(dv), r.dv, 2e-2, 2e-2, what + " dv");
}

TEST(FlashAttentionGrad, MatchesReferenceWithoutMask) {
    runGrad({1, 2, 2, 256, 64, false, std::nullopt});
    runGrad({1, 2, 2, 96, 128, false, 1u});  // a partial q block and a partial KV block
}

TEST(FlashAttentionGrad, CausalSkipsBlocksAboveTheDiagonalAndMasksTheDiagonal) {
    runGrad({1, 2, 2, 256, 64, true, std::nullopt});
    runGrad({2, 1, 1, 384, 32, true, 3u});
}

TEST(FlashAttentionGrad, GqaHeadsShareAndAccumulateTheirKvGradients) {
    runGrad({1, 4, 2, 256, 64, true, std::nullopt});
    runGrad({1, 4, 1, 128, 64, false, 2u});
}

// The forward kernel with GQA: its output is the reference's attention output.
TEST(FlashAttentionGrad, ForwardGqaReadsTheSharedKvHead) {
    const GradCase c{1, 4, 2, 256, 64, true, std::nullopt};
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const std::vector<std::int64_t> qShape{1, 4, 256, 64}, kvShape{1, 2, 256, 64};
    auto q = h.tensor("q", qShape, DataType::Fp16), k = h.tensor("k", kvShape, DataType::Fp16);
    auto v = h.tensor("v", kvShape, DataType::Fp16), out = h.tensor("out", qShape, DataType::Fp16);
    const auto qv = h.fillRandom(q, -2, 2), kv = h.fillRandom(k, -2, 2), vv = h.fillRandom(v);
    auto op = makeOp("FlashAttentionScore", {q, k, v}, {out});
    op.attrs["causal"] = true;
    h.run(op);
    const Reference r = reference(c, qv, kv, vv, qv, DataType::Fp16, 1.0 / 8.0);
    expectNear(h.read(out), r.out, 3e-3, 3e-3, "FlashAttentionScore GQA 4/2");
}

// One 128-row query tile (D 64) over three 128-row KV blocks on one block.
OpInstance threeKvBlockGradOp(CubeOpHarness& h) {
    const auto t = [&](const char* name, std::int64_t rows) { return h.tensor(name, {1, 1, rows, 64}, DataType::Fp16); };
    auto op = makeOp("FlashAttentionScoreGrad",
                     {t("q", 128), t("k", 384), t("v", 384), t("dy", 128), t("out", 128),
                      h.tensor("m", {1, 1, 128, 8}, DataType::Fp32), h.tensor("l", {1, 1, 128, 8}, DataType::Fp32)},
                     {t("dq", 128), t("dk", 384), t("dv", 384)});
    op.blockDim = 1;
    return op;
}

// As the forward, the AIC runs one KV block ahead: S, dP of block j+1 go out (flag 0) before it
// waits for P, dS of block j (flag 1), through two workspace slot sets per group.
TEST(FlashAttentionGrad, AicRunsOneKvBlockAheadOfTheSoftmaxGradient) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const OpInstance op = threeKvBlockGradOp(h);
    const LoweredKernel kernel = h.lower(op).at(0);
    const std::vector<int> cube = crossCoreEvents(kernel, CoreKind::Cube);
    // S0 S1 | P0? | S2 | P1? (odd steps: flag 5) | P2? | cube done.
    EXPECT_EQ(cube, (std::vector<int>{0, 0, -2, 0, -6, -2, 2}));
    const std::uint64_t slotSet = 2 * 128 * 128 * 4 + 2 * 128 * 128 * 2;
    EXPECT_EQ(kernel.workspaceBytes, 2 * slotSet + (128 * 64 + 2 * 384 * 64) * 4);
}

// The gradient's matmuls take ND operands too (Q, dO, K, V; P and dS in the default ND workspace
// format): one tile over three KV blocks loads Q and dO once, K and V per block and P and dS per
// block, each GM→L1 load converted to the fractal layout.
TEST(FlashAttentionGrad, AicConvertsItsNdOperandsOnTheWayToL1) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const OpInstance op = threeKvBlockGradOp(h);
    EXPECT_EQ(gmToL1Conversions(h.lower(op).at(0)), std::vector<LayoutConversion>(14, LayoutConversion::Nd2Nz));
}

// The gradient's AIC is a KFC matmul server too: its waits for the AIVs poll (docs/fidelity.md §45).
TEST(FlashAttentionGrad, AicPollsForTheAivs) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const std::vector<bool> polled = crossCoreWaitsPolled(h.lower(threeKvBlockGradOp(h)).at(0), CoreKind::Cube);
    EXPECT_FALSE(polled.empty());
    EXPECT_EQ(polled, std::vector<bool>(polled.size(), true));
}

TEST(FlashAttentionGrad, CausalNeedsSelfAttentionInWholeBlocks) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto t = [&](const char* name, std::int64_t width) { return h.tensor(name, {1, 1, 100, width}, DataType::Fp16); };
    auto op = makeOp("FlashAttentionScoreGrad",
                     {t("q", 64), t("k", 64), t("v", 64), t("dy", 64), t("out", 64),
                      h.tensor("m", {1, 1, 100, 8}, DataType::Fp32), h.tensor("l", {1, 1, 100, 8}, DataType::Fp32)},
                     {t("dq", 64), t("dk", 64), t("dv", 64)});
    op.attrs["causal"] = true;
    EXPECT_THROW(h.lower(op), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
