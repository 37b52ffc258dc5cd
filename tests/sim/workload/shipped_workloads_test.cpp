// Every shipped workload loads and validates, with its default parameters and small batches, and
// has the op structure of the real model.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/workload/tensor_text.h"
#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::sourcePath;

constexpr std::uint64_t kDevice64GiB = 64ULL << 30;

std::size_t countType(const Workload& w, const std::string& type) {
    return static_cast<std::size_t>(std::count_if(
        w.ops.begin(), w.ops.end(), [&](const WorkloadOp& op) { return op.type == type; }));
}

std::vector<std::int64_t> shapeOf(const Workload& w, const std::string& tensor) {
    const WorkloadTensor* t = w.findTensor(tensor);
    EXPECT_NE(t, nullptr) << tensor;
    return t ? t->info.shape : std::vector<std::int64_t>{};
}

class ShippedWorkload : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedWorkload, LoadsAndValidatesWithDefaults) {
    Workload w = loadWorkload(sourcePath(GetParam()));
    EXPECT_FALSE(w.ops.empty());
    EXPECT_NO_THROW(validateWorkload(w, kDevice64GiB));
}

class BatchedWorkload : public ::testing::TestWithParam<std::string> {};

TEST_P(BatchedWorkload, LoadsAndValidatesWithBatchOneAndTwo) {
    for (const char* batch : {"batch=1", "batch=2"}) {
        Workload w = loadWorkload(sourcePath(GetParam()), WorkloadOverrides{{batch}});
        EXPECT_NO_THROW(validateWorkload(w, kDevice64GiB)) << batch;
    }
}

TEST_P(ShippedWorkload, EveryOpBecomesAnOpInstanceWithResolvedTensors) {
    Workload w = loadWorkload(sourcePath(GetParam()));
    for (const auto& op : w.ops) {
        OpInstance instance = makeOpInstance(w, op);
        ASSERT_EQ(instance.inputs.size(), op.inputs.size());
        for (const auto& t : instance.outputs) EXPECT_GT(byteSizeOf(t), 0u) << op.name;
    }
}

std::string fileStem(const ::testing::TestParamInfo<std::string>& param) {
    std::string name = param.param.substr(param.param.rfind('/') + 1);
    return name.substr(0, name.find('.'));
}

INSTANTIATE_TEST_SUITE_P(
    All, BatchedWorkload,
    ::testing::Values("workloads/resnet50.yaml", "workloads/resnet50_train.yaml",
                      "workloads/bert_base.yaml", "workloads/llama_decoder.yaml",
                      "workloads/unit/conv2d.yaml", "workloads/unit/elementwise_chain.yaml",
                      "workloads/unit/aicpu_topk.yaml"),
    fileStem);

INSTANTIATE_TEST_SUITE_P(
    All, ShippedWorkload,
    ::testing::Values("workloads/resnet50.yaml", "workloads/resnet50_train.yaml",
                      "workloads/bert_base.yaml", "workloads/llama_decoder.yaml",
                      "workloads/unit/matmul.yaml", "workloads/unit/conv2d.yaml",
                      "workloads/unit/elementwise_chain.yaml", "workloads/unit/aicpu_topk.yaml",
                      "workloads/qwen3_0_6b_train.yaml"),
    fileStem);

// Per step, as one pipeline stage of the real Qwen3-0.6B sample runs them (ef63bc64 rank 0:
// 28 attention forwards and backwards, 4 RmsNormGrad and 2 RoPE grads per layer pass).
TEST(ShippedWorkloads, Qwen3TrainHasTheSampleLayerStructure) {
    Workload w = loadWorkload(sourcePath("workloads/qwen3_0_6b_train.yaml"));
    EXPECT_EQ(countType(w, "FlashAttentionScore"), 28u);
    EXPECT_EQ(countType(w, "FlashAttentionScoreGrad"), 28u);
    EXPECT_EQ(countType(w, "RmsNormGrad"), 28u * 4 + 1);
    EXPECT_EQ(countType(w, "RotaryPositionEmbeddingGrad"), 56u);
    EXPECT_EQ(countType(w, "SwiGluGrad"), 28u);
    EXPECT_EQ(countType(w, "ApplyAdamW"), 28u * 8 + 2);
    EXPECT_EQ(shapeOf(w, "layers.0.qkv"), (std::vector<std::int64_t>{4096, 4096}));
    EXPECT_EQ(shapeOf(w, "layers.27.dk"), (std::vector<std::int64_t>{1, 8, 4096, 128}));
}

TEST(ResNet50, Has53ConvolutionsIncludingFourDownsampleProjections) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50.yaml"));
    EXPECT_EQ(countType(w, "Conv2D"), 53u);
    EXPECT_EQ(countType(w, "BNInfer"), 53u);
    EXPECT_EQ(countType(w, "Relu"), 49u);  // stem + 3 per bottleneck
    EXPECT_EQ(countType(w, "Add"), 16u);
    EXPECT_EQ(countType(w, "MaxPoolV3"), 1u);
    EXPECT_EQ(countType(w, "AdaptiveAvgPool2d"), 1u);
    EXPECT_EQ(countType(w, "MatMul"), 1u);
    EXPECT_NE(w.findOp("layer1.0.downsample.0"), nullptr);
    EXPECT_NE(w.findOp("layer4.0.downsample.0"), nullptr);
    EXPECT_EQ(w.findOp("layer1.1.downsample.0"), nullptr);
}

TEST(ResNet50, ShapesFollowTheBatchParameter) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50.yaml"));
    EXPECT_EQ(shapeOf(w, "layer1.0.out"), (std::vector<std::int64_t>{32, 256, 56, 56}));
    EXPECT_EQ(shapeOf(w, "layer4.2.out"), (std::vector<std::int64_t>{32, 2048, 7, 7}));
    EXPECT_EQ(shapeOf(w, "logits"), (std::vector<std::int64_t>{32, 1000}));
    Workload small =
        loadWorkload(sourcePath("workloads/resnet50.yaml"), WorkloadOverrides{{"batch=8"}});
    EXPECT_EQ(shapeOf(small, "layer2.0.conv2_out"), (std::vector<std::int64_t>{8, 128, 28, 28}));
    EXPECT_EQ(shapeOf(small, "logits"), (std::vector<std::int64_t>{8, 1000}));
    EXPECT_EQ(small.intParameter("batch"), 8);
}

TEST(ResNet50, CarriesTheFrameworkViewAndProfilerBlock) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50.yaml"));
    const WorkloadOp* conv = w.findOp("layer2.1.conv2");
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv->framework.atenName, "aten::conv2d");
    EXPECT_EQ(conv->framework.moduleHierarchy,
              (std::vector<std::string>{"ResNet", "layer2", "1", "conv2"}));
    ASSERT_GE(conv->framework.callStack.size(), 5u);
    EXPECT_NE(conv->framework.callStack.front().find("conv.py("), std::string::npos);
    EXPECT_NE(conv->framework.callStack.back().find("<module>"), std::string::npos);
    EXPECT_EQ(w.ops.front().framework.sequenceNumber, 0);
    EXPECT_EQ(w.ops.back().framework.sequenceNumber, static_cast<std::int64_t>(w.ops.size()) - 1);
    EXPECT_EQ(w.steps, 5u);
    ASSERT_TRUE(w.profiler.schedule.has_value());
    EXPECT_EQ(w.profiler.schedule->active, 2u);
    EXPECT_TRUE(w.profiler.recordShapes);
    EXPECT_TRUE(w.profiler.profileMemory);
    EXPECT_TRUE(w.profiler.withStack);
    EXPECT_EQ(w.profiler.level, ProfilerLevel::Level0);
}

TEST(ResNet50, MemoryCheckFailsOnATinyDevice) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50.yaml"));
    EXPECT_THROW(validateWorkload(w, 64ULL << 20), WorkloadError);
}

}  // namespace
}  // namespace ascendsim
