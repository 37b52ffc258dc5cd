// Full-size shapes of ResNet-50 and a BERT/LLaMA layer lower without error, use the vector cores,
// and generate their programs (no functional run: these are too big for it). Generation speed is
// measured by the benchmarks (docs/performance.md), not asserted here.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct ShapeCase {
    OpInstance op;
};

TEST(VectorWorkloadShapes, LargeOpsLowerOntoTheVectorCores) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // GM is not touched: only addresses matter
    auto t = [&](std::vector<std::int64_t> shape, DataType dtype = DataType::Fp16) { return h.tensor("t", std::move(shape), dtype); };
    const std::vector<std::int64_t> act = {32, 64, 112, 112}, pooled = {32, 64, 56, 56};
    std::vector<OpInstance> ops;
    ops.push_back(makeOp("Relu", {t(act)}, {t(act)}));
    ops.push_back(makeOp("BNTrainingReduce", {t(act)}, {t({64}, DataType::Fp32), t({64}, DataType::Fp32)}));
    ops.push_back(makeOp("BNTrainingUpdate", {t(act), t({64}, DataType::Fp32), t({64}, DataType::Fp32), t({64}, DataType::Fp32),
                                              t({64}, DataType::Fp32)},
                         {t(act)}));
    ops.push_back(makeOp("MaxPoolV3", {t(act)}, {t(pooled)}));
    ops.back().attrs = {{"ksize", std::vector<std::int64_t>{3, 3}}, {"strides", std::vector<std::int64_t>{2, 2}},
                        {"pads", std::vector<std::int64_t>{1, 1, 1, 1}}};
    ops.push_back(makeOp("LayerNorm", {t({32 * 512, 1024}), t({1024}), t({1024})}, {t({32 * 512, 1024})}));
    ops.push_back(makeOp("SoftmaxV2", {t({32, 16, 512, 512})}, {t({32, 16, 512, 512})}));
    ops.push_back(makeOp("RmsNorm", {t({8, 2048, 4096}), t({4096})}, {t({8, 2048, 4096})}));
    ops.push_back(makeOp("RotaryMul", {t({8, 32, 2048, 128}), t({2048, 128}), t({2048, 128})}, {t({8, 32, 2048, 128})}));
    ops.push_back(makeOp("Add", {t({8, 2048, 4096}), t({4096})}, {t({8, 2048, 4096})}));
    std::uint64_t instructions = 0;
    for (const auto& op : ops) {
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u) << op.type;
        EXPECT_EQ(kernels[0].type, TaskType::AiVectorCore) << op.type;
        EXPECT_GT(kernels[0].blockDim, 1u) << op.type;
        EXPECT_LE(kernels[0].blockDim, chip.vectorCoreCount) << op.type;
        const auto counts = countProgram(kernels[0], {0, CoreKind::Vector, 0});
        EXPECT_GT(counts.vectors, 0u) << op.type;
        instructions += counts.total;
    }
    EXPECT_GT(instructions, 0u);
}

}  // namespace
}  // namespace ascendsim::test
