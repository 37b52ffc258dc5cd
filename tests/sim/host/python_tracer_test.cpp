// The Python tracer: nn.Module events per call, named by class and instance, placed where the
// stack enters the module machinery; entering and leaving frames takes host time.
#include <gtest/gtest.h>

#include "sim/host/host_costs.h"
#include "sim/host/python_tracer.h"

namespace ascendsim {
namespace {

const std::vector<std::string> kStack = {"model.py(10): forward",  // innermost first
                                         "/t/torch/nn/modules/module.py(1527): _call_impl",
                                         "train.py(40): <module>"};

TEST(PythonFrames, ModuleCallsGoJustOutsideTheModuleMachinery) {
    const auto frames = pythonFramesOf(kStack, {"Net", "blocks", "0"}, {"Net", "Sequential", "Block"},
                                       true, true);
    ASSERT_EQ(frames.size(), 6u);
    EXPECT_EQ(frames[0].name, "train.py(40): <module>");
    EXPECT_EQ(frames[1].moduleClass, "Net");
    EXPECT_EQ(frames[1].moduleInstance, "Net");
    EXPECT_EQ(frames[3].moduleClass, "Block");
    EXPECT_EQ(frames[3].moduleInstance, "Net/blocks/0");
    EXPECT_EQ(frames[4].name, "/t/torch/nn/modules/module.py(1527): _call_impl");
    EXPECT_EQ(frames[5].name, "model.py(10): forward");
}

TEST(PythonFrames, ContainersWithoutForwardGetNoEventAndModulesAloneNest) {
    const auto frames = pythonFramesOf(kStack, {"Llama", "layers", "3"}, {"Llama", "", "Layer"},
                                       false, true);
    ASSERT_EQ(frames.size(), 2u);
    EXPECT_EQ(frames[1].moduleClass, "Layer");
    EXPECT_EQ(frames[1].moduleInstance, "Llama/layers/3");
}

TEST(PythonTracer, InstancesAreNumberedPerClassInFirstCallOrderAndKeepTheirNumber) {
    std::vector<PythonCallRecord> out;
    PythonTracer tracer(out);
    auto modules = [](const std::string& leaf, const std::string& cls) {
        return std::vector<PythonFrame>{{{}, "Net", "Net"}, {{}, cls, "Net/" + leaf}};
    };
    std::uint64_t t = 0;
    t = tracer.enter(modules("conv1", "Conv2d"), t, 7, 1000);
    t = tracer.enter(modules("relu", "ReLU"), t, 7, 1000);
    t = tracer.enter(modules("conv2", "Conv2d"), t, 7, 1000);
    t = tracer.enter(modules("relu", "ReLU"), t, 7, 1000);  // the same ReLU called again
    tracer.closeAll(t);
    std::vector<std::string> names;
    for (const auto& call : out) names.push_back(call.name);
    const std::vector<std::string> expected = {"nn.Module: Net_0", "nn.Module: Conv2d_0",
                                               "nn.Module: ReLU_0", "nn.Module: Conv2d_1",
                                               "nn.Module: ReLU_0"};
    EXPECT_EQ(names, expected);
    EXPECT_EQ(out[3].moduleId, 1);
    for (std::size_t i = 1; i < out.size(); ++i) EXPECT_EQ(out[i].parentId, out[0].id);
}

TEST(PythonTracer, FramesTakeTimeSoSiblingsNeverTouchAndParentsEnclose) {
    std::vector<PythonCallRecord> out;
    PythonTracer tracer(out);
    const std::vector<PythonFrame> a = {{"f.py(1): outer", {}, {}}, {"f.py(2): a", {}, {}}};
    const std::vector<PythonFrame> b = {{"f.py(1): outer", {}, {}}, {"f.py(3): b", {}, {}}};
    const std::uint64_t afterA = tracer.enter(a, 100'000, 1, 5'000);
    EXPECT_EQ(afterA, 100'000 + 5'000 + 2 * host_costs::kPythonCallNs);
    const std::uint64_t afterB = tracer.enter(b, afterA + 50'000, 1, 5'000);
    tracer.closeAll(afterB + 10'000);
    ASSERT_EQ(out.size(), 3u);
    const auto& outer = out[0];
    const auto& first = out[1];
    const auto& second = out[2];
    EXPECT_LT(outer.startNs, first.startNs);
    EXPECT_EQ(first.endNs, afterA + 50'000 + host_costs::kPythonReturnNs);
    EXPECT_GT(second.startNs, first.endNs);  // the statements between the two calls
    EXPECT_GT(outer.endNs, second.endNs);
}

}  // namespace
}  // namespace ascendsim
