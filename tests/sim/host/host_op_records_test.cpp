// The torch op records the host model produces: nesting, order, threads, sequence numbers.
#include <gtest/gtest.h>

#include <map>

#include "sim/host/fake_device_queue.h"
#include "sim/host/host_model.h"
#include "sim/host/op_call_tree.h"

namespace ascendsim {
namespace {

using testing::FakeDeviceQueue;
using testing::trainingStep;

RunRecord runSteps(const ProfilerConfig& config, std::vector<HostStep> steps,
                   FakeDeviceQueue& device, HostModelOptions options = {}) {
    options.profiler = config;
    options.processId = 4000;
    HostModel model(options, device);
    for (const auto& step : steps) model.runStep(step);
    RunRecord record;
    model.finish(record);
    return record;
}

std::vector<std::int64_t> childrenOf(const RunRecord& r, std::int64_t parent) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < r.hostOps.size(); ++i) {
        if (r.hostOps[i].parent == parent) out.push_back(static_cast<std::int64_t>(i));
    }
    return out;
}

TEST(HostOpRecords, ChildrenLieInsideTheirParentsOnTheSameThread) {
    FakeDeviceQueue device(10'000);
    const RunRecord r = runSteps(ProfilerConfig{}, {trainingStep(1), trainingStep(2)}, device);
    ASSERT_GT(r.hostOps.size(), 20u);
    for (const auto& op : r.hostOps) {
        EXPECT_LE(op.startNs, op.endNs) << op.name;
        if (op.parent < 0) continue;
        const auto& parent = r.hostOps[static_cast<std::size_t>(op.parent)];
        EXPECT_LE(parent.startNs, op.startNs) << op.name << " in " << parent.name;
        EXPECT_GE(parent.endNs, op.endNs) << op.name << " in " << parent.name;
        EXPECT_EQ(parent.threadId, op.threadId) << op.name;
    }
}

TEST(HostOpRecords, SiblingsOnOneThreadDoNotOverlapAndRecordsAreInStartOrder) {
    FakeDeviceQueue device(10'000);
    const RunRecord r = runSteps(ProfilerConfig{}, {trainingStep(1)}, device);
    for (std::size_t i = 1; i < r.hostOps.size(); ++i) {
        EXPECT_LE(r.hostOps[i - 1].startNs, r.hostOps[i].startNs) << i;
    }
    std::map<std::pair<std::uint32_t, std::int64_t>, std::uint64_t> lastEnd;  // (thread, parent)
    for (const auto& op : r.hostOps) {
        auto key = std::make_pair(op.threadId, op.parent);
        auto it = lastEnd.find(key);
        if (it != lastEnd.end()) {
            // Strictly after: a sibling that starts where the previous one ends nests under it in
            // msprof-analyze's compare tree (docs/host-model.md "Gaps between host calls").
            EXPECT_GT(op.startNs, it->second) << op.name;
        }
        lastEnd[key] = op.endNs;
    }
}

TEST(HostOpRecords, Conv2dNestsConvolutionAndLaunchesFromTheInnermostRecord) {
    FakeDeviceQueue device(10'000);
    const RunRecord r = runSteps(ProfilerConfig{}, {trainingStep(1)}, device);
    ASSERT_EQ(r.hostOps[0].name, "ProfilerStep#1");
    const auto top = childrenOf(r, 0);
    ASSERT_FALSE(top.empty());
    const auto& conv2d = r.hostOps[static_cast<std::size_t>(top[0])];
    EXPECT_EQ(conv2d.name, "aten::conv2d");
    const auto level1 = childrenOf(r, top[0]);
    ASSERT_EQ(level1.size(), 1u);
    EXPECT_EQ(r.hostOps[static_cast<std::size_t>(level1[0])].name, "aten::convolution");
    const auto level2 = childrenOf(r, level1[0]);
    ASSERT_EQ(level2.size(), 1u);
    EXPECT_EQ(r.hostOps[static_cast<std::size_t>(level2[0])].name, "aten::_convolution");
    const auto leaves = childrenOf(r, level2[0]);
    ASSERT_EQ(leaves.size(), 2u);
    EXPECT_EQ(r.hostOps[static_cast<std::size_t>(leaves[0])].name, "empty_tensor");
    EXPECT_EQ(r.hostOps[static_cast<std::size_t>(leaves[1])].name, "aclnnConvolution");
    // The kernel is attributed to the NPU op record.
    ASSERT_FALSE(device.tasks.empty());
    EXPECT_EQ(device.tasks[0].launch.hostOpIndex, leaves[1]);
}

TEST(HostOpRecords, CompositeOpsPeekAutogradOpsTakeAndBackwardNodesLinkBack) {
    FakeDeviceQueue device(10'000);
    HostModelOptions options;
    options.firstSequenceNumber = 1350;
    const RunRecord r = runSteps(ProfilerConfig{}, {trainingStep(1)}, device, options);
    std::map<std::string, const HostOpRecord*> byName;
    for (const auto& op : r.hostOps) byName.emplace(op.name, &op);
    EXPECT_EQ(byName.at("aten::conv2d")->sequenceNumber, 1350);
    EXPECT_EQ(byName.at("aten::convolution")->sequenceNumber, 1350);
    EXPECT_EQ(byName.at("aten::_convolution")->sequenceNumber, -1);
    EXPECT_EQ(byName.at("aten::relu_")->sequenceNumber, 1351);
    EXPECT_EQ(byName.at("aten::linear")->sequenceNumber, 1352);  // peeks t's number
    EXPECT_EQ(byName.at("aten::t")->sequenceNumber, 1352);
    EXPECT_EQ(byName.at("aten::addmm")->sequenceNumber, 1353);

    const HostOpRecord* conv = byName.at("ConvolutionBackward0");
    EXPECT_EQ(conv->sequenceNumber, 1350);
    EXPECT_EQ(conv->forwardThreadId, 1u);
    EXPECT_EQ(byName.at("AddmmBackward0")->sequenceNumber, 1353);
    EXPECT_EQ(byName.at("aten::convolution")->forwardThreadId, 0u);
    // Backward runs on the autograd thread, wrapped in the engine's evaluate_function record.
    EXPECT_NE(conv->threadId, byName.at("aten::convolution")->threadId);
    const auto& wrapper = r.hostOps[static_cast<std::size_t>(conv->parent)];
    EXPECT_EQ(wrapper.name, "autograd::engine::evaluate_function: ConvolutionBackward0");
    EXPECT_EQ(wrapper.sequenceNumber, -1);
    EXPECT_EQ(wrapper.parent, -1);
}

// Workloads name backward ops by the native op (aten::convolution_backward); the records show
// the autograd node PyTorch creates for the forward op, as in the real trace:
// evaluate_function: ConvolutionBackward0 > ConvolutionBackward0 (seq, Fwd thread id 1) >
// aten::convolution_backward (seq -1).
TEST(HostOpRecords, BackwardNamedByItsNativeOpGetsTheForwardOpsAutogradNode) {
    FakeDeviceQueue device(10'000);
    HostStep step;
    step.ops.push_back(testing::forwardOp("aten::conv2d", "aclnnConvolution", 1));
    step.ops.push_back(testing::forwardOp("aten::max_pool2d", "aclnnMaxPool2dWithMask", 1));
    step.ops.push_back(testing::backwardOp("aten::max_pool2d_with_indices_backward", 1,
                                           "aclnnMaxPool2dWithMaskBackward"));
    step.ops.push_back(
        testing::backwardOp("aten::convolution_backward", 0, "aclnnConvolutionBackward"));
    const RunRecord r = runSteps(ProfilerConfig{}, {step}, device);
    std::map<std::string, const HostOpRecord*> byName;
    for (const auto& op : r.hostOps) byName.emplace(op.name, &op);
    ASSERT_TRUE(byName.contains("ConvolutionBackward0"));
    ASSERT_TRUE(byName.contains("MaxPool2DWithIndicesBackward0"));
    const HostOpRecord* node = byName.at("ConvolutionBackward0");
    EXPECT_EQ(node->sequenceNumber, byName.at("aten::convolution")->sequenceNumber);
    EXPECT_EQ(node->forwardThreadId, 1u);
    const HostOpRecord* native = byName.at("aten::convolution_backward");
    EXPECT_EQ(native->sequenceNumber, -1);
    EXPECT_EQ(native->forwardThreadId, 0u);
    EXPECT_EQ(&r.hostOps[static_cast<std::size_t>(native->parent)], node);
    EXPECT_EQ(r.hostOps[static_cast<std::size_t>(node->parent)].name,
              "autograd::engine::evaluate_function: ConvolutionBackward0");
}

TEST(HostOpRecords, AutogradNodeNamesFollowPyTorchsCodegen) {
    EXPECT_EQ(autogradNodeName(testing::forwardOp("aten::batch_norm", "aclnnBatchNorm", 1)),
              "NativeBatchNormBackward0");
    EXPECT_EQ(autogradNodeName(testing::forwardOp("aten::relu_", "aclnnInplaceRelu", 1)),
              "ReluBackward0");
    EXPECT_EQ(autogradNodeName(testing::forwardOp("aten::to", "aclnnCast", 1)), "ToCopyBackward0");
    EXPECT_EQ(autogradNodeName(
                  testing::forwardOp("aten::adaptive_avg_pool2d", "aclnnAdaptiveAvgPool2d", 1)),
              "AdaptiveAvgPool2DBackward0");
    EXPECT_EQ(autogradNodeName(testing::forwardOp("aten::linear", "aclnnAddmm", 1)),
              "AddmmBackward0");
}

TEST(HostOpRecords, SequenceNumbersContinueAcrossSteps) {
    FakeDeviceQueue device(10'000);
    const RunRecord r = runSteps(ProfilerConfig{}, {trainingStep(1), trainingStep(2)}, device);
    std::vector<std::int64_t> convolutionSeq;
    for (const auto& op : r.hostOps) {
        if (op.name == "aten::convolution") convolutionSeq.push_back(op.sequenceNumber);
    }
    ASSERT_EQ(convolutionSeq.size(), 2u);
    EXPECT_EQ(convolutionSeq[1] - convolutionSeq[0], 4);  // convolution, relu_, t, addmm
}

TEST(HostOpRecords, ProfilerStepWrapsEveryMainThreadOpAndStepsAreRecorded) {
    FakeDeviceQueue device(10'000);
    const RunRecord r = runSteps(ProfilerConfig{}, {trainingStep(7), trainingStep(8)}, device);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_EQ(r.steps[0].stepNumber, 7u);
    EXPECT_LE(r.steps[0].endNs, r.steps[1].startNs);
    for (const auto& op : r.hostOps) {
        if (op.threadId != r.mainThreadId || op.name.rfind("ProfilerStep#", 0) == 0) continue;
        const bool inStep = (op.startNs >= r.steps[0].startNs && op.endNs <= r.steps[0].endNs) ||
                            (op.startNs >= r.steps[1].startNs && op.endNs <= r.steps[1].endNs);
        EXPECT_TRUE(inStep) << op.name;
    }
}

TEST(HostOpRecords, UnknownOpIsASingleAutogradRecordAndCallPathOverridesTheFamily) {
    FakeDeviceQueue device(10'000);
    HostStep step;
    step.ops.push_back(testing::forwardOp("aten::gelu", "aclnnGelu", 1, 0));
    auto custom = testing::forwardOp("aten::conv2d", "aclnnConvolution", 1, 0);
    custom.callPath = {"aten::convolution", "aten::_convolution", "npu::npu_conv2d"};
    step.ops.push_back(custom);
    const RunRecord r = runSteps(ProfilerConfig{}, {step}, device);
    std::vector<std::string> names;
    for (const auto& op : r.hostOps) names.push_back(op.name);
    const std::vector<std::string> expected = {
        "ProfilerStep#0", "aten::gelu", "aclnnGelu", "aten::conv2d", "aten::convolution",
        "aten::_convolution", "npu::npu_conv2d", "aclnnConvolution", "aten::item",
        "aten::_local_scalar_dense"};
    EXPECT_EQ(names, expected);
}

TEST(HostOpRecords, OptimizerOpsAreWrappedInTheOptimizerStepRecord) {
    FakeDeviceQueue device(10'000);
    HostStep step = trainingStep(1);
    step.optimizerName = "SGD";
    for (int i = 0; i < 2; ++i) {
        auto update = testing::forwardOp("aten::_foreach_add_", "aclnnForeachAddListV2", 1, 0);
        update.phase = OpPhase::Optimizer;
        step.ops.push_back(update);
    }
    const RunRecord r = runSteps(ProfilerConfig{}, {step}, device);
    std::int64_t wrapper = -1;
    for (std::size_t i = 0; i < r.hostOps.size(); ++i) {
        if (r.hostOps[i].name == "Optimizer.step#SGD.step") wrapper = static_cast<std::int64_t>(i);
    }
    ASSERT_GE(wrapper, 0);
    EXPECT_EQ(r.hostOps[static_cast<std::size_t>(wrapper)].parent, 0);
    const auto updates = childrenOf(r, wrapper);
    ASSERT_EQ(updates.size(), 2u);
    for (auto u : updates) {
        EXPECT_EQ(r.hostOps[static_cast<std::size_t>(u)].name, "aten::_foreach_add_");
        EXPECT_EQ(r.hostOps[static_cast<std::size_t>(u)].sequenceNumber, -1);
    }
}

TEST(HostOpRecords, BackwardOpPointingAtALaterOrNonForwardOpIsRejected) {
    FakeDeviceQueue device(10'000);
    HostModel model(HostModelOptions{}, device);
    HostStep step;
    step.ops.push_back(testing::backwardOp("ReluBackward0", 0, "aclnnThresholdBackward"));
    EXPECT_THROW(model.runStep(step), std::invalid_argument);
    HostStep kernelsWithoutNpuOp;
    kernelsWithoutNpuOp.ops.push_back(testing::forwardOp("aten::add", "aclnnAdd", 1, 0));
    kernelsWithoutNpuOp.ops[0].npuOpName.clear();
    EXPECT_THROW(model.runStep(kernelsWithoutNpuOp), std::invalid_argument);
}

TEST(HostOpRecords, BackwardNodeWithoutForwardOpHasNoSequenceNumber) {
    FakeDeviceQueue device(10'000);
    HostStep step = trainingStep(1);
    auto accumulate = testing::backwardOp("torch::autograd::AccumulateGrad", -1, "aclnnInplaceAdd");
    accumulate.callPath = {"aten::add_"};
    step.ops.push_back(accumulate);
    const RunRecord r = runSteps(ProfilerConfig{}, {step}, device);
    for (const auto& op : r.hostOps) {
        if (op.name != "torch::autograd::AccumulateGrad") continue;
        EXPECT_EQ(op.sequenceNumber, -1);
        EXPECT_EQ(op.forwardThreadId, 1u);
        const auto kids = childrenOf(r, &op - r.hostOps.data());
        ASSERT_EQ(kids.size(), 1u);
        EXPECT_EQ(r.hostOps[static_cast<std::size_t>(kids[0])].name, "aten::add_");
        return;
    }
    FAIL() << "no AccumulateGrad record";
}

TEST(HostOpRecords, OutputFreedBeforeItExistsIsRejected) {
    FakeDeviceQueue device(10'000);
    HostModel model(HostModelOptions{}, device);
    HostStep step;
    step.ops.push_back(testing::forwardOp("aten::relu", "aclnnRelu", 1, 0));
    step.ops.push_back(testing::forwardOp("aten::add", "aclnnAdd", 1, 512, 0));
    EXPECT_THROW(model.runStep(step), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
