// RotaryPositionEmbedding's forward runs CANN's RotateHalf kernel layout (models/kernels/elementwise/
// rope.cpp, docs/fidelity.md §128): each head of a step of storeSLines table lines is its own strided
// load and store of one D row a line, the step's cos and sin lines are loaded once, and the halves
// are swapped by two UB→UB copies per head. The numbers are checked by vector_transformer_ops_test.
#include <gtest/gtest.h>

#include "models/kernels/tiling/vector_tiling.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

TEST(RotaryPositionEmbeddingHeads, EachHeadOfAStepIsOneStridedLoadAndStoreOfItsLines) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t positions = 100, heads = 4, d = 128;
    const std::uint64_t rowBytes = d * 2;  // bf16
    // CANN's GetStoreLines: UB less 2 KiB, cut into 2 × 12 pieces for bf16, each of whole D rows.
    const std::uint64_t storeLines = (vectorPlacement(chip).ubBytes - 2048) / 24 / rowBytes;
    ASSERT_LT(storeLines, 50u);  // so each block's 50 lines take more than one step
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {positions, 1, heads, d}, DataType::Bf16);
    const auto y = h.tensor("y", {positions, 1, heads, d}, DataType::Bf16);
    const auto cos = h.tensor("cos", {positions, 1, 1, d}, DataType::Bf16);
    const auto sin = h.tensor("sin", {positions, 1, 1, d}, DataType::Bf16);
    auto op = makeOp("RotaryPositionEmbedding", {x, cos, sin}, {y});
    op.blockDim = 2;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    ASSERT_EQ(kernels[0].blockDim, 2u);
    const std::uint64_t steps = (50 + storeLines - 1) / storeLines;
    for (std::uint32_t block = 0; block < 2; ++block) {
        std::uint64_t xLoads = 0, tableLoads = 0, stores = 0, swaps = 0, xBytes = 0, yBytes = 0;
        for (const Instruction& instr : blockProgram(kernels[0], block, CoreKind::Vector)) {
            const auto* move = std::get_if<DataMove>(&instr.operands);
            if (move == nullptr) continue;
            if (move->src == MemSpace::UB && move->dst == MemSpace::UB) {
                ++swaps;
                continue;
            }
            const bool fromX = move->src == MemSpace::GM && move->srcAddr >= x.deviceAddr &&
                               move->srcAddr < x.deviceAddr + x.bytes();
            if (fromX || move->dst == MemSpace::GM) {  // one D row a line, the other heads' rows between
                EXPECT_EQ(move->burstBytes, rowBytes);
                EXPECT_LE(move->burstCount, storeLines);
                EXPECT_EQ(fromX ? move->srcGapBytes : move->dstGapBytes, (heads - 1) * rowBytes);
            }
            if (fromX) {
                ++xLoads;
                xBytes += move->totalBytes();
            } else if (move->src == MemSpace::GM) {
                ++tableLoads;
                EXPECT_EQ(move->burstCount, 1u);
            } else if (move->dst == MemSpace::GM) {
                ++stores;
                yBytes += move->totalBytes();
            }
        }
        EXPECT_EQ(xLoads, steps * heads);
        EXPECT_EQ(stores, steps * heads);
        EXPECT_EQ(tableLoads, 2 * steps);   // cos and sin once a step, for all its heads
        EXPECT_EQ(swaps, 2 * steps * heads);  // XNewCopy: one UB→UB copy per half
        EXPECT_EQ(xBytes, 50 * heads * rowBytes);
        EXPECT_EQ(yBytes, 50 * heads * rowBytes);
    }
}


// The fp32 and fp16 forms run the same steps with copies (fp32) or casts (fp16) into the fp32
// working buffers: y = x·cos + rotate_half(x)·sin per head, over more lines than one step.
TEST(RotaryPositionEmbeddingHeads, Fp32AndFp16RotateEveryHeadOverSeveralSteps) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t positions = 70, heads = 3, d = 64, half = d / 2;
    for (const DataType dtype : {DataType::Fp32, DataType::Fp16}) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {positions, 1, heads, d}, dtype), y = h.tensor("y", {positions, 1, heads, d}, dtype);
        const auto cos = h.tensor("cos", {positions, 1, 1, d}, dtype), sin = h.tensor("sin", {positions, 1, 1, d}, dtype);
        const auto xs = h.fillRandom(x), cs = h.fillRandom(cos), ss = h.fillRandom(sin);
        auto op = makeOp("RotaryPositionEmbedding", {x, cos, sin}, {y});
        op.blockDim = 1;  // 70 lines: more than one step of a block
        h.run(op);
        std::vector<double> expected(xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const auto row = static_cast<std::int64_t>(i) / d, j = static_cast<std::int64_t>(i) % d;
            const auto t = static_cast<std::size_t>((row / heads) * d + j);
            const auto other = static_cast<std::size_t>(row * d + (j < half ? j + half : j - half));
            expected[i] = xs[i] * cs[t] + (j < half ? -1.0 : 1.0) * xs[other] * ss[t];
        }
        expectNear(h.read(y), roundedTo(dtype, expected), 1e-3, relativeTolerance(dtype), "RotaryPositionEmbedding");
    }
}

}  // namespace
}  // namespace ascendsim::test
