// record_shapes, with_stack, with_modules and with_flops decide what the op records carry, and
// the Python tracer runs only with with_stack or with_modules.
#include <gtest/gtest.h>

#include "sim/host/fake_device_queue.h"
#include "sim/host/host_model.h"

namespace ascendsim {
namespace {

using testing::FakeDeviceQueue;
using testing::trainingStep;

RunRecord runWith(const ProfilerConfig& config) {
    FakeDeviceQueue device(10'000);
    HostModelOptions options;
    options.profiler = config;
    HostModel model(options, device);
    model.runStep(trainingStep(1));
    model.runStep(trainingStep(2));
    RunRecord record;
    model.finish(record);
    return record;
}

const HostOpRecord& byName(const RunRecord& r, const std::string& name) {
    for (const auto& op : r.hostOps) {
        if (op.name == name) return op;
    }
    throw std::runtime_error("no record " + name);
}

TEST(ProfilerSwitches, DefaultConfigRecordsNoShapesStacksModulesOrPythonCalls) {
    const RunRecord r = runWith(ProfilerConfig{});
    for (const auto& op : r.hostOps) {
        EXPECT_TRUE(op.inputDims.empty()) << op.name;
        EXPECT_TRUE(op.inputTypes.empty()) << op.name;
        EXPECT_TRUE(op.callStack.empty()) << op.name;
        EXPECT_TRUE(op.moduleHierarchy.empty()) << op.name;
        EXPECT_EQ(op.flops, -1) << op.name;
    }
    EXPECT_TRUE(r.pythonCalls.empty());
}

TEST(ProfilerSwitches, RecordShapesFillsTorchOpsButNotAllocationOrNpuRecords) {
    ProfilerConfig config;
    config.recordShapes = true;
    const RunRecord r = runWith(config);
    EXPECT_EQ(byName(r, "aten::conv2d").inputDims, "32,64,56,56;64,64,3,3");
    EXPECT_EQ(byName(r, "aten::_convolution").inputTypes, "float;float");
    EXPECT_EQ(byName(r, "ConvolutionBackward0").inputDims, "");  // backward op given no dims
    EXPECT_TRUE(byName(r, "empty_tensor").inputDims.empty());
    EXPECT_TRUE(byName(r, "aclnnConvolution").inputDims.empty());
    EXPECT_TRUE(r.pythonCalls.empty());
}

TEST(ProfilerSwitches, WithStackAddsCallStacksOnTheMainThreadAndPythonFrames) {
    ProfilerConfig config;
    config.withStack = true;
    const RunRecord r = runWith(config);
    EXPECT_EQ(byName(r, "aten::conv2d").callStack, "model.py(42): forward;train.py(10): <module>");
    EXPECT_TRUE(byName(r, "ConvolutionBackward0").callStack.empty());  // autograd thread
    EXPECT_TRUE(byName(r, "aten::conv2d").moduleHierarchy.empty());
    // Consecutive ops share frames: <module> spans the run, forward() is left for each step's
    // loss.item() in the training loop and entered again in the next step.
    ASSERT_EQ(r.pythonCalls.size(), 3u);
    EXPECT_EQ(r.pythonCalls[0].name, "train.py(10): <module>");
    EXPECT_EQ(r.pythonCalls[1].name, "model.py(42): forward");
    EXPECT_EQ(r.pythonCalls[2].name, "model.py(42): forward");
    EXPECT_EQ(r.pythonCalls[1].parentId, r.pythonCalls[0].id);
    EXPECT_EQ(r.pythonCalls[2].parentId, r.pythonCalls[0].id);
    EXPECT_LE(r.pythonCalls[1].endNs, byName(r, "aten::item").startNs);
    EXPECT_LT(r.pythonCalls[1].endNs, r.pythonCalls[2].startNs);
    EXPECT_EQ(r.pythonCalls[0].moduleId, -1);
    EXPECT_LE(r.pythonCalls[0].startNs, byName(r, "aten::conv2d").startNs);
    EXPECT_GE(r.pythonCalls[0].endNs, r.steps.back().endNs - 10'000);
}

TEST(ProfilerSwitches, WithModulesAddsHierarchyAndModuleFrames) {
    ProfilerConfig config;
    config.withModules = true;
    const RunRecord r = runWith(config);
    EXPECT_EQ(byName(r, "aten::conv2d").moduleHierarchy, "nn.Module: Net/nn.Module: conv1");
    EXPECT_TRUE(byName(r, "aten::conv2d").callStack.empty());
    ASSERT_GE(r.pythonCalls.size(), 2u);
    EXPECT_EQ(r.pythonCalls[0].name, "nn.Module: Net_0");
    EXPECT_EQ(r.pythonCalls[0].moduleId, 0);
    EXPECT_EQ(r.pythonCalls[1].name, "nn.Module: Conv2d_0");  // numbered per class
    EXPECT_EQ(r.pythonCalls[1].moduleId, 0);
    for (const auto& call : r.pythonCalls) {
        EXPECT_LE(call.startNs, call.endNs);
        if (call.parentId == 0) continue;
        const auto& parent = r.pythonCalls[call.parentId - 1];
        EXPECT_LE(parent.startNs, call.startNs);
        EXPECT_GE(parent.endNs, call.endNs);
    }
}

TEST(ProfilerSwitches, PythonFramesCloseWhenProfilingStops) {
    FakeDeviceQueue device(10'000);
    HostModelOptions options;
    options.profiler.withStack = true;
    HostModel model(options, device);
    model.runStep(trainingStep(1));
    HostStep after = trainingStep(2);
    after.profiled = false;
    const auto second = model.runStep(after);
    RunRecord r;
    model.finish(r);
    ASSERT_FALSE(r.pythonCalls.empty());
    for (const auto& call : r.pythonCalls) EXPECT_LE(call.endNs, second.startNs) << call.name;
}

TEST(ProfilerSwitches, WithFlopsSetsFlopsOnTheTopLevelRecordOnly) {
    ProfilerConfig config;
    config.withFlops = true;
    FakeDeviceQueue device(1'000);
    HostModelOptions options;
    options.profiler = config;
    HostModel model(options, device);
    HostStep step;
    step.ops.push_back(testing::forwardOp("aten::conv2d", "aclnnConvolution", 1, 0));
    step.ops[0].flops = 123456;
    model.runStep(step);
    RunRecord r;
    model.finish(r);
    EXPECT_EQ(byName(r, "aten::conv2d").flops, 123456);
    EXPECT_EQ(byName(r, "aten::convolution").flops, -1);
}

TEST(ProfilerSwitches, CpuActivityOffRecordsNoFrameworkDataButKeepsSteps) {
    ProfilerConfig config;
    config.activityCpu = false;
    config.profileMemory = true;
    const RunRecord r = runWith(config);
    EXPECT_TRUE(r.hostOps.empty());
    EXPECT_TRUE(r.taskQueue.empty());
    EXPECT_TRUE(r.memoryEvents.empty());
    EXPECT_EQ(r.steps.size(), 2u);
    EXPECT_FALSE(r.apis.empty());
    EXPECT_FALSE(r.appMemory.empty());
}

}  // namespace
}  // namespace ascendsim
