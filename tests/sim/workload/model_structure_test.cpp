// The training, BERT and Llama workloads have the structure of the real models.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::sourcePath;

std::size_t countType(const Workload& w, const std::string& type) {
    return static_cast<std::size_t>(std::count_if(
        w.ops.begin(), w.ops.end(), [&](const WorkloadOp& op) { return op.type == type; }));
}

const WorkloadOp& op(const Workload& w, const std::string& name) {
    const WorkloadOp* found = w.findOp(name);
    if (!found) throw std::runtime_error("no op " + name);
    return *found;
}

TEST(ResNet50Train, HasForwardBackwardAndOneMomentumUpdatePerParameter) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50_train.yaml"));
    EXPECT_EQ(countType(w, "Conv2D"), 53u);
    EXPECT_EQ(countType(w, "Conv2DBackpropFilter"), 53u);
    EXPECT_EQ(countType(w, "Conv2DBackpropInput"), 52u);  // the stem needs no input gradient
    EXPECT_EQ(countType(w, "BNTrainingReduce"), 53u);
    EXPECT_EQ(countType(w, "BNTrainingUpdateGrad"), 53u);
    EXPECT_EQ(countType(w, "ReluGrad"), 49u);
    EXPECT_EQ(countType(w, "MaxPoolGrad"), 1u);
    EXPECT_EQ(countType(w, "SoftmaxCrossEntropyWithLogits"), 1u);
    EXPECT_EQ(countType(w, "ApplyMomentum"), 161u);  // 53 convs + 2x53 BN + fc weight and bias
}

TEST(ResNet50Train, PhasesRunForwardThenBackwardThenOptimizer) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50_train.yaml"));
    auto firstOf = [&](OpPhase p) {
        return std::find_if(w.ops.begin(), w.ops.end(),
                            [&](const WorkloadOp& o) { return o.framework.phase == p; }) -
               w.ops.begin();
    };
    auto lastOf = [&](OpPhase p) {
        auto it = std::find_if(w.ops.rbegin(), w.ops.rend(),
                               [&](const WorkloadOp& o) { return o.framework.phase == p; });
        return w.ops.rend() - it - 1;
    };
    EXPECT_LT(lastOf(OpPhase::Forward), firstOf(OpPhase::Backward));
    EXPECT_LT(lastOf(OpPhase::Backward), firstOf(OpPhase::Optimizer));
    EXPECT_EQ(w.ops.back().framework.phase, OpPhase::Optimizer);
}

TEST(ResNet50Train, BackwardOpsCarryTheirForwardOpsSequenceNumber) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50_train.yaml"));
    const WorkloadOp& forward = op(w, "layer3.4.conv2");
    const WorkloadOp& backward = op(w, "layer3.4.conv2.backprop_filter");
    EXPECT_GE(forward.framework.sequenceNumber, 0);
    EXPECT_EQ(backward.framework.phase, OpPhase::Backward);
    EXPECT_EQ(backward.framework.forwardOp, "layer3.4.conv2");
    EXPECT_EQ(backward.framework.sequenceNumber, forward.framework.sequenceNumber);
    EXPECT_EQ(op(w, "layer1.0.conv1.weight.apply_momentum").framework.sequenceNumber, -1);
    // Backward of layer4 runs before layer1, last bottleneck first.
    EXPECT_LT(w.findOp("layer4.2.relu3.grad") - &w.ops[0],
              w.findOp("layer4.0.relu3.grad") - &w.ops[0]);
    EXPECT_LT(w.findOp("layer4.0.relu3.grad") - &w.ops[0],
              w.findOp("layer1.2.relu3.grad") - &w.ops[0]);
}

TEST(ResNet50Train, MomentumUpdatesWriteTheWeightsInPlace) {
    Workload w = loadWorkload(sourcePath("workloads/resnet50_train.yaml"));
    const WorkloadOp& update = op(w, "layer2.0.downsample.0.weight.apply_momentum");
    EXPECT_EQ(update.inputs[0], "layer2.0.downsample.0.weight");
    EXPECT_EQ(update.outputs[0], "layer2.0.downsample.0.weight");
    EXPECT_EQ(update.inputs[3], "layer2.0.downsample.0.weight_grad");
    EXPECT_EQ(w.findTensor("layer2.0.downsample.0.weight_grad")->info.dtype, DataType::Fp32);
}

TEST(BertBase, TwelveLayersOfAttentionAndFeedForward) {
    Workload w = loadWorkload(sourcePath("workloads/bert_base.yaml"));
    EXPECT_EQ(countType(w, "GatherV2"), 3u);
    EXPECT_EQ(countType(w, "SoftmaxV2"), 12u);
    EXPECT_EQ(countType(w, "BatchMatMul"), 24u);
    EXPECT_EQ(countType(w, "MatMul"), 72u);
    EXPECT_EQ(countType(w, "LayerNorm"), 25u);
    EXPECT_EQ(countType(w, "Gelu"), 12u);
    EXPECT_EQ(w.findTensor("encoder.layer.0.scores")->info.shape,
              (std::vector<std::int64_t>{8, 12, 128, 128}));
}

TEST(BertBase, SeqLenParameterResizesAttention) {
    Workload w = loadWorkload(sourcePath("workloads/bert_base.yaml"),
                              WorkloadOverrides{{"seq_len=384", "batch=2"}});
    EXPECT_EQ(w.findTensor("encoder.layer.11.probs")->info.shape,
              (std::vector<std::int64_t>{2, 12, 384, 384}));
    EXPECT_EQ(w.findTensor("encoder.layer.11.out")->info.shape,
              (std::vector<std::int64_t>{768, 768}));
}

TEST(LlamaDecoder, PrefillUsesFlashAttentionAndDecodeUsesTheKvCache) {
    Workload w = loadWorkload(sourcePath("workloads/llama_decoder.yaml"));
    EXPECT_EQ(countType(w, "FlashAttentionScore"), 4u);
    EXPECT_EQ(countType(w, "IncreFlashAttention"), 16u);  // 4 decode steps x 4 layers
    EXPECT_EQ(countType(w, "RmsNorm"), (4u + 4u * 4u) * 2u + 5u);
    const WorkloadOp& decode = op(w, "decode.2.layers.1.self_attn.attention");
    EXPECT_EQ(std::get<std::int64_t>(decode.attrs.at("kv_len")), 128 + 2 + 1);
    EXPECT_EQ(decode.inputs[1], "model.layers.1.k_cache");
    // Every layer writes its new K and V rows into the cache: prefill and each decode step.
    EXPECT_EQ(countType(w, "ScatterUpdate"), 2u * 4u * (1u + 4u));
    const WorkloadOp& write = op(w, "decode.2.layers.1.self_attn.k_cache_update");
    EXPECT_EQ(write.outputs[0], "model.layers.1.k_cache");
    EXPECT_EQ(write.inputs[1], "decode.2.positions");
    EXPECT_EQ(w.findTensor("prefill.positions")->info.shape, (std::vector<std::int64_t>{128}));
    EXPECT_EQ(w.findTensor("model.layers.1.k_cache")->info.shape,
              (std::vector<std::int64_t>{1, 32, 132, 128}));
    EXPECT_EQ(w.findTensor("prefill.layers.0.mlp_out")->info.shape,
              (std::vector<std::int64_t>{128, 4096}));
    EXPECT_EQ(w.findTensor("prefill.layers.0.gate")->info.shape,
              (std::vector<std::int64_t>{128, 11008}));
}

TEST(LlamaDecoder, LayersAndLengthsAreParameters) {
    Workload w = loadWorkload(sourcePath("workloads/llama_decoder.yaml"),
                              WorkloadOverrides{{"layers=2", "prefill_len=64", "decode_steps=3"}});
    EXPECT_EQ(countType(w, "FlashAttentionScore"), 2u);
    EXPECT_EQ(countType(w, "IncreFlashAttention"), 6u);
    EXPECT_EQ(w.findTensor("prefill.layers.1.q_rot")->info.shape,
              (std::vector<std::int64_t>{1, 32, 64, 128}));
    EXPECT_EQ(
        std::get<std::int64_t>(op(w, "decode.2.layers.1.self_attn.attention").attrs.at("kv_len")),
        67);
}

}  // namespace
}  // namespace ascendsim
