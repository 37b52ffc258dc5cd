// The vector ops of the transformer training samples (Sin, Cos, Exp, Abs, Muls, Pows, the
// comparisons, the fills, SwiGlu/SwiGluGrad, RotaryPositionEmbedding(Grad), Slice, ConcatD and
// mixed-dtype Add) against references computed here, over the block_dim sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

using Unary = std::function<double(double)>;
constexpr std::uint64_t kGmBytes = 8ull << 20;  // these tensors are small: keep each machine's GM small

void checkUnary(const std::string& type, DataType dtype, float lo, float hi, const Unary& f, double absTol,
                std::map<std::string, AttrValue> attrs = {}) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", {3, 700}, dtype), y = h.tensor("y", {3, 700}, dtype);
        const auto xs = h.fillRandom(x, lo, hi);
        auto op = makeOp(type, {x}, {y});
        op.attrs = attrs;
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i) expected[i] = f(xs[i]);
        expectNear(h.read(y), roundedTo(dtype, expected), absTol, relativeTolerance(dtype), type + ", " + blockDimName(blockDim));
    }
}

TEST(VectorTransformerOps, SinAndCosReduceTheRangeAndMatchLibm) {
    // RoPE angles: positions up to 4096 times inverse frequencies ≤ 1.
    checkUnary("Sin", DataType::Fp32, -4096, 4096, [](double v) { return std::sin(v); }, 2e-4);
    checkUnary("Cos", DataType::Fp32, -4096, 4096, [](double v) { return std::cos(v); }, 2e-4);
    checkUnary("Sin", DataType::Fp32, -3, 3, [](double v) { return std::sin(v); }, 1e-6);
    checkUnary("Cos", DataType::Bf16, -10, 10, [](double v) { return std::cos(v); }, 1e-2);
}

TEST(VectorTransformerOps, ExpAbsMulsPows) {
    checkUnary("Exp", DataType::Fp16, -4, 4, [](double v) { return std::exp(v); }, 1e-3);
    checkUnary("Abs", DataType::Bf16, -4, 4, [](double v) { return std::fabs(v); }, 0.0);
    checkUnary("Muls", DataType::Bf16, -4, 4, [](double v) { return v * 0.125; }, 0.0, {{"value", 0.125}});
    checkUnary("Pows", DataType::Fp32, -4, 4, [](double v) { return v * v; }, 1e-6, {{"exponent", 2.0}});
    checkUnary("Pows", DataType::Fp32, 0.1f, 4, [](double v) { return std::pow(v, 0.5); }, 1e-5, {{"exponent", 0.5}});
}

TEST(VectorTransformerOps, ComparisonsWriteBoolsWithBroadcasting) {
    const ChipConfig chip = ascend910B1();
    const std::vector<std::pair<std::string, std::function<bool(double, double)>>> relations = {
        {"Greater", std::greater<double>()}, {"Less", std::less<double>()}, {"GreaterEqual", std::greater_equal<double>()},
        {"Equal", std::equal_to<double>()},  {"NotEqual", std::not_equal_to<double>()}};
    for (const auto& [type, relation] : relations) {
        CubeOpHarness h(chip, kGmBytes);
        const auto a = h.tensor("a", {4, 96}, DataType::Fp32), b = h.tensor("b", {96}, DataType::Fp32);
        const auto y = h.tensor("y", {4, 96}, DataType::Bool);
        const auto as = h.fillRandom(a, -2, 2);  // integers would tie too rarely: copy half of b's values into a
        auto bs = h.fillRandom(b, -2, 2);
        std::vector<float> mixed = as;
        for (std::size_t i = 0; i < mixed.size(); i += 3) mixed[i] = bs[i % 96];
        h.machine().writeTensor(a.deviceAddr, DataType::Fp32, mixed);
        h.run(makeOp(type, {a, b}, {y}));
        std::vector<double> expected(mixed.size());
        for (std::size_t i = 0; i < mixed.size(); ++i) expected[i] = relation(mixed[i], bs[i % 96]) ? 1.0 : 0.0;
        expectNear(h.read(y), expected, 0.0, 0.0, type);
    }
}

TEST(VectorTransformerOps, FillsWriteTheirValueWithoutReadingTheInput) {
    const ChipConfig chip = ascend910B1();
    for (const auto& [type, value] : std::vector<std::pair<std::string, float>>{{"ZerosLike", 0.0f}, {"OnesLike", 1.0f}, {"MemSet", 0.0f}}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto x = h.tensor("x", {7, 9001}, DataType::Bf16), y = h.tensor("y", {7, 9001}, DataType::Bf16);
            h.fill(y, 42.0f);
            auto op = makeOp(type, {x}, {type == "MemSet" ? x : y});
            op.blockDim = blockDim;
            const auto kernels = h.run(op);
            expectNear(h.read(type == "MemSet" ? x : y), std::vector<double>(7 * 9001, value), 0.0, 0.0, type + ", " + blockDimName(blockDim));
            const auto counts = countProgram(kernels[0], {.blockIdx = 0, .coreKind = CoreKind::Vector});
            EXPECT_GT(counts.moves, 0u);
        }
    }
}

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

TEST(VectorTransformerOps, SwiGluAndItsGradient) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t rows = 37, half = 96;
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", {rows, 2 * half}, DataType::Bf16), y = h.tensor("y", {rows, half}, DataType::Bf16);
        const auto dy = h.tensor("dy", {rows, half}, DataType::Bf16), dx = h.tensor("dx", {rows, 2 * half}, DataType::Bf16);
        const auto xs = h.fillRandom(x, -4, 4), gs = h.fillRandom(dy);
        auto forward = makeOp("SwiGlu", {x}, {y});
        auto backward = makeOp("SwiGluGrad", {dy, x}, {dx});
        forward.blockDim = backward.blockDim = blockDim;
        h.run(forward);
        h.run(backward);
        std::vector<double> ey(static_cast<std::size_t>(rows * half)), edx(xs.size());
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < half; ++c) {
                const double a = xs[static_cast<std::size_t>(r * 2 * half + c)], b = xs[static_cast<std::size_t>(r * 2 * half + half + c)];
                const double g = gs[static_cast<std::size_t>(r * half + c)], s = sigmoid(a);
                ey[static_cast<std::size_t>(r * half + c)] = a * s * b;
                edx[static_cast<std::size_t>(r * 2 * half + c)] = g * b * s * (1 + a * (1 - s));
                edx[static_cast<std::size_t>(r * 2 * half + half + c)] = g * a * s;
            }
        expectNear(h.read(y), roundedTo(DataType::Bf16, ey), 1e-2, 1.6e-2, "SwiGlu, " + blockDimName(blockDim));
        expectNear(h.read(dx), roundedTo(DataType::Bf16, edx), 1e-2, 1.6e-2, "SwiGluGrad, " + blockDimName(blockDim));
    }
}

// The sample's layout: x [S, B, N, D], cos/sin [S, B, 1, D].
TEST(VectorTransformerOps, RotaryPositionEmbeddingAndGradientBroadcastTablesOverHeads) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t s = 9, n = 3, d = 128, half = d / 2;
    for (const bool gradient : {false, true}) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", {s, 1, n, d}, DataType::Bf16), y = h.tensor("y", {s, 1, n, d}, DataType::Bf16);
        const auto cos = h.tensor("cos", {s, 1, 1, d}, DataType::Bf16), sin = h.tensor("sin", {s, 1, 1, d}, DataType::Bf16);
        const auto xs = h.fillRandom(x), cs = h.fillRandom(cos), ss = h.fillRandom(sin);
        const std::string type = gradient ? "RotaryPositionEmbeddingGrad" : "RotaryPositionEmbedding";
        h.run(makeOp(type, {x, cos, sin}, {y}));
        std::vector<double> expected(xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const auto row = static_cast<std::int64_t>(i) / d, j = static_cast<std::int64_t>(i) % d;
            const auto t = static_cast<std::size_t>((row / n) * d);
            const std::size_t base = static_cast<std::size_t>(row * d);
            const std::size_t jj = static_cast<std::size_t>(j), other = static_cast<std::size_t>(j < half ? j + half : j - half);
            if (!gradient)  // x·cos + rotate_half(x)·sin
                expected[i] = xs[i] * cs[t + jj] + (j < half ? -1.0 : 1.0) * xs[base + other] * ss[t + jj];
            else  // dy·cos + rotate_halfᵀ(dy·sin)
                expected[i] = xs[i] * cs[t + jj] + (j < half ? 1.0 : -1.0) * xs[base + other] * ss[t + other];
        }
        expectNear(h.read(y), roundedTo(DataType::Bf16, expected), 1e-2, 1.6e-2, type);
    }
}

TEST(VectorTransformerOps, SliceReadsTheWindowAndConcatWritesTheParts) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", {40, 4, 64}, DataType::Bf16), y = h.tensor("y", {40, 4, 32}, DataType::Bf16);
        const auto xs = h.fillRandom(x);
        auto slice = makeOp("Slice", {x}, {y});
        slice.attrs["offsets"] = std::vector<std::int64_t>{0, 0, 16};
        slice.attrs["size"] = std::vector<std::int64_t>{40, 4, 32};
        slice.blockDim = blockDim;
        h.run(slice);
        std::vector<double> expected;
        for (std::int64_t r = 0; r < 160; ++r)
            for (std::int64_t c = 0; c < 32; ++c) expected.push_back(xs[static_cast<std::size_t>(r * 64 + 16 + c)]);
        expectNear(h.read(y), expected, 0.0, 0.0, "Slice, " + blockDimName(blockDim));

        const auto a = h.tensor("a", {40, 4, 32}, DataType::Bf16), b = h.tensor("b", {40, 4, 16}, DataType::Bf16);
        const auto z = h.tensor("z", {40, 4, 48}, DataType::Bf16);
        const auto as = h.fillRandom(a), bs = h.fillRandom(b);
        auto concat = makeOp("ConcatD", {a, b}, {z});
        concat.attrs["concat_dim"] = std::int64_t{-1};
        concat.blockDim = blockDim;
        h.run(concat);
        expected.clear();
        for (std::int64_t r = 0; r < 160; ++r) {
            for (std::int64_t c = 0; c < 32; ++c) expected.push_back(as[static_cast<std::size_t>(r * 32 + c)]);
            for (std::int64_t c = 0; c < 16; ++c) expected.push_back(bs[static_cast<std::size_t>(r * 16 + c)]);
        }
        expectNear(h.read(z), expected, 0.0, 0.0, "ConcatD, " + blockDimName(blockDim));
    }
}

// A Slice's rows are its trailing dims from the last one it does not keep whole: x [6,5,3,7] →
// y [6,2,3,7] (offsets 0,2,0,0) moves runs of 2·3·7 elements, not a burst per 7-element x row, and a
// slice that keeps every dim of [4,3,11,11] moves its rows in runs longer than an 11-element row.
TEST(VectorTransformerOps, SliceMovesTheDimsItKeepsWholeAsOneRow) {
    const auto shortestLoad = [](const std::vector<LoweredKernel>& kernels) {
        std::uint64_t shortest = ~std::uint64_t{0};
        for (const auto& kernel : kernels) {
            auto stream = kernel.program({0, CoreKind::Cube, 0});
            std::vector<Instruction> chunk;
            while (stream->next(chunk)) {
                for (const auto& i : chunk)
                    if (const auto* m = std::get_if<DataMove>(&i.operands); m && m->src == MemSpace::GM)
                        shortest = std::min<std::uint64_t>(shortest, m->burstBytes);
                chunk.clear();
            }
        }
        return shortest;
    };
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto x = h.tensor("x", {6, 5, 3, 7}, DataType::Fp32), y = h.tensor("y", {6, 2, 3, 7}, DataType::Fp32);
            const auto xs = h.fillRandom(x);
            auto slice = makeOp("Slice", {x}, {y});
            slice.attrs["offsets"] = std::vector<std::int64_t>{0, 2, 0, 0};
            slice.attrs["size"] = std::vector<std::int64_t>{6, 2, 3, 7};
            slice.blockDim = blockDim;
            const auto kernels = h.run(slice);
            std::vector<double> expected;
            for (std::int64_t n = 0; n < 6; ++n)
                for (std::int64_t e = 0; e < 2 * 3 * 7; ++e) expected.push_back(xs[static_cast<std::size_t>(n * 105 + 42 + e)]);
            expectNear(h.read(y), expected, 0.0, 0.0, "Slice, " + blockDimName(blockDim));
            EXPECT_EQ(shortestLoad(kernels), 2u * 3 * 7 * 4) << blockDimName(blockDim);
        }
        CubeOpHarness h(chip, kGmBytes);
        auto whole = makeOp("Slice", {h.tensor("x", {4, 3, 11, 11}, DataType::Fp32)},
                            {h.tensor("y", {4, 3, 11, 11}, DataType::Fp32)});
        whole.attrs["offsets"] = std::vector<std::int64_t>{0, 0, 0, 0};
        whole.attrs["size"] = std::vector<std::int64_t>{4, 3, 11, 11};
        EXPECT_GT(shortestLoad(h.lower(whole)), 11u * 4);
    }
}

// The main-grad accumulation of the sample: fp32 += bf16 gives fp32.
TEST(VectorTransformerOps, AddOfFp32AndBf16ComputesInFp32) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kGmBytes);
        const auto a = h.tensor("a", {33, 300}, DataType::Fp32), b = h.tensor("b", {33, 300}, DataType::Bf16);
        const auto y = h.tensor("y", {33, 300}, DataType::Fp32);
        const auto as = h.fillRandom(a), bs = h.fillRandom(b);
        auto op = makeOp("Add", {a, b}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(as.size());
        for (std::size_t i = 0; i < as.size(); ++i) expected[i] = double(as[i]) + bs[i];
        expectNear(h.read(y), roundedTo(DataType::Fp32, expected), 1e-6, 1e-6, "Add fp32+bf16, " + blockDimName(blockDim));
    }
}

// One launch over a list of tensors of different sizes; chunks never cross a tensor.
TEST(VectorTransformerOps, ForeachOpsUpdateEveryListEntryInOneKernel) {
    const ChipConfig chip = ascend910B1();
    const std::vector<std::vector<std::int64_t>> shapes{{64, 3, 11, 11}, {64}, {60, 1000}, {7}};
    for (const auto& blockDim : blockDimSweep()) {
        for (const DataType dtype : {DataType::Fp32, DataType::Bf16}) {
            CubeOpHarness h(chip, kGmBytes);
            std::vector<TensorInfo> xs, ys;
            std::vector<std::vector<float>> xv, yv;
            for (std::size_t i = 0; i < shapes.size(); ++i) {
                xs.push_back(h.tensor("x" + std::to_string(i), shapes[i], dtype));
                ys.push_back(h.tensor("y" + std::to_string(i), shapes[i], dtype));
                xv.push_back(h.fillRandom(xs.back()));
                yv.push_back(h.fillRandom(ys.back()));
            }
            std::vector<TensorInfo> inputs = xs;
            inputs.insert(inputs.end(), ys.begin(), ys.end());
            auto add = makeOp("ForeachAddList", inputs, xs);  // in place, as torch's _foreach_add_
            add.attrs["alpha"] = -0.5;
            add.blockDim = blockDim;
            const auto kernels = h.run(add);
            EXPECT_EQ(kernels.size(), 1u);
            auto scale = makeOp("ForeachMulScalar", ys, ys);
            scale.attrs["scalar"] = 0.25;
            scale.blockDim = blockDim;
            h.run(scale);
            for (std::size_t i = 0; i < shapes.size(); ++i) {
                std::vector<double> ex(xv[i].size()), ey(yv[i].size());
                for (std::size_t k = 0; k < ex.size(); ++k) {
                    ex[k] = double(xv[i][k]) - 0.5 * yv[i][k];
                    ey[k] = 0.25 * yv[i][k];
                }
                const std::string what = "Foreach entry " + std::to_string(i) + ", " + blockDimName(blockDim);
                expectNear(h.read(xs[i]), roundedTo(dtype, ex), 1e-6, relativeTolerance(dtype), what);
                expectNear(h.read(ys[i]), roundedTo(dtype, ey), 1e-6, relativeTolerance(dtype), what);
            }
        }
    }
}

TEST(VectorTransformerOps, LogicalOpsOnBoolsWithBroadcasting) {
    const ChipConfig chip = ascend910B1();
    const std::vector<std::pair<std::string, std::function<bool(bool, bool)>>> ops = {
        {"LogicalOr", std::logical_or<bool>()}, {"LogicalAnd", std::logical_and<bool>()}, {"LogicalNot", [](bool a, bool) { return !a; }}};
    for (const auto& [type, f] : ops) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto a = h.tensor("a", {5, 300}, DataType::Bool), b = h.tensor("b", {300}, DataType::Bool);
            const auto y = h.tensor("y", {5, 300}, DataType::Bool);
            const auto as = h.fillRandom(a, 0, 1), bs = h.fillRandom(b, 0, 1);
            auto op = type == "LogicalNot" ? makeOp(type, {a}, {y}) : makeOp(type, {a, b}, {y});
            op.blockDim = blockDim;
            h.run(op);
            std::vector<double> expected;
            for (std::size_t i = 0; i < as.size(); ++i) expected.push_back(f(as[i] != 0, bs[i % 300] != 0) ? 1.0 : 0.0);
            expectNear(h.read(y), expected, 0.0, 0.0, type + ", " + blockDimName(blockDim));
        }
    }
}

TEST(VectorTransformerOps, BroadcastToRepeatsRowsAndScalars) {
    const ChipConfig chip = ascend910B1();
    const std::vector<std::tuple<std::vector<std::int64_t>, std::vector<std::int64_t>, DataType>> cases = {
        {{1, 32}, {5, 32}, DataType::Int64}, {{1, 70}, {6, 70}, DataType::Fp32}, {{3, 1, 70}, {3, 4, 70}, DataType::Fp16}};
    for (const auto& [from, to, dtype] : cases) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto x = h.tensor("x", from, dtype), y = h.tensor("y", to, dtype);
            const auto xs = h.fillRandom(x, -1000, 1000);
            auto op = makeOp("BroadcastTo", {x}, {y});
            op.blockDim = blockDim;
            h.run(op);
            std::vector<double> expected;
            const auto& ys = h.read(y);
            for (std::size_t i = 0; i < ys.size(); ++i) {
                // Index of element i of y in x: dims aligned from the right, size-1 dims read index 0.
                std::size_t rest = i, at = 0, stride = 1;
                for (std::size_t d = to.size(); d-- > 0;) {
                    const auto idx = rest % static_cast<std::size_t>(to[d]);
                    rest /= static_cast<std::size_t>(to[d]);
                    const std::size_t xd = d + from.size() - to.size();
                    if (d + from.size() < to.size()) continue;
                    if (from[xd] != 1) at += idx * stride;
                    stride *= static_cast<std::size_t>(from[xd]);
                }
                expected.push_back(xs[at]);
            }
            expectNear(ys, expected, 0.0, 0.0, "BroadcastTo " + std::string(dataTypeName(dtype)) + ", " + blockDimName(blockDim));
        }
    }
}

TEST(VectorTransformerOps, LpNormV2SumsSquaresOverAllBlocks) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        for (const DataType dtype : {DataType::Fp32, DataType::Bf16}) {
            CubeOpHarness h(chip, kGmBytes);
            const auto x = h.tensor("x", {300001}, dtype), y = h.tensor("y", {1}, DataType::Fp32);
            const auto xs = h.fillRandom(x);
            auto op = makeOp("LpNormV2", {x}, {y});
            op.blockDim = blockDim;
            h.run(op);
            double sum = 0;
            for (float v : xs) sum += double(v) * v;
            expectNear(h.read(y), {std::sqrt(sum)}, 0.0, 1e-5, "LpNormV2, " + blockDimName(blockDim));
        }
    }
}

// dx = rstd·(dy·γ − x·rstd²·mean(dy·γ·x)); dgamma = Σ_rows dy·x·rstd, summed across blocks.
// Rows of 200 run a tile at a time, rows of 700 (> 640) CANN's row-at-a-time loop: the same values,
// in fp32 and rounded once, to dx's bf16 (CANN 8.1's high-precision kernel, docs/fidelity.md §78).
TEST(VectorTransformerOps, RmsNormGradGivesDxPerRowAndDgammaOverAllBlocks) {
    const ChipConfig chip = ascend910B1();
    for (const auto& [rows, length, blockDims] :
         std::vector<std::tuple<std::int64_t, std::int64_t, std::vector<std::optional<std::uint32_t>>>>{
             {150, 200, blockDimSweep()}, {21, 700, {1u, 7u}}})
    for (const auto& blockDim : blockDims) {
        CubeOpHarness h(chip, kGmBytes);
        const auto dy = h.tensor("dy", {rows, 1, length}, DataType::Bf16), x = h.tensor("x", {rows, 1, length}, DataType::Bf16);
        const auto rstd = h.tensor("rstd", {rows, 1, 1}, DataType::Fp32), gamma = h.tensor("gamma", {length}, DataType::Bf16);
        const auto dx = h.tensor("dx", {rows, 1, length}, DataType::Bf16), dgamma = h.tensor("dgamma", {length}, DataType::Fp32);
        const auto dys = h.fillRandom(dy), xs = h.fillRandom(x, -2, 2), gs = h.fillRandom(gamma);
        const auto rs = h.fillRandom(rstd, 0.5f, 2.0f);
        h.fill(dgamma, 99.0f);
        auto op = makeOp("RmsNormGrad", {dy, x, rstd, gamma}, {dx, dgamma});
        op.blockDim = blockDim;
        const auto kernels = h.run(op);
        std::vector<double> edx(xs.size()), edg(static_cast<std::size_t>(length), 0.0);
        for (std::int64_t r = 0; r < rows; ++r) {
            const auto base = static_cast<std::size_t>(r * length);
            const double rr = rs[static_cast<std::size_t>(r)];
            double mean = 0;
            for (std::int64_t c = 0; c < length; ++c) mean += double(dys[base + c]) * gs[c] * xs[base + c] / double(length);
            for (std::int64_t c = 0; c < length; ++c) {
                const std::size_t i = base + static_cast<std::size_t>(c);
                edx[i] = rr * (double(dys[i]) * gs[c] - xs[i] * rr * rr * mean);
                edg[static_cast<std::size_t>(c)] += double(dys[i]) * xs[i] * rr;
            }
        }
        expectNear(h.read(dx), roundedTo(DataType::Bf16, edx), 1e-2, 1.6e-2, "RmsNormGrad dx, " + blockDimName(blockDim));
        expectNear(h.read(dgamma), edg, 1e-3, 1e-4, "RmsNormGrad dgamma, " + blockDimName(blockDim));
        EXPECT_GT(kernels[0].workspaceBytes, 0u);
    }
}

// CANN 8.1's RmsNormGrad puts a PipeBarrier<PIPE_V> after every step the next one reads and adds
// each row's dy·y into dgamma with its own Add and barrier (docs/fidelity.md §78). Short rows
// (200) run a tile of rows at a time; long rows (700 > 640) one row a tile: a load of its rstd,
// x and dy rows, and a store of its dx row, each.
TEST(VectorTransformerOps, RmsNormGradStepsWaitForEachOtherAndLongRowsMoveOneRowAtATime) {
    const ChipConfig chip = ascend910B1();
    for (const auto& [rows, length] : std::vector<std::pair<std::int64_t, std::int64_t>>{{150, 200}, {21, 700}}) {
        CubeOpHarness h(chip, kGmBytes);
        const auto dy = h.tensor("dy", {rows, 1, length}, DataType::Bf16), x = h.tensor("x", {rows, 1, length}, DataType::Bf16);
        const auto rstd = h.tensor("rstd", {rows, 1, 1}, DataType::Fp32), gamma = h.tensor("gamma", {length}, DataType::Bf16);
        const auto dx = h.tensor("dx", {rows, 1, length}, DataType::Bf16), dgamma = h.tensor("dgamma", {length}, DataType::Fp32);
        auto op = makeOp("RmsNormGrad", {dy, x, rstd, gamma}, {dx, dgamma});
        op.blockDim = 1u;
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        const std::vector<Instruction> program = blockProgram(kernels[0], 0, CoreKind::Vector);
        // dgamma's row Adds: accumulator += a row, in place, over the row's `length` elements (one
        // instruction per full-repeat body and one for the tail); a run of them ends a row's Add.
        std::uint64_t rowAdds = 0, rowAddsThenBarrier = 0, gmLoads = 0, dxStores = 0;
        auto isRowAdd = [&](std::size_t k) {
            const auto* v = std::get_if<VectorInstr>(&program[k].operands);
            return v != nullptr && v->op == VectorOp::Add && v->dst == v->src0 && v->dst != v->src1 && v->dstRepeatStride == 8 &&
                   v->src1RepeatStride == 8;
        };
        for (std::size_t k = 0; k < program.size(); ++k) {
            if (const auto* m = std::get_if<DataMove>(&program[k].operands); m != nullptr) {
                auto inside = [](const TensorInfo& t, std::uint64_t addr) { return addr >= t.deviceAddr && addr < t.deviceAddr + t.bytes(); };
                dxStores += m->dst == MemSpace::GM && inside(dx, m->dstAddr);
                gmLoads += m->src == MemSpace::GM && (inside(dy, m->srcAddr) || inside(x, m->srcAddr) || inside(rstd, m->srcAddr));
            }
            if (!isRowAdd(k) || (k + 1 < program.size() && isRowAdd(k + 1))) continue;
            ++rowAdds;
            const auto* b = k + 1 < program.size() ? std::get_if<Barrier>(&program[k + 1].operands) : nullptr;
            rowAddsThenBarrier += b != nullptr && b->pipe == Pipe::Vector;
        }
        const auto r = static_cast<std::uint64_t>(rows);
        EXPECT_EQ(rowAdds, r) << length;
        EXPECT_EQ(rowAddsThenBarrier, r) << length;
        if (length > 640) {
            EXPECT_EQ(dxStores, r);
            EXPECT_EQ(gmLoads, 3 * r);
        } else {
            EXPECT_LT(dxStores, r / 4) << "short rows move in tiles of many rows";
        }
    }
}

}  // namespace
}  // namespace ascendsim::test
