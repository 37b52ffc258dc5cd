// The vector ops of the CNN training samples (docs/op-catalog.md, "Ops of the CNN training
// samples") against references computed here, over the block_dim sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kGmBytes = 8ull << 20;  // small tensors: keep each machine's GM small

// y = x1 + alpha·x2 with alpha read from a [1] tensor, and with x2 broadcast over rows.
TEST(VectorCnnTrainingOps, AxpyV2AddsTheScaledSecondInput) {
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        for (const auto& blockDim : blockDimSweep()) {
            for (const bool broadcast : {false, true}) {
                CubeOpHarness h(chip, kGmBytes);
                const auto x1 = h.tensor("x1", {5, 700}, DataType::Fp32);
                const auto x2 = h.tensor("x2", broadcast ? std::vector<std::int64_t>{700} : std::vector<std::int64_t>{5, 700},
                                         DataType::Fp32);
                const auto alpha = h.tensor("alpha", {1}, DataType::Fp32), y = h.tensor("y", {5, 700}, DataType::Fp32);
                const auto a = h.fillRandom(x1), b = h.fillRandom(x2), s = h.fillRandom(alpha, -0.5f, -0.1f);
                auto op = makeOp("AxpyV2", {x1, x2, alpha}, {y});
                op.blockDim = blockDim;
                h.run(op);
                std::vector<double> expected(a.size());
                for (std::size_t i = 0; i < a.size(); ++i) expected[i] = double(a[i]) + double(s[0]) * b[broadcast ? i % 700 : i];
                expectNear(h.read(y), expected, 1e-6, 1e-6, chip.name + " AxpyV2, " + blockDimName(blockDim));
            }
        }
    }
}

// NC1HWC0 element (plane p = n·C1 + c1, row, column, lane) of a [N, C, H, W] tensor.
std::size_t nc1hwc0(std::size_t plane, std::size_t row, std::size_t column, std::size_t lane, std::size_t h, std::size_t w) {
    return ((plane * h + row) * w + column) * 16 + lane;
}

// y = the window maximum per lane, over fp16 and fp32 (C0 16 for both) and the block_dim sweep;
// the argmax mask holds its CANN size.
TEST(VectorCnnTrainingOps, MaxPoolWithArgmaxTakesTheWindowMaximumPerLane) {
    constexpr std::size_t kN = 2, kC = 32, kH = 11, kW = 9, kK = 3, kS = 2, kOh = 5, kOw = 4;
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        for (const DataType dtype : {DataType::Fp16, DataType::Fp32}) {
            for (const auto& blockDim : blockDimSweep()) {
                CubeOpHarness h(chip, kGmBytes);
                const auto x = h.tensor("x", {kN, kC, kH, kW}, dtype), y = h.tensor("y", {kN, kC, kOh, kOw}, dtype);
                const auto mask = h.tensor("argmax", {kN, kC / 16, kK * kK, (kOh * kOw + 15) / 16 + 1, 16}, DataType::Int16);
                const auto xs = h.fillRandom(x, -100, 100);
                auto op = makeOp("MaxPoolWithArgmaxV1", {x}, {y, mask});
                op.attrs["ksize"] = std::vector<std::int64_t>{kK, kK};
                op.attrs["strides"] = std::vector<std::int64_t>{kS, kS};
                op.blockDim = blockDim;
                h.run(op);
                std::vector<double> expected(kN * kC * kOh * kOw);
                for (std::size_t p = 0; p < kN * kC / 16; ++p)
                    for (std::size_t r = 0; r < kOh; ++r)
                        for (std::size_t c = 0; c < kOw; ++c)
                            for (std::size_t lane = 0; lane < 16; ++lane) {
                                double best = -1e30;
                                for (std::size_t i = 0; i < kK; ++i)
                                    for (std::size_t j = 0; j < kK; ++j)
                                        best = std::max(best, double(xs[nc1hwc0(p, r * kS + i, c * kS + j, lane, kH, kW)]));
                                expected[nc1hwc0(p, r, c, lane, kOh, kOw)] = best;
                            }
                expectNear(h.read(y), expected, 0.0, 0.0, chip.name + " MaxPoolWithArgmaxV1, " + blockDimName(blockDim));
            }
        }
    }
}

struct GmTraffic {
    std::uint64_t loaded = 0, stored = 0;
    std::map<std::uint64_t, std::uint64_t> storedAt;  // GM byte → times written
    std::vector<std::pair<std::uint64_t, std::uint64_t>> loads;  // (GM address, bytes) of every load
};

// Every block's UB↔GM moves; `watch` records which bytes of [watch.begin, end) are written.
GmTraffic gmTraffic(const LoweredKernel& kernel, const TensorInfo& watch) {
    GmTraffic t;
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        auto stream = kernel.program({block, CoreKind::Vector, 0, 0});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                const auto* move = std::get_if<DataMove>(&instruction.operands);
                if (!move) continue;
                if (move->src == MemSpace::GM) {
                    t.loaded += move->totalBytes();
                    t.loads.emplace_back(move->srcAddr, move->totalBytes());
                }
                if (move->dst != MemSpace::GM) continue;
                t.stored += move->totalBytes();
                for (std::uint64_t b = 0; b < move->totalBytes(); b += 32)
                    if (move->dstAddr + b >= watch.deviceAddr && move->dstAddr + b < watch.deviceAddr + watch.bytes())
                        ++t.storedAt[move->dstAddr + b];
            }
            chunk.clear();
        }
    }
    return t;
}

// The grad reads dy and the mask (not x) and writes every dx byte exactly once (tiles drop the
// contributions their neighbours own). On the samples' 3×3 stride-2 windows the TIK form (fp16)
// reads each dy row at most twice (a window row shared by two bands); the DSL form (fp32) reads
// the dy rows again for every tap chunk (PoolingGradWithArg's WINDOW_SPLIT, §174): at 55 × 55 one
// tap a chunk, nine reads of each row per tile that reaches it.
TEST(VectorCnnTrainingOps, MaxPoolGradWithArgmaxWritesEveryDxByteOnceAndSkipsX) {
    const ChipConfig chip = ascend910B1();
    for (const DataType dtype : {DataType::Fp16, DataType::Fp32}) {
        CubeOpHarness h(chip, 64ull << 20);
        const auto x = h.tensor("x", {4, 64, 55, 55}, dtype), dy = h.tensor("dy", {4, 64, 27, 27}, dtype);
        const auto mask = h.tensor("argmax", {4, 4, 9, (27 * 27 + 15) / 16 + 1, 16}, DataType::Int16);
        const auto dx = h.tensor("dx", {4, 64, 55, 55}, dtype);
        auto op = makeOp("MaxPoolGradWithArgmaxV1", {x, dy, mask}, {dx});
        op.attrs["ksize"] = std::vector<std::int64_t>{3, 3};
        op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        const GmTraffic t = gmTraffic(kernels[0], dx);
        EXPECT_EQ(t.stored, dx.bytes());
        EXPECT_EQ(t.storedAt.size(), dx.bytes() / 32);
        for (const auto& [addr, times] : t.storedAt) ASSERT_EQ(times, 1u) << "dx byte " << addr;
        const std::uint64_t dyReads = dtype == DataType::Fp32 ? 9 : 1;
        EXPECT_GE(t.loaded, dyReads * dy.bytes() + mask.bytes() * 9 / 10);
        EXPECT_LE(t.loaded, 2 * (dyReads * dy.bytes() + mask.bytes()));
        for (const auto& [addr, bytes] : t.loads)  // x itself is not read
            EXPECT_TRUE(addr + bytes <= x.deviceAddr || addr >= x.deviceAddr + x.bytes()) << addr;
    }
}

// DropOutDoMask moves x, its mask bits (1/8 B per element) and y once each, over the sweep; every
// block first reads its tiling record and keep_prob.
TEST(VectorCnnTrainingOps, DropOutDoMaskReadsOneMaskBitPerElement) {
    const ChipConfig chip = ascend910B1();
    for (const DataType dtype : {DataType::Fp32, DataType::Fp16}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto x = h.tensor("x", {32, 9216}, dtype), y = h.tensor("y", {32, 9216}, dtype);
            const auto mask = h.tensor("mask", {36864}, DataType::Uint8), keep = h.tensor("keep_prob", {1}, DataType::Fp32);
            auto op = makeOp("DropOutDoMask", {x, mask, keep}, {y});
            op.blockDim = blockDim;
            const auto kernels = h.lower(op);
            ASSERT_EQ(kernels.size(), 1u);
            const GmTraffic t = gmTraffic(kernels[0], y);
            // Plus, per block, its 96 B tiling record and keep_prob's 32 B block (§61).
            EXPECT_EQ(t.loaded, x.bytes() + mask.bytes() + kernels[0].blockDim * (96u + 32u)) << blockDimName(blockDim);
            EXPECT_EQ(t.stored, y.bytes());
            EXPECT_EQ(t.storedAt.size(), y.bytes() / 32);
        }
    }
    CubeOpHarness h(chip, kGmBytes);
    auto shortMask = makeOp("DropOutDoMask", {h.tensor("x", {64, 64}, DataType::Fp32), h.tensor("m", {511}, DataType::Uint8)},
                            {h.tensor("y", {64, 64}, DataType::Fp32)});
    EXPECT_THROW(h.lower(shortMask), LoweringError);
}

// BroadcastTo along the last dim ([1] → [4096] of the Qwen3 sample, [3, 1] → [3, 70000] whose
// rows exceed a tile): x read once (per row part), every byte of y written once.
TEST(VectorCnnTrainingOps, BroadcastToAlongTheLastDimWritesEveryRowOnce) {
    const ChipConfig chip = ascend910B1();
    for (const auto& [from, to] : std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>>{
             {{1}, {4096}}, {{3, 1}, {3, 70000}}, {{5, 1}, {1, 5, 33}}}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto x = h.tensor("x", from, DataType::Fp32), y = h.tensor("y", to, DataType::Fp32);
            auto op = makeOp("BroadcastTo", {x}, {y});
            op.attrs["shape"] = to;
            op.blockDim = blockDim;
            const auto kernels = h.lower(op);
            ASSERT_EQ(kernels.size(), 1u);
            const GmTraffic t = gmTraffic(kernels[0], y);
            if (to.back() < 10000) {
                EXPECT_EQ(t.loaded, x.bytes()) << blockDimName(blockDim);
            } else {  // a row cut into parts: each part reads its row's value
                EXPECT_GE(t.loaded, 2 * x.bytes()) << blockDimName(blockDim);
                EXPECT_LE(t.loaded, 8 * x.bytes()) << blockDimName(blockDim);
            }
            EXPECT_EQ(t.stored, y.bytes()) << blockDimName(blockDim);
        }
    }
}

// NLLLoss sums −w[t]·x[n, t] and w[t] over the samples (blocks add atomically into the zeroed
// outputs); NLLLossGrad writes −w[t]·dy/total_weight at each row's target and 0 elsewhere.
TEST(VectorCnnTrainingOps, NllLossAndGradPickEachSamplesTarget) {
    constexpr std::int64_t kN = 40, kC = 100;
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip, kGmBytes);
            const auto x = h.tensor("x", {kN, kC}, DataType::Fp32), target = h.tensor("t", {kN}, DataType::Int32);
            const auto weight = h.tensor("w", {kC}, DataType::Fp32);
            const auto y = h.tensor("y", {1}, DataType::Fp32), total = h.tensor("tw", {1}, DataType::Fp32);
            const auto xs = h.fillRandom(x, -5, 0), ws = h.fillRandom(weight, 0.5f, 2.0f);
            const auto ts = h.fillRandom(target, 0, kC - 1);
            h.fillRandom(y, 0, 0);
            h.fillRandom(total, 0, 0);
            auto loss = makeOp("NLLLoss", {x, target, weight}, {y, total});
            loss.blockDim = blockDim;
            h.run(loss);
            double sum = 0, weights = 0;
            for (std::int64_t n = 0; n < kN; ++n) {
                const auto t = static_cast<std::size_t>(ts[static_cast<std::size_t>(n)]);
                sum -= double(ws[t]) * xs[static_cast<std::size_t>(n * kC) + t];
                weights += ws[t];
            }
            expectNear(h.read(y), {sum}, 1e-3, 1e-5, chip.name + " NLLLoss y, " + blockDimName(blockDim));
            expectNear(h.read(total), {weights}, 1e-3, 1e-5, chip.name + " NLLLoss total_weight, " + blockDimName(blockDim));

            const auto dy = h.tensor("dy", {1}, DataType::Fp32), dx = h.tensor("dx", {kN, kC}, DataType::Fp32);
            const auto dys = h.fillRandom(dy, 0.5f, 1.5f);
            auto grad = makeOp("NLLLossGrad", {x, dy, target, weight, total}, {dx});
            grad.blockDim = blockDim;
            h.run(grad);
            std::vector<double> expected(static_cast<std::size_t>(kN * kC), 0.0);
            for (std::int64_t n = 0; n < kN; ++n) {
                const auto t = static_cast<std::size_t>(ts[static_cast<std::size_t>(n)]);
                expected[static_cast<std::size_t>(n * kC) + t] = -double(ws[t]) * dys[0] / weights;
            }
            expectNear(h.read(dx), expected, 1e-5, 1e-5, chip.name + " NLLLossGrad, " + blockDimName(blockDim));
        }
    }
}

// The 910A's TIK NLLLossGrad deals the N lines over the cores (docs/fidelity.md §113): at block dim 32
// every block of [32,1000] writes its own line; the 910B1 form fills a tile with as many lines as UB holds.
TEST(VectorCnnTrainingOps, NllLossGradDealsItsLinesOverTheCoresOnCoupledChips) {
    constexpr std::int64_t kN = 32, kC = 1000;
    for (const ChipConfig& chip : {coupledChip(), ascend910B1()}) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", {kN, kC}, DataType::Fp32), target = h.tensor("t", {kN}, DataType::Int32);
        const auto weight = h.tensor("w", {kC}, DataType::Fp32), total = h.tensor("tw", {1}, DataType::Fp32);
        const auto dy = h.tensor("dy", {1}, DataType::Fp32), dx = h.tensor("dx", {kN, kC}, DataType::Fp32);
        auto grad = makeOp("NLLLossGrad", {x, dy, target, weight, total}, {dx});
        grad.blockDim = 32u;
        const LoweredKernel kernel = KernelRegistry::instance().lower(grad, chip).front();
        std::uint32_t blocksStoring = 0;
        std::uint64_t largestStore = 0;
        for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
            auto stream = kernel.program({block, CoreKind::Vector, 0});
            std::vector<Instruction> chunk;
            bool stores = false;
            while (stream->next(chunk)) {
                for (const Instruction& i : chunk)
                    if (const auto* m = std::get_if<DataMove>(&i.operands); m != nullptr && m->dst == MemSpace::GM) {
                        stores = true;
                        largestStore = std::max<std::uint64_t>(largestStore, m->totalBytes());
                    }
                chunk.clear();
            }
            blocksStoring += stores;
        }
        if (chip.organisation == CoreOrganisation::Coupled) {
            EXPECT_EQ(blocksStoring, 32u) << "one line a block";
            EXPECT_EQ(largestStore, static_cast<std::uint64_t>(kC) * 4) << "a block's dx line";
        } else {
            EXPECT_LT(blocksStoring, 4u) << "the 910B1 form: tiles of as many lines as UB holds";
            EXPECT_GT(largestStore, static_cast<std::uint64_t>(kC) * 4 * 8);
        }
    }
}

// Channels-last adaptive windows (uneven: 5 → 3, 7 → 4) and the grad spreading each output's
// gradient over its window, against references computed here.
TEST(VectorCnnTrainingOps, AdaptiveAvgPool3dAveragesWindowsOfChannelRows) {
    constexpr std::size_t kB = 2, kD = 1, kH = 5, kW = 7, kC = 24, kOh = 3, kOw = 4;
    auto start = [](std::size_t i, std::size_t in, std::size_t out) { return i * in / out; };
    auto end = [](std::size_t i, std::size_t in, std::size_t out) { return ((i + 1) * in + out - 1) / out; };
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", {kB, kD, kH, kW, kC}, DataType::Fp32), y = h.tensor("y", {kB, kD, kOh, kOw, kC}, DataType::Fp32);
        const auto dx = h.tensor("dx", {kB, kD, kH, kW, kC}, DataType::Fp32);
        const auto xs = h.fillRandom(x);
        auto pool = makeOp("AdaptiveAvgPool3d", {x}, {y});
        pool.blockDim = blockDim;
        h.run(pool);
        std::vector<double> expected(kB * kOh * kOw * kC, 0.0), grad(kB * kH * kW * kC, 0.0);
        const auto ys = h.read(y);
        for (std::size_t b = 0; b < kB; ++b)
            for (std::size_t i = 0; i < kOh; ++i)
                for (std::size_t j = 0; j < kOw; ++j) {
                    const double count = double(end(i, kH, kOh) - start(i, kH, kOh)) * double(end(j, kW, kOw) - start(j, kW, kOw));
                    for (std::size_t c = 0; c < kC; ++c) {
                        double sum = 0;
                        for (std::size_t r = start(i, kH, kOh); r < end(i, kH, kOh); ++r)
                            for (std::size_t q = start(j, kW, kOw); q < end(j, kW, kOw); ++q) {
                                sum += xs[((b * kH + r) * kW + q) * kC + c];
                                grad[((b * kH + r) * kW + q) * kC + c] += ys[((b * kOh + i) * kOw + j) * kC + c] / count;
                            }
                        expected[((b * kOh + i) * kOw + j) * kC + c] = sum / count;
                    }
                }
        expectNear(ys, expected, 1e-6, 1e-5, "AdaptiveAvgPool3d, " + blockDimName(blockDim));
        auto back = makeOp("AdaptiveAvgPool3dGrad", {y}, {dx});
        back.blockDim = blockDim;
        h.run(back);
        expectNear(h.read(dx), grad, 1e-6, 1e-5, "AdaptiveAvgPool3dGrad, " + blockDimName(blockDim));
    }
}

// Rows too long for UB with their window (the AlexNet grad's C = 8192) are cut into channel parts.
TEST(VectorCnnTrainingOps, AdaptiveAvgPool3dCutsLongRowsIntoParts) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, kGmBytes);
    const auto x = h.tensor("x", {1, 3, 3, 8192}, DataType::Fp32), y = h.tensor("y", {1, 1, 1, 8192}, DataType::Fp32);
    const auto xs = h.fillRandom(x);
    h.run(makeOp("AdaptiveAvgPool3d", {x}, {y}));
    std::vector<double> expected(8192, 0.0);
    for (std::size_t p = 0; p < 9; ++p)
        for (std::size_t c = 0; c < 8192; ++c) expected[c] += xs[p * 8192 + c] / 9.0;
    expectNear(h.read(y), expected, 1e-6, 1e-5, "AdaptiveAvgPool3d over 8192-channel rows");
}

// NCHW [Co, C, kh, kw] → FRACTAL_Z [C1·kh·kw, Co/16, 16, C0] puts (co, c, h, w) at
// [c1·kh·kw + h·kw + w][co/16][co%16][c%C0], and the way back restores the weight.
TEST(VectorCnnTrainingOps, TransDataFractalZRoundTripsAConvWeight) {
    const ChipConfig chip = ascend910B1();
    constexpr std::int64_t kCo = 32, kC = 24, kKh = 3, kKw = 3, kC0 = 8;
    CubeOpHarness h(chip, kGmBytes);
    const auto w = h.tensor("w", {kCo, kC, kKh, kKw}, DataType::Fp32);
    auto fz = h.tensor("fz", {kC / kC0 * kKh * kKw, kCo / 16, 16, kC0}, DataType::Fp32);
    fz.format = TensorFormat::FractalZ;
    const auto back = h.tensor("back", {kCo, kC, kKh, kKw}, DataType::Fp32);
    const auto ws = h.fillRandom(w);
    auto to = makeOp("TransData", {w}, {fz});
    to.attrs["dst_format"] = std::string("FRACTAL_Z");
    h.run(to);
    std::vector<double> expected(ws.size());
    for (std::int64_t co = 0; co < kCo; ++co)
        for (std::int64_t c = 0; c < kC; ++c)
            for (std::int64_t k = 0; k < kKh * kKw; ++k) {
                const std::int64_t row = c / kC0 * kKh * kKw + k;
                expected[static_cast<std::size_t>(((row * (kCo / 16) + co / 16) * 16 + co % 16) * kC0 + c % kC0)] =
                    ws[static_cast<std::size_t>((co * kC + c) * kKh * kKw + k)];
            }
    expectNear(h.read(fz), expected, 0.0, 0.0, "NCHW → FRACTAL_Z");
    auto from = makeOp("TransData", {fz}, {back});
    from.attrs["dst_format"] = std::string("NCHW");
    h.run(from);
    expectNear(h.read(back), std::vector<double>(ws.begin(), ws.end()), 0.0, 0.0, "FRACTAL_Z → NCHW");
    auto padded = makeOp("TransData", {h.tensor("w3", {16, 3, 3, 3}, DataType::Fp32)}, {fz});
    padded.attrs["dst_format"] = std::string("FRACTAL_Z");
    EXPECT_THROW(h.lower(padded), LoweringError);  // C = 3 pads to one C1 block: fz holds 3× too many rows
}

}  // namespace
}  // namespace ascendsim::test
