// Row-wise ops (SoftmaxV2, LayerNorm, RmsNorm, SoftmaxCrossEntropyWithLogits) against references
// computed here in double, for several block_dims and dtypes.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

using Rows = std::vector<std::vector<double>>;

Rows split(const std::vector<float>& flat, std::size_t length) {
    Rows rows(flat.size() / length);
    for (std::size_t r = 0; r < rows.size(); ++r) rows[r].assign(flat.begin() + r * length, flat.begin() + (r + 1) * length);
    return rows;
}

std::vector<double> softmaxRow(const std::vector<double>& x) {
    const double m = *std::max_element(x.begin(), x.end());
    std::vector<double> e(x.size());
    double sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) sum += e[i] = std::exp(x[i] - m);
    for (auto& v : e) v /= sum;
    return e;
}

void checkSoftmax(std::int64_t rows, std::int64_t length, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {rows, length}, dtype);
        const auto y = h.tensor("y", {rows, length}, dtype);
        const auto in = h.fillRandom(x, -5, 5);
        auto op = makeOp("SoftmaxV2", {x}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected;
        for (const auto& row : split(in, static_cast<std::size_t>(length))) {
            const auto s = softmaxRow(row);
            expected.insert(expected.end(), s.begin(), s.end());
        }
        expectNear(h.read(y), roundedTo(dtype, expected), 1e-6, relativeTolerance(dtype),
                   "SoftmaxV2 " + std::to_string(length) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorRowOps, SoftmaxNormalisesEveryRowShortOrLong) {
    checkSoftmax(37, 50, DataType::Fp32);     // rows shorter than a repeat
    checkSoftmax(9, 1000, DataType::Fp16);    // rows spanning many repeats
    checkSoftmax(300, 64, DataType::Bf16);    // exactly one repeat per row
    checkSoftmax(130, 128, DataType::Fp32);   // dense rows of whole repeats: vcgmax levels, column chunks
}

void checkLayerNorm(std::int64_t rows, std::int64_t length, DataType dtype, bool rms) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {rows, length}, dtype);
        const auto gamma = h.tensor("gamma", {length}, dtype);
        const auto beta = h.tensor("beta", {length}, dtype);
        const auto y = h.tensor("y", {rows, length}, dtype);
        const auto in = h.fillRandom(x, -3, 3);
        const auto g = h.fillRandom(gamma, 0.5, 1.5);
        const auto b = h.fillRandom(beta, -1, 1);
        auto op = rms ? makeOp("RmsNorm", {x, gamma}, {y}) : makeOp("LayerNorm", {x, gamma, beta}, {y});
        op.blockDim = blockDim;
        h.run(op);
        const double epsilon = rms ? 1e-6 : 1e-5;
        std::vector<double> expected;
        for (const auto& row : split(in, static_cast<std::size_t>(length))) {
            double mean = 0, square = 0;
            for (double v : row) mean += v;
            mean = rms ? 0.0 : mean / static_cast<double>(length);
            for (double v : row) square += (v - mean) * (v - mean);
            const double rstd = 1 / std::sqrt(square / static_cast<double>(length) + epsilon);
            for (std::size_t i = 0; i < row.size(); ++i)
                expected.push_back((row[i] - mean) * rstd * g[i] + (rms ? 0.0 : b[i]));
        }
        expectNear(h.read(y), roundedTo(dtype, expected), 1e-4, 2 * relativeTolerance(dtype),
                   std::string(rms ? "RmsNorm " : "LayerNorm ") + std::to_string(length) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorRowOps, LayerNormCentresAndScalesEachRow) {
    checkLayerNorm(33, 768, DataType::Fp16, false);
    checkLayerNorm(100, 40, DataType::Fp32, false);
    checkLayerNorm(70, 192, DataType::Fp32, false);  // 3 repeats per row: one vcgadd level, column chunks
}

TEST(VectorRowOps, RmsNormScalesEachRowByItsRootMeanSquare) {
    checkLayerNorm(17, 4096, DataType::Fp16, true);
    checkLayerNorm(64, 24, DataType::Fp32, true);
    checkLayerNorm(300, 128, DataType::Bf16, true);  // the Qwen3 q/k norm's rows (head_dim 128)
}

// Vector instructions of block 0's program, by op.
std::map<VectorOp, std::uint64_t> vectorOpCounts(const LoweredKernel& kernel) {
    auto stream = kernel.program(BlockProgramRequest{.blockIdx = 0});
    std::vector<Instruction> chunk;
    std::map<VectorOp, std::uint64_t> counts;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk)
            if (instruction.opcode == Opcode::Vector) ++counts[std::get<VectorInstr>(instruction.operands).op];
        chunk.clear();
    }
    return counts;
}

// The vector instruction counts of an fp32 RmsNorm [rows, length] lowered onto one block.
std::map<VectorOp, std::uint64_t> rmsNormOpCountsOnOneBlock(std::int64_t rows, std::int64_t length) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("RmsNorm", {h.tensor("x", {rows, length}, DataType::Fp32), h.tensor("gamma", {length}, DataType::Fp32)},
                     {h.tensor("y", {rows, length}, DataType::Fp32)});
    op.blockDim = 1;
    return vectorOpCounts(h.lower(op).at(0));
}

TEST(VectorRowOps, ShortDenseRowsIssueInstructionsPerColumnChunkNotPerRow) {
    // 2048 rows of 128 fp32 on one block: the row sum is vcgadd over all rows plus one vcadd per
    // 255 rows, and γ / rstd multiply two 64-column chunks whose repeats walk the rows. One
    // instruction per row would be ≥ 2048 ReduceSum and ≥ 4096 Mul instructions.
    const auto counts = rmsNormOpCountsOnOneBlock(2048, 128);
    EXPECT_GT(counts.at(VectorOp::BlockReduceSum), 0u);
    EXPECT_LT(counts.at(VectorOp::ReduceSum), 100u);
    EXPECT_LT(counts.at(VectorOp::Mul), 300u);
}

TEST(VectorRowOps, RowsThatAreNotWholeRepeatsKeepTheRowByRowReduction) {
    const auto counts = rmsNormOpCountsOnOneBlock(256, 1000);
    EXPECT_EQ(counts.count(VectorOp::BlockReduceSum), 0u);
    EXPECT_GE(counts.at(VectorOp::ReduceSum), 256u);
}

// CANN's RmsNorm keeps one buffer per queue (ops-nn rms_norm_base.h BUFFER_NUM = 1; merge-N
// schedule: CopyIn, Compute, CopyOutY per tile of rows; docs/fidelity.md §71). A bf16 RmsNorm
// therefore uses event 0 only, frees its staged x once cast to fp32 (V→MTE2 is set after the input
// cast and before anything else of the tile's compute) and writes its output only after the
// previous tile's store (MTE3→V waited after that set). With one buffer the freed UB holds
// CANN's merge-N row factor, (UB − 1 KiB) / (16 B · 128 + 260 B) = 84 rows of 128 per tile,
// give or take the model's per-row scratch, where two buffers would hold ~20 % fewer.
TEST(VectorRowOps, Bf16RmsNormKeepsOneBufferAndFreesItsInputOnceCast) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const std::int64_t rows = 4096, length = 128;
    auto op = makeOp("RmsNorm", {h.tensor("x", {rows, length}, DataType::Bf16), h.tensor("gamma", {length}, DataType::Bf16)},
                     {h.tensor("y", {rows, length}, DataType::Bf16)});
    op.blockDim = 1;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    std::vector<Instruction> code, chunk;
    auto stream = kernels[0].program({0, CoreKind::Vector, 0, 0});
    while (stream->next(chunk)) code.insert(code.end(), chunk.begin(), chunk.end()), chunk.clear();
    const auto isFlag = [](const Instruction& i, Opcode opcode, Pipe src, Pipe dst) {
        if (i.opcode != opcode) return false;
        const Flag& f = std::get<Flag>(i.operands);
        return f.src == src && f.dst == dst && f.eventId == 0;  // event 2: the block's setup
    };
    std::uint64_t tiles = 0, castsBeforeRelease = 0, otherBeforeRelease = 0;
    bool inTile = false, released = false;
    for (const auto& i : code) {
        if (i.opcode == Opcode::SetFlag || i.opcode == Opcode::WaitFlag) {
            const Flag& f = std::get<Flag>(i.operands);
            if (f.src != Pipe::Scalar && f.dst != Pipe::Scalar && f.eventId < 2) {
                EXPECT_EQ(f.eventId, 0u);
            }
        }
        if (isFlag(i, Opcode::WaitFlag, Pipe::Mte2, Pipe::Vector)) {
            inTile = true, released = false, ++tiles;
        } else if (inTile && isFlag(i, Opcode::SetFlag, Pipe::Vector, Pipe::Mte2)) {
            released = true;
        } else if (inTile && isFlag(i, Opcode::WaitFlag, Pipe::Mte3, Pipe::Vector)) {
            EXPECT_TRUE(released) << "the output was claimed before the input was freed";
        } else if (inTile && !released && i.opcode == Opcode::Vector) {
            (std::get<VectorInstr>(i.operands).op == VectorOp::Cast ? castsBeforeRelease : otherBeforeRelease) += 1;
        }
    }
    EXPECT_GT(castsBeforeRelease, 0u);
    EXPECT_EQ(otherBeforeRelease, 0u);
    // 4096 rows at CANN's 84 per tile: 49 tiles; two buffers (20 B per element) would need ≥ 60.
    EXPECT_GE(tiles, 47u);
    EXPECT_LE(tiles, 55u);
}

TEST(VectorRowOps, SoftmaxCrossEntropyGivesLossAndGradient) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const std::int64_t n = 45, c = 1000;
        const auto logits = h.tensor("logits", {n, c}, DataType::Fp32);
        const auto labels = h.tensor("labels", {n, c}, DataType::Fp32);
        const auto loss = h.tensor("loss", {n}, DataType::Fp32);
        const auto backprop = h.tensor("backprop", {n, c}, DataType::Fp32);
        const auto x = h.fillRandom(logits, -4, 4);
        const auto t = h.fillRandom(labels, 0, 1);
        auto op = makeOp("SoftmaxCrossEntropyWithLogits", {logits, labels}, {loss, backprop});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expectedLoss, expectedGrad;
        const auto xs = split(x, c), ts = split(t, c);
        for (std::size_t r = 0; r < xs.size(); ++r) {
            const auto s = softmaxRow(xs[r]);
            double l = 0;
            for (std::size_t i = 0; i < s.size(); ++i) {
                l -= ts[r][i] * std::log(s[i]);
                expectedGrad.push_back(s[i] - ts[r][i]);
            }
            expectedLoss.push_back(l);
        }
        expectNear(h.read(loss), expectedLoss, 1e-3, 1e-5, "loss, " + blockDimName(blockDim));
        expectNear(h.read(backprop), expectedGrad, 1e-6, 1e-5, "backprop, " + blockDimName(blockDim));
    }
}

TEST(VectorRowOps, ARowTooLongForUbIsALoweringError) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto op = makeOp("SoftmaxV2", {h.tensor("x", {2, 1 << 20}, DataType::Fp32)},
                           {h.tensor("y", {2, 1 << 20}, DataType::Fp32)});
    EXPECT_THROW(h.lower(op), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
