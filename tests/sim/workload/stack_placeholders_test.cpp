// Python frames are written into trace_view.json, operator_details.csv and the DB as they leave
// the loader: every `$param` in a workload's base_stack and op stacks must be expanded there.
#include <gtest/gtest.h>

#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::sourcePath;
using testing::writeTempYaml;

TEST(StackPlaceholders, BaseStackFramesTakeParameters) {
    const std::string path = writeTempYaml("base_stack.yaml", R"(
name: base_stack_params
parameters: {torch: /py/torch, line: 7}
base_stack: ["$torch/nn/modules/module.py(1527): _call_impl", "run.py($line): <module>"]
tensors:
  - {name: x, shape: [4], dtype: fp16, kind: input}
ops:
  - {name: r, type: Relu, inputs: [x], outputs: [y], stack: ["$torch/nn/functional.py(1469): relu"]}
)");
    const Workload w = loadWorkload(path);
    ASSERT_EQ(w.ops.size(), 1u);
    const std::vector<std::string> expected = {"/py/torch/nn/functional.py(1469): relu",
                                               "/py/torch/nn/modules/module.py(1527): _call_impl",
                                               "run.py(7): <module>"};
    EXPECT_EQ(w.ops[0].framework.callStack, expected);
}

TEST(StackPlaceholders, UnknownParameterInBaseStackIsAnError) {
    const std::string path = writeTempYaml("base_stack_bad.yaml", R"(
name: base_stack_bad
base_stack: ["$nowhere/x.py(1): f"]
tensors:
  - {name: x, shape: [4], dtype: fp16, kind: input}
ops:
  - {name: r, type: Relu, inputs: [x], outputs: [y]}
)");
    try {
        loadWorkload(path);
        FAIL() << "expected a WorkloadError";
    } catch (const WorkloadError& e) {
        EXPECT_NE(std::string(e.what()).find("base_stack"), std::string::npos) << e.what();
    }
}

class ShippedStacks : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedStacks, NoPlaceholderSurvivesInAnyFrameOrModule) {
    const Workload w = loadWorkload(sourcePath(GetParam()));
    for (const auto& op : w.ops) {
        for (const auto& frame : op.framework.callStack)
            EXPECT_EQ(frame.find('$'), std::string::npos) << op.name << ": " << frame;
        for (const auto& module : op.framework.moduleHierarchy)
            EXPECT_EQ(module.find('$'), std::string::npos) << op.name << ": " << module;
        EXPECT_EQ(op.framework.atenName.find('$'), std::string::npos) << op.name;
    }
}

INSTANTIATE_TEST_SUITE_P(
    All, ShippedStacks,
    ::testing::Values("workloads/resnet50.yaml", "workloads/resnet50_train.yaml",
                      "workloads/resnet50_train_dp.yaml", "workloads/bert_base.yaml",
                      "workloads/llama_decoder.yaml", "workloads/unit/matmul.yaml",
                      "workloads/unit/conv2d.yaml", "workloads/unit/elementwise_chain.yaml",
                      "workloads/unit/aicpu_topk.yaml", "workloads/unit/allreduce.yaml",
                      "workloads/unit/collectives.yaml"),
    [](const ::testing::TestParamInfo<std::string>& p) {
        std::string name = p.param.substr(p.param.rfind('/') + 1);
        return name.substr(0, name.find('.'));
    });

}  // namespace
}  // namespace ascendsim
