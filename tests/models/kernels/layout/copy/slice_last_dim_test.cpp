// Slice (models/kernels/layout/copy/slice.cpp) of the last dim alone whose kept rows are shorter than
// a 32 B block: CANN's TIK strided_slice vnchwconv mode — its tiling read, the segments' input
// rows in one move each, a vnchwconv, the vector pipe's UB → UB copy of each row's kept blocks, a
// vnchwconv back, one dense store a loop (docs/fidelity.md §153). Other slices keep the
// elementwise stream.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kSliceGmBytes = 8ull << 20;

struct SliceProgram {
    std::vector<std::uint64_t> loadBytes, storeBytes;
    std::uint64_t nchwConvs = 0, ubCopies = 0;
};

SliceProgram programOf(const LoweredKernel& kernel) {
    SliceProgram p;
    forEachBlockInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        if (const auto* v = std::get_if<VectorInstr>(&i.operands); v && v->op == VectorOp::NchwConv) ++p.nchwConvs;
        const auto* d = std::get_if<DataMove>(&i.operands);
        if (d == nullptr) return;
        if (d->src == MemSpace::GM) p.loadBytes.push_back(d->totalBytes());
        else if (d->dst == MemSpace::GM) p.storeBytes.push_back(d->totalBytes());
        else if (d->src == MemSpace::UB && d->dst == MemSpace::UB) ++p.ubCopies;
    });
    return p;
}

// y = x[.., begin : begin + size] on the last dim, in and out of the harness; returns the kernels.
std::vector<LoweredKernel> runLastDimSlice(CubeOpHarness& h, const TensorInfo& x, const TensorInfo& y,
                                           std::vector<std::int64_t> offsets, std::optional<std::uint32_t> blockDim,
                                           const std::string& what) {
    const auto xs = h.fillRandom(x);
    auto op = makeOp("Slice", {x}, {y});
    op.attrs["offsets"] = offsets;
    op.attrs["size"] = y.shape;
    op.blockDim = blockDim;
    const auto kernels = h.run(op);
    std::vector<std::int64_t> xStrides(x.shape.size(), 1);
    for (std::size_t i = x.shape.size(); i-- > 1;) xStrides[i - 1] = xStrides[i] * x.shape[i];
    std::vector<double> expected;
    for (std::int64_t e = 0; e < y.elementCount(); ++e) {
        std::int64_t rest = e, at = 0;
        for (std::size_t i = y.shape.size(); i-- > 0;) {
            at += (rest % y.shape[i] + offsets[i]) * xStrides[i];
            rest /= y.shape[i];
        }
        expected.push_back(xs[static_cast<std::size_t>(at)]);
    }
    expectNear(h.read(y), expected, 0.0, 0.0, what + ", " + blockDimName(blockDim));
    return kernels;
}

// The Qwen3 sample's [4,24] → [4,1] fp32 (offsets 0, 2), one block: the tiling read, the four rows in
// one 384 B move, two vnchwconvs and one UB → UB copy, one 16 B store — and the right values.
TEST(SliceLastDim, QwenRowsAreOneMoveTwoTransposesAndOneStore) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, kSliceGmBytes);
    const auto x = h.tensor("x", {4, 24}, DataType::Fp32), y = h.tensor("y", {4, 1}, DataType::Fp32);
    const auto kernels = runLastDimSlice(h, x, y, {0, 2}, 1u, "[4,24] -> [4,1]");
    ASSERT_EQ(kernels.size(), 1u);
    const SliceProgram p = programOf(kernels.front());
    ASSERT_EQ(p.loadBytes.size(), 2u);
    EXPECT_EQ(p.loadBytes[0], 352u);  // strided_slice's tiling: 3 + 5 · 8 int64 words in whole blocks
    EXPECT_EQ(p.loadBytes[1], 4u * 24 * 4);
    EXPECT_EQ(p.nchwConvs, 2u);
    EXPECT_EQ(p.ubCopies, 1u);
    EXPECT_EQ(p.storeBytes, std::vector<std::uint64_t>{16u});
}

// Values over the block_dim sweep and over loops of several segments: 16-bit rows, 32-bit rows,
// 600 rows of 3 fp32 out of 40 (more rows than one loop's 16 segments hold on 7 or fewer blocks).
TEST(SliceLastDim, EverySegmentAndBlockCopiesItsRows) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kSliceGmBytes);
        runLastDimSlice(h, h.tensor("x", {40, 3, 20}, DataType::Bf16), h.tensor("y", {40, 3, 5}, DataType::Bf16),
                        {0, 0, 7}, blockDim, "bf16 [40,3,20] -> [40,3,5]");
        runLastDimSlice(h, h.tensor("x2", {37, 24}, DataType::Fp32), h.tensor("y2", {37, 1}, DataType::Fp32), {0, 23},
                        blockDim, "fp32 [37,24] -> [37,1]");
        const auto kernels = runLastDimSlice(h, h.tensor("x3", {600, 40}, DataType::Fp32),
                                             h.tensor("y3", {600, 3}, DataType::Fp32), {0, 11}, blockDim,
                                             "fp32 [600,40] -> [600,3]");
        EXPECT_GT(programOf(kernels.front()).nchwConvs, 0u) << blockDimName(blockDim);
    }
}

// A slice of another dim too, rows of a block or more, or 8-bit elements keep the elementwise
// stream (no vnchwconv), with the right values.
TEST(SliceLastDim, OtherSlicesKeepTheElementwiseStream) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, kSliceGmBytes);
    const auto otherDim = runLastDimSlice(h, h.tensor("x", {6, 24}, DataType::Fp32), h.tensor("y", {3, 1}, DataType::Fp32),
                                          {2, 5}, 1u, "[6,24] -> [3,1]");
    EXPECT_EQ(programOf(otherDim.front()).nchwConvs, 0u);
    const auto blockRows = runLastDimSlice(h, h.tensor("x2", {4, 24}, DataType::Fp32),
                                           h.tensor("y2", {4, 8}, DataType::Fp32), {0, 8}, 1u, "[4,24] -> [4,8]");
    EXPECT_EQ(programOf(blockRows.front()).nchwConvs, 0u);
}

}  // namespace
}  // namespace ascendsim::test
