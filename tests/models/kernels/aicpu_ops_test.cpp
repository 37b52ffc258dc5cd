// AI CPU ops lower to AI_CPU tasks whose cycles follow the cost model of aicpu_cost.h.
#include <gtest/gtest.h>

#include <cmath>

#include "models/kernels/aicpu/aicpu_cost.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

std::uint64_t cycles(const OpInstance& op) {
    const ChipConfig chip = ascend910B1();
    const auto kernels = KernelRegistry::instance().lower(op, chip);
    EXPECT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::AiCpu);
    return kernels[0].aiCpuCycles;
}

TensorInfo tensorOf(std::vector<std::int64_t> shape, DataType dtype = DataType::Fp32) {
    TensorInfo t;
    t.shape = std::move(shape);
    t.dtype = dtype;
    return t;
}

OpInstance uniqueOp(std::int64_t n) {
    return makeOp("Unique", {tensorOf({n})}, {tensorOf({n}), tensorOf({n}, DataType::Int32)});
}

TEST(AiCpuOps, UniqueCyclesGrowAsNLogN) {
    const double setup = kAiCpuKernelSetupCycles;
    const double small = static_cast<double>(cycles(uniqueOp(1 << 12))) - setup;
    const double large = static_cast<double>(cycles(uniqueOp(1 << 16))) - setup;
    // n·log2 n dominates: 16× the elements with 16/12 the depth.
    const double modelRatio = (65536.0 * 16 * kAiCpuCyclesPerCompare + 4 * 65536.0 * kAiCpuCyclesPerElement) /
                              (4096.0 * 12 * kAiCpuCyclesPerCompare + 4 * 4096.0 * kAiCpuCyclesPerElement);
    EXPECT_NEAR(large / small, modelRatio, 0.01);
    EXPECT_GT(large / small, 16.0);  // super-linear
}

TEST(AiCpuOps, TopKCyclesScaleWithRowsAndLogK) {
    auto topk = [](std::int64_t rows, std::int64_t length, std::int64_t k) {
        auto op = makeOp("TopK", {tensorOf({rows, length})}, {tensorOf({rows, k}), tensorOf({rows, k}, DataType::Int32)});
        op.attrs["k"] = k;
        return static_cast<double>(cycles(op)) - kAiCpuKernelSetupCycles;
    };
    EXPECT_NEAR(topk(8, 4096, 16) / topk(1, 4096, 16), 8.0, 1e-6);
    EXPECT_GT(topk(1, 4096, 256), topk(1, 4096, 16) * 1.5);  // log2 256 / log2 16 = 2 on the heap part
}

TEST(AiCpuOps, NonMaxSuppressionIsQuadraticInKeptBoxes) {
    auto nms = [](std::int64_t boxes, std::int64_t maxOutput) {
        auto op = makeOp("NonMaxSuppression", {tensorOf({boxes, 4}), tensorOf({boxes})},
                         {tensorOf({maxOutput}, DataType::Int32)});
        op.attrs["max_output_size"] = maxOutput;
        return static_cast<double>(cycles(op)) - kAiCpuKernelSetupCycles;
    };
    EXPECT_GT(nms(2000, 2000) / nms(1000, 1000), 3.5);  // IoU pairs quadruple
    EXPECT_LT(nms(2000, 100) / nms(1000, 100), 2.5);    // capped output: near linear
}

TEST(AiCpuOps, MissingRequiredAttributesAreLoweringErrors) {
    auto op = makeOp("TopK", {tensorOf({4, 10})}, {tensorOf({4, 3}), tensorOf({4, 3}, DataType::Int32)});
    EXPECT_THROW(cycles(op), LoweringError);
    op.attrs["k"] = std::int64_t{11};
    EXPECT_THROW(cycles(op), LoweringError);
    auto nms = makeOp("NonMaxSuppression", {tensorOf({10, 4}), tensorOf({10})}, {tensorOf({5}, DataType::Int32)});
    EXPECT_THROW(cycles(nms), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
