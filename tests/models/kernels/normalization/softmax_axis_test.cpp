// SoftmaxV2 over a non-last axis ([outer, L, inner] with inner > 1) against a reference computed
// here in double, for the block_dim sweep and several dtypes, chunk widths and axis lengths.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

std::vector<double> softmaxAlongAxis(const std::vector<float>& x, std::int64_t outer,
                                     std::int64_t length, std::int64_t inner) {
    std::vector<double> y(x.size());
    for (std::int64_t a = 0; a < outer; ++a) {
        for (std::int64_t i = 0; i < inner; ++i) {
            auto at = [&](std::int64_t l) {
                return static_cast<std::size_t>((a * length + l) * inner + i);
            };
            double m = -INFINITY, sum = 0;
            for (std::int64_t l = 0; l < length; ++l)
                m = std::max(m, static_cast<double>(x[at(l)]));
            for (std::int64_t l = 0; l < length; ++l) sum += y[at(l)] = std::exp(x[at(l)] - m);
            for (std::int64_t l = 0; l < length; ++l) y[at(l)] /= sum;
        }
    }
    return y;
}

void checkSoftmaxAxis(const std::vector<std::int64_t>& shape, std::int64_t axis, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    const auto rank = static_cast<std::int64_t>(shape.size());
    const std::int64_t at = axis < 0 ? axis + rank : axis;
    std::int64_t outer = 1, inner = 1;
    for (std::int64_t d = 0; d < rank; ++d) {
        if (d < at) outer *= shape[static_cast<std::size_t>(d)];
        if (d > at) inner *= shape[static_cast<std::size_t>(d)];
    }
    const std::int64_t length = shape[static_cast<std::size_t>(at)];
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", shape, dtype);
        const auto y = h.tensor("y", shape, dtype);
        const auto in = h.fillRandom(x, -5, 5);
        auto op = makeOp("SoftmaxV2", {x}, {y});
        op.attrs["axis"] = axis;
        op.blockDim = blockDim;
        h.run(op);
        expectNear(h.read(y), roundedTo(dtype, softmaxAlongAxis(in, outer, length, inner)), 1e-6,
                   relativeTolerance(dtype),
                   "SoftmaxV2 axis " + std::to_string(axis) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorSoftmaxAxis, SoftmaxOverTheChannelsOfNchwNormalisesEveryPixel) {
    checkSoftmaxAxis({2, 5, 6, 7}, 1,
                     DataType::Fp32);  // inner 42: one chunk narrower than a repeat
    checkSoftmaxAxis({3, 21, 9, 30}, 1,
                     DataType::Fp16);  // odd axis length: the fold tree's middle rows
}

TEST(VectorSoftmaxAxis, WideInnerDimsSplitIntoSeveralChunks) {
    checkSoftmaxAxis({2, 40, 3000}, 1,
                     DataType::Fp32);  // 3000 columns: chunks as wide as UB allows
    checkSoftmaxAxis({3, 2, 5000}, 1,
                     DataType::Fp32);  // chunks capped at 2040 columns (8-bit repeat stride)
    checkSoftmaxAxis({4, 300, 70}, -2, DataType::Bf16);  // 300 rows: two repeat groups per column
}

TEST(VectorSoftmaxAxis, LeadingAxisAndSizeOneAxes) {
    checkSoftmaxAxis({6, 33}, 0, DataType::Fp16);       // no outer dims
    checkSoftmaxAxis({4, 1, 10}, 1, DataType::Fp32);    // a size-1 axis: every element becomes 1
    checkSoftmaxAxis({3, 8, 5, 1}, 1, DataType::Fp32);  // a trailing size-1 dim: inner 5
}

TEST(VectorSoftmaxAxis, RunsOnCoupledChipsToo) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {2, 19, 100}, DataType::Fp16);
    const auto y = h.tensor("y", {2, 19, 100}, DataType::Fp16);
    const auto in = h.fillRandom(x, -5, 5);
    auto op = makeOp("SoftmaxV2", {x}, {y});
    op.attrs["axis"] = std::int64_t{1};
    const auto kernels = h.run(op);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::AiCore);
    expectNear(h.read(y), roundedTo(DataType::Fp16, softmaxAlongAxis(in, 2, 19, 100)), 1e-6,
               relativeTolerance(DataType::Fp16), "SoftmaxV2 axis 1 on a coupled chip");
}

TEST(VectorSoftmaxAxis, RepeatStridesFitTheirEightBitFields) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("SoftmaxV2", {h.tensor("x", {3, 2, 5000}, DataType::Fp32)},
                     {h.tensor("y", {3, 2, 5000}, DataType::Fp32)});
    op.attrs["axis"] = std::int64_t{1};
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    auto stream = kernels[0].program(BlockProgramRequest{.blockIdx = 0});
    std::vector<Instruction> chunk;
    std::uint64_t widestStride = 0;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            if (instruction.opcode != Opcode::Vector) continue;
            const auto& v = std::get<VectorInstr>(instruction.operands);
            widestStride = std::max<std::uint64_t>(
                {widestStride, v.dstRepeatStride, v.src0RepeatStride, v.src1RepeatStride});
        }
        chunk.clear();
    }
    EXPECT_EQ(widestStride, 255u);  // 2040 fp32 columns per row: the widest pitch the field allows
}

TEST(VectorSoftmaxAxis, AnAxisTooLongForUbIsALoweringError) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("SoftmaxV2", {h.tensor("x", {100000, 8}, DataType::Fp32)},
                     {h.tensor("y", {100000, 8}, DataType::Fp32)});
    op.attrs["axis"] = std::int64_t{0};
    EXPECT_THROW(h.lower(op), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
