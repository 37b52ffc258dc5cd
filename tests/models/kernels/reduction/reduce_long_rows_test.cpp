// ReduceSum/Mean/Max over rows longer than UB (reduce_long_rows.h): each row streams through
// several chunks into a lane accumulator; checked against a reference over the block_dim sweep,
// with a partial last chunk and a partial last fold step, in fp32 and fp16.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kGmBytes = 16ull << 20;

void checkLongRows(const std::string& type, std::int64_t rows, std::int64_t length, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, kGmBytes);
        const auto x = h.tensor("x", {rows, 1, length}, dtype);
        const auto y = h.tensor("y", {rows, 1}, dtype);
        const auto in = h.fillRandom(x, -1, 1);
        auto op = makeOp(type, {x}, {y});
        op.attrs["axes"] = std::vector<std::int64_t>{-1};
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected;
        for (std::int64_t r = 0; r < rows; ++r) {
            double acc = type == "ReduceMax" ? -INFINITY : 0.0;
            for (std::int64_t i = 0; i < length; ++i) {
                const double v = in[static_cast<std::size_t>(r * length + i)];
                acc = type == "ReduceMax" ? std::max(acc, v) : acc + v;
            }
            expected.push_back(type == "ReduceMean" ? acc / static_cast<double>(length) : acc);
        }
        expectNear(h.read(y), roundedTo(dtype, expected), 2e-3, dtype == DataType::Fp16 ? 4e-3 : 1e-5,
                   type + " of " + std::to_string(length) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorReduceLongRows, RowsLongerThanUbStreamThroughChunks) {
    checkLongRows("ReduceSum", 2, 50000, DataType::Fp32);
    checkLongRows("ReduceMax", 1, 30001, DataType::Fp32);
    checkLongRows("ReduceMean", 1, 40003, DataType::Fp16);
}

TEST(VectorReduceLongRows, LoadsEveryByteOfTheRowOnce) {
    const ChipConfig chip = ascend910B1();
    TensorInfo x, y;
    x.shape = {4, 151936};
    x.dtype = y.dtype = DataType::Fp32;
    y.shape = {4};
    auto op = makeOp("ReduceSum", {x}, {y});
    op.attrs["axes"] = std::vector<std::int64_t>{1};
    op.blockDim = 1;
    const auto kernels = KernelRegistry::instance().lower(op, chip);
    ASSERT_EQ(kernels.size(), 1u);
    std::uint64_t loaded = 0, stores = 0;
    auto stream = kernels[0].program({0, CoreKind::Vector, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk)
            if (const auto* m = std::get_if<DataMove>(&instruction.operands)) {
                if (m->src == MemSpace::GM) loaded += m->totalBytes();
                stores += m->dst == MemSpace::GM;
            }
        chunk.clear();
    }
    EXPECT_EQ(loaded, 4u * 151936u * 4u);
    EXPECT_EQ(stores, 4u);  // one value per row
}

}  // namespace
}  // namespace ascendsim::test
