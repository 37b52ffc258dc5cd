// One torch-level call per torch op, however many workload ops (kernels) it is written as.
// Backward: one autograd node call per forward op, as in the real Level2 trace: evaluate_function:
// ConvolutionBackward0 > ConvolutionBackward0 (the forward op's sequence number, Input Dims of the
// incoming gradient) > aten::convolution_backward (all outputs allocated, then Conv2DBackpropInput
// and Conv2DBackpropFilter); AddmmBackward0 > aten::mm, aten::mm, aten::sum.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/host/fake_device_queue.h"
#include "sim/host/host_model.h"
#include "sim/host/op_call_tree.h"

namespace ascendsim {
namespace {

using testing::backwardOp;
using testing::forwardOp;

using testing::HostRun;

HostRun run(const HostStep& step) {
    HostModelOptions options;
    options.profiler.recordShapes = true;
    options.profiler.withFlops = true;
    options.processId = 4000;
    return testing::runHost(options, {step});
}

std::vector<const HostOpRecord*> named(const RunRecord& r, const std::string& name) {
    std::vector<const HostOpRecord*> out;
    for (const auto& op : r.hostOps)
        if (op.name == name) out.push_back(&op);
    return out;
}

std::vector<std::string> childNames(const RunRecord& r, const HostOpRecord* parent) {
    std::vector<std::string> out;
    for (const auto& op : r.hostOps)
        if (op.parent >= 0 && &r.hostOps[static_cast<std::size_t>(op.parent)] == parent)
            out.push_back(op.name);
    return out;
}

FrameworkOp gradient(const std::string& native, std::int32_t forward, const std::string& npu,
                     const std::string& kernel) {
    FrameworkOp op = backwardOp(native, forward, npu);
    op.kernels.front().kernelName = kernel;
    op.inputDims = "32,64,56,56;64,64,3,3";
    op.inputTypes = "float;float";
    op.outputs.push_back({4096, -1, false});
    return op;
}

HostStep convolutionStep(const std::string& inputGradNpuOp, const std::string& weightGradNpuOp) {
    HostStep step;
    step.stepNumber = 1;
    step.ops.push_back(forwardOp("aten::conv2d", "aclnnConvolution", 1));
    step.ops.push_back(
        gradient("aten::convolution_backward", 0, inputGradNpuOp, "Conv2DBackpropInput"));
    step.ops.push_back(
        gradient("aten::convolution_backward", 0, weightGradNpuOp, "Conv2DBackpropFilter"));
    return step;
}

TEST(AutogradCall, BothConvolutionGradientsRunInOneNodeAndOneNativeOp) {
    const HostRun r = run(convolutionStep("aclnnConvolutionBackward", "aclnnConvolutionBackward"));
    ASSERT_EQ(named(r.record, "autograd::engine::evaluate_function: ConvolutionBackward0").size(),
              1u);
    ASSERT_EQ(named(r.record, "ConvolutionBackward0").size(), 1u);
    const auto native = named(r.record, "aten::convolution_backward");
    ASSERT_EQ(native.size(), 1u);
    // Outputs first, then one aclnn call that launches both kernels.
    EXPECT_EQ(
        childNames(r.record, native[0]),
        (std::vector<std::string>{"empty_tensor", "empty_tensor", "aclnnConvolutionBackward"}));
    ASSERT_EQ(r.record.taskQueue.size(), 2u);  // the forward conv and the one backward call
    std::vector<std::string> backwardKernels;
    for (const auto& launch : r.launches)
        if (launch.queueCorrelationId == r.record.taskQueue[1].correlationId)
            backwardKernels.push_back(launch.kernelName);
    EXPECT_EQ(backwardKernels,
              (std::vector<std::string>{"Conv2DBackpropInput", "Conv2DBackpropFilter"}));
}

TEST(AutogradCall, AclopGradientsAreEnqueuedOneByOneInsideTheSharedNativeOp) {
    const HostRun r = run(convolutionStep("Conv2DBackpropInput", "Conv2DBackpropFilter"));
    const auto native = named(r.record, "aten::convolution_backward");
    ASSERT_EQ(native.size(), 1u);
    EXPECT_EQ(childNames(r.record, native[0]),
              (std::vector<std::string>{"empty_tensor", "empty_tensor", "Conv2DBackpropInput",
                                        "Conv2DBackpropFilter"}));
    EXPECT_EQ(r.record.taskQueue.size(), 3u);
}

TEST(AutogradCall, TheNodeRecordShowsTheIncomingGradientTheNativeOpAllInputs) {
    const HostRun r = run(convolutionStep("aclnnConvolutionBackward", "aclnnConvolutionBackward"));
    const HostOpRecord* node = named(r.record, "ConvolutionBackward0").at(0);
    EXPECT_EQ(node->inputDims, "32,64,56,56");
    EXPECT_EQ(node->inputTypes, "float");
    EXPECT_EQ(node->sequenceNumber, named(r.record, "aten::convolution").at(0)->sequenceNumber);
    EXPECT_EQ(named(r.record, "aten::convolution_backward").at(0)->inputDims,
              "32,64,56,56;64,64,3,3");
}

TEST(AutogradCall, OtherNativeOpsOfOneNodeGetARecordEach) {
    HostStep step;
    step.stepNumber = 1;
    step.ops.push_back(forwardOp("aten::linear", "aclnnAddmm", 1));
    step.ops.push_back(gradient("aten::mm", 0, "aclnnMatmul", "MatMul_input"));
    step.ops.push_back(gradient("aten::mm", 0, "aclnnMatmul", "MatMul_weight"));
    step.ops.push_back(gradient("aten::sum", 0, "aclnnReduceSum", "ReduceSum"));
    step.ops.back().inputDims = "32,1000";
    const HostRun r = run(step);
    const auto node = named(r.record, "AddmmBackward0");
    ASSERT_EQ(node.size(), 1u);
    EXPECT_EQ(childNames(r.record, node[0]),
              (std::vector<std::string>{"aten::mm", "aten::mm", "aten::sum"}));
    EXPECT_EQ(named(r.record, "aten::sum").at(0)->inputDims, "32,1000");  // its own inputs
    EXPECT_EQ(r.record.taskQueue.size(), 4u);
}

TEST(AutogradCall, GradientsOfDifferentForwardOpsStaySeparateCalls) {
    HostStep step;
    step.stepNumber = 1;
    step.ops.push_back(forwardOp("aten::conv2d", "aclnnConvolution", 1));
    step.ops.push_back(forwardOp("aten::conv2d", "aclnnConvolution", 1));
    step.ops.push_back(gradient("aten::convolution_backward", 1, "aclnnConvolutionBackward",
                                "Conv2DBackpropInput"));
    step.ops.push_back(gradient("aten::convolution_backward", 0, "aclnnConvolutionBackward",
                                "Conv2DBackpropFilter"));
    EXPECT_EQ(torchCallLength(step.ops, 2), 1u);
    const HostRun r = run(step);  // the record outlives the node pointers into it
    const auto nodes = named(r.record, "ConvolutionBackward0");
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_NE(nodes[0]->sequenceNumber, nodes[1]->sequenceNumber);
}

// The workload writes training batch norm as two ops (BNTrainingReduce, BNTrainingUpdate) with the
// same aten name and module: one aten::batch_norm call, one autograd number, one aclnnBatchNorm.
TEST(TorchCall, ForwardOpsOfOneModuleLaunchingDifferentKernelsAreOneTorchOp) {
    HostStep step;
    step.stepNumber = 1;
    FrameworkOp reduce = forwardOp("aten::batch_norm", "aclnnBatchNorm", 1);
    reduce.kernels.front().kernelName = "BNTrainingReduce";
    FrameworkOp update = forwardOp("aten::batch_norm", "aclnnBatchNorm", 1);
    update.kernels.front().kernelName = "BNTrainingUpdate";
    step.ops = {reduce, update,
                gradient("aten::native_batch_norm_backward", 1, "aclnnBatchNormBackward", "Grad")};
    step.ops[0].flops = 100;
    step.ops[1].flops = 20;
    EXPECT_EQ(torchCallLength(step.ops, 0), 2u);
    const HostRun r = run(step);
    EXPECT_EQ(named(r.record, "aten::batch_norm").at(0)->flops, 120);  // both kernels' work
    ASSERT_EQ(named(r.record, "aten::batch_norm").size(), 1u);
    const auto native = named(r.record, "aten::native_batch_norm");
    ASSERT_EQ(native.size(), 1u);
    EXPECT_EQ(childNames(r.record, native[0]),
              (std::vector<std::string>{"empty_tensor", "empty_tensor", "aclnnBatchNorm"}));
    EXPECT_EQ(named(r.record, "NativeBatchNormBackward0").at(0)->sequenceNumber,
              native[0]->sequenceNumber);
    EXPECT_EQ(r.launches.size(), 3u);
    EXPECT_EQ(r.launches[0].queueCorrelationId, r.launches[1].queueCorrelationId);
}

TEST(TorchCall, TheSameKernelAgainIsTheOpCalledAgain) {
    std::vector<FrameworkOp> ops = {forwardOp("aten::add", "aclnnAdd", 1),
                                    forwardOp("aten::add", "aclnnAdd", 1)};
    EXPECT_EQ(torchCallLength(ops, 0), 1u);
    ops[1].kernels.front().kernelName = "Other";
    ops[1].modulePath.clear();  // no module: nothing says it is the same call
    EXPECT_EQ(torchCallLength(ops, 0), 1u);
}

}  // namespace
}  // namespace ascendsim
