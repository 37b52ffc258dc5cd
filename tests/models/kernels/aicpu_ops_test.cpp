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

// StatelessDropOutGenMask: Philox4x32-10 (100 instructions per 4 words) plus 6 per element, at
// 2 instructions per cycle, split over the AI CPU cores in shards of at least 4096 elements.
TEST(AiCpuOps, DropOutGenMaskIsPhiloxPerElementOverTheAiCpuShards) {
    auto genMask = [](std::int64_t maskBytes, std::uint32_t cores) {
        ChipConfig chip = ascend910B1();
        chip.aiCpu.count = cores;
        const auto op = makeOp("StatelessDropOutGenMask", {}, {tensorOf({maskBytes}, DataType::Uint8)});
        const auto kernels = KernelRegistry::instance().lower(op, chip);
        EXPECT_EQ(kernels.at(0).type, TaskType::AiCpu);
        return static_cast<double>(kernels.at(0).aiCpuCycles) - kAiCpuKernelSetupCycles;
    };
    const double perElement = (100.0 / 4.0 + 6.0) / 2.0;
    // The 910A sample's [32, 9216] mask: 36864 bytes = 294912 elements over 16 cores.
    EXPECT_NEAR(genMask(36864, 16), 294912.0 / 16 * perElement, 1.0);
    EXPECT_NEAR(genMask(36864, 4), 294912.0 / 4 * perElement, 1.0);
    // 16 bytes = 128 elements: below one shard's 4096, one core whatever the count.
    EXPECT_NEAR(genMask(16, 16), 128.0 * perElement, 1.0);
    EXPECT_NEAR(genMask(1024, 16), 8192.0 / 2 * perElement, 1.0);  // two shards
}

TEST(AiCpuOps, DropOutGenMaskRefusesAMaskThatIsNoByteTensor) {
    const ChipConfig chip = ascend910B1();
    EXPECT_THROW(KernelRegistry::instance().lower(makeOp("StatelessDropOutGenMask", {}, {tensorOf({64})}), chip),
                 LoweringError);
    EXPECT_THROW(KernelRegistry::instance().lower(makeOp("StatelessDropOutGenMask", {}, {}), chip), LoweringError);
    EXPECT_THROW(KernelRegistry::instance().lower(makeOp("StatelessDropOutGenMask", {}, {tensorOf({0}, DataType::Uint8)}), chip),
                 LoweringError);
}

}  // namespace
}  // namespace ascendsim::test
