// TransData NCHW ↔ NC1HWC0 of fp16 by vnchwconv: layout against index arithmetic (packed channel
// blocks, column chunks of a long H·W, zero-padded C), and the program's vector work.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::int64_t kC0 = 16;

// NCHW [n, c, h, w] → NC1HWC0 element order, padded channels 0.
std::vector<float> blockedOf(const std::vector<float>& x, std::int64_t n, std::int64_t c, std::int64_t hw) {
    const std::int64_t c1 = (c + kC0 - 1) / kC0;
    std::vector<float> y(static_cast<std::size_t>(n * c1 * hw * kC0), 0.0f);
    for (std::int64_t b = 0; b < n; ++b)
        for (std::int64_t ch = 0; ch < c; ++ch)
            for (std::int64_t p = 0; p < hw; ++p)
                y[static_cast<std::size_t>(((b * c1 + ch / kC0) * hw + p) * kC0 + ch % kC0)] =
                    x[static_cast<std::size_t>((b * c + ch) * hw + p)];
    return y;
}

void checkRoundTrip(const ChipConfig& chip, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h5(chip);
        const auto x = h5.tensor("x", {n, c, h, w}, DataType::Fp16);
        auto y = h5.tensor("y", {n, (c + kC0 - 1) / kC0 * kC0, h, w}, DataType::Fp16);  // C1·C0 channels
        y.format = TensorFormat::NC1HWC0;
        const auto xs = h5.fillRandom(x);
        auto there = makeOp("TransData", {x}, {y});
        there.attrs["dst_format"] = std::string("NC1HWC0");
        there.blockDim = blockDim;
        const auto kernels = h5.run(there);
        const auto expected = blockedOf(xs, n, c, h * w);
        const auto got = h5.machine().readTensor(y.deviceAddr, DataType::Fp16, expected.size());
        const std::string what = "NCHW → NC1HWC0 [" + std::to_string(n) + "," + std::to_string(c) + "," + std::to_string(h) +
                                 "," + std::to_string(w) + "], " + blockDimName(blockDim);
        ASSERT_EQ(got, expected) << what;
        if (c % kC0 != 0) continue;  // the way back from padded channels is not modelled
        const auto back = h5.tensor("back", {n, c, h, w}, DataType::Fp16);
        auto again = makeOp("TransData", {y}, {back});
        again.attrs["dst_format"] = std::string("NCHW");
        again.blockDim = blockDim;
        h5.run(again);
        EXPECT_EQ(h5.read(back), xs) << what << " and back";
    }
}

TEST(VectorTransDataNchwConv, SmallPlanesPackSeveralChannelBlocksPerTile) {
    checkRoundTrip(coupledChip(), 2, 48, 5, 3);   // H·W = 15: one repeat, 16 columns
    checkRoundTrip(ascend910B1(), 3, 32, 13, 13);  // H·W = 169: odd tail of 9 columns
}

TEST(VectorTransDataNchwConv, LongPlanesAreCutIntoColumnChunks) {
    checkRoundTrip(coupledChip(), 1, 32, 70, 70);  // H·W = 4900 > one tile's 2016 columns
}

TEST(VectorTransDataNchwConv, ChannelsShortOfC0ArePaddedWithZeros) {
    checkRoundTrip(coupledChip(), 2, 3, 9, 7);  // an image stem: C = 3 → C1 = 1, 13 zero channels
}

// Every vector instruction is a vnchwconv (no Gather table, no per-element moves): one repeat per
// 16 H·W positions of every channel block, 169 → 11 repeats for each of 32 · 16 blocks.
TEST(VectorTransDataNchwConv, EveryChannelBlockTakesOneRepeatPerSixteenPositions) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {32, 256, 13, 13}, DataType::Fp16);
    auto y = h.tensor("y", {32, 256, 13, 13}, DataType::Fp16);
    y.format = TensorFormat::NC1HWC0;
    auto op = makeOp("TransData", {x}, {y});
    op.attrs["dst_format"] = std::string("NC1HWC0");
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    std::uint64_t repeats = 0, others = 0;
    for (std::uint32_t block = 0; block < kernels[0].blockDim; ++block) {
        auto stream = kernels[0].program({block, CoreKind::Cube, 0});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk)
                if (const auto* v = std::get_if<VectorInstr>(&instruction.operands))
                    (v->op == VectorOp::NchwConv ? repeats : others) += v->op == VectorOp::NchwConv ? v->repeats : 1;
            chunk.clear();
        }
    }
    EXPECT_EQ(kernels[0].blockDim, 32u);
    EXPECT_EQ(repeats, 32u * 16u * 11u);
    EXPECT_EQ(others, 0u);
}

}  // namespace
}  // namespace ascendsim::test
