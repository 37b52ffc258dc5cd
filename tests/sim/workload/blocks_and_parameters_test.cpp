// Blocks expand with unique, prefixed names; parameters and arithmetic resolve in shapes/attrs.
#include <gtest/gtest.h>

#include "sim/workload/expression.h"
#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::writeTempYaml;

const char* kChain = R"(name: chain
parameters:
  batch: 4
  width: ${batch}*4
  half: ($width+1)/2
tensors:
  - {name: x, shape: [$batch, $width], dtype: fp16, kind: input}
blocks:
  dense:
    params: {out: null, act: 1}
    inputs: [x]
    outputs: [y]
    tensors:
      - {name: w, shape: [$out, $out], dtype: fp16, kind: weight}
    ops:
      - {name: mm, type: MatMul, inputs: [x, w], outputs: [h], aten: aten::mm, module: linear}
      - {name: relu, when: $act, type: Relu, inputs: [h], outputs: [y], aten: aten::relu}
      - {name: copy, when: 1-$act, type: TensorMove, inputs: [h], outputs: [y]}
ops:
  - block: dense
    name: layers
    repeat: 3
    inputs: [x]
    params: {out: $width}
    instances: {2: {act: 0}}
    module: Model/layers/$index
  - {name: pool, type: ReduceMean, inputs: [layers.2.y], outputs: [pooled], attrs: {axes: [1], keep_dims: true}}
)";

TEST(Blocks, RepeatExpandsWithUniquePrefixedNamesAndChainsOutputsToInputs) {
    Workload w = loadWorkload(writeTempYaml("chain.yaml", kChain));
    std::vector<std::string> names;
    for (const auto& op : w.ops) names.push_back(op.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"layers.0.mm", "layers.0.relu", "layers.1.mm",
                                        "layers.1.relu", "layers.2.mm", "layers.2.copy", "pool"}));
    EXPECT_EQ(w.findOp("layers.1.mm")->inputs,
              (std::vector<std::string>{"layers.0.y", "layers.1.w"}));
    EXPECT_EQ(w.findOp("layers.0.mm")->inputs[0], "x");
    EXPECT_EQ(w.findOp("layers.2.mm")->framework.moduleHierarchy,
              (std::vector<std::string>{"Model", "layers", "2", "linear"}));
    EXPECT_NE(w.findTensor("layers.2.w"), nullptr);
    EXPECT_EQ(w.findTensor("layers.2.y")->declared, false);
}

TEST(Blocks, OpsInsideABlockReportTheBlockDefinitionAsTheirSource) {
    Workload w = loadWorkload(writeTempYaml("chain.yaml", kChain));
    const WorkloadOp* mm = w.findOp("layers.1.mm");
    EXPECT_EQ(mm->fieldPath, "blocks.dense.ops[0]");
    EXPECT_EQ(mm->location.line, 16);
    EXPECT_EQ(mm->locationOf("inputs[1]").line, 16);
}

TEST(Parameters, ArithmeticAndOverridesResizeShapes) {
    Workload w = loadWorkload(writeTempYaml("chain.yaml", kChain));
    EXPECT_EQ(w.parameters.at("width"), "16");
    EXPECT_EQ(w.parameters.at("half"), "8");
    EXPECT_EQ(w.findTensor("pooled")->info.shape, (std::vector<std::int64_t>{4, 1}));
    Workload big =
        loadWorkload(writeTempYaml("chain.yaml", kChain), WorkloadOverrides{{"batch=6"}});
    EXPECT_EQ(big.findTensor("layers.1.h")->info.shape, (std::vector<std::int64_t>{6, 24}));
    EXPECT_EQ(big.parameters.at("half"), "12");  // (24+1)/2 truncates
}

TEST(Parameters, BlockDimFromYamlAndFromTheCommandLineKeepTheirLocation) {
    std::string yaml =
        "name: t\n"
        "tensors: [{name: a, shape: [4, 4], dtype: fp16, kind: input}]\n"
        "ops:\n"
        "  - {name: r, type: Relu, inputs: [a], outputs: [b], block_dim: 2*4}\n"
        "  - {name: s, type: Relu, inputs: [b], outputs: [c]}\n";
    std::string path = writeTempYaml("bd.yaml", yaml);
    Workload w = loadWorkload(path, WorkloadOverrides{{"op.s.block_dim=3"}});
    EXPECT_EQ(w.findOp("r")->blockDim, 8u);
    EXPECT_EQ(w.findOp("r")->locationOf("block_dim").str(), path + ":4:65");
    EXPECT_EQ(w.findOp("s")->blockDim, 3u);
    EXPECT_EQ(w.findOp("s")->locationOf("block_dim").str(), "<command line>:1:1");
    EXPECT_FALSE(loadWorkload(path).findOp("s")->blockDim.has_value());
}

TEST(Parameters, StepsAndDefaultAttributes) {
    std::string yaml =
        "name: t\nsteps: 2+1\n"
        "tensors: [{name: x, shape: [1, 3, 8, 8], dtype: fp16, format: NCHW, kind: input},\n"
        "          {name: w, shape: [4, 3, 3, 3], dtype: fp16, kind: weight}]\n"
        "ops: [{name: c, type: Conv2D, inputs: [x, w], outputs: [y]}]\n";
    std::string path = writeTempYaml("steps.yaml", yaml);
    Workload w = loadWorkload(path);
    EXPECT_EQ(w.steps, 3u);
    EXPECT_EQ(std::get<std::vector<std::int64_t>>(w.ops[0].attrs.at("pads")),
              (std::vector<std::int64_t>{0, 0, 0, 0}));
    EXPECT_EQ(w.findTensor("y")->info.shape, (std::vector<std::int64_t>{1, 4, 6, 6}));
    EXPECT_EQ(w.findTensor("y")->info.format, TensorFormat::NCHW);
    EXPECT_EQ(loadWorkload(path, WorkloadOverrides{{"steps=7"}}).steps, 7u);
}

TEST(Expressions, SubstituteAndEvaluateIntegers) {
    ParameterValues p{{"batch", "8"}, {"name", "layer1"}};
    EXPECT_EQ(evaluateInteger("${batch}*4", p), 32);
    EXPECT_EQ(evaluateInteger("($batch+1)/2", p), 4);
    EXPECT_EQ(evaluateInteger("-3 + 10 % 4", p), -1);
    EXPECT_EQ(substituteParameters("$name.${batch-1}.out", p), "layer1.7.out");
    EXPECT_THROW(evaluateInteger("$batch/0", p), ExpressionError);
    EXPECT_THROW(evaluateInteger("$batch*", p), ExpressionError);
    EXPECT_THROW(substituteParameters("$nope", p), ExpressionError);
    EXPECT_FALSE(tryEvaluateInteger("$name", p).has_value());
}

TEST(ProfilerBlock, FillsTheProfilerConfig) {
    std::string yaml =
        "name: t\n"
        "tensors: [{name: a, shape: [2], kind: input}]\n"
        "ops: [{name: r, type: Relu, inputs: [a], outputs: [b]}]\n"
        "profiler:\n"
        "  activities: [NPU]\n"
        "  schedule: {wait: 1, warmup: 1, active: 3, repeat: 2, skip_first: 1}\n"
        "  with_flops: true\n"
        "  experimental_config: {profiler_level: Level2, aic_metrics: ACL_AICORE_MEMORY_UB,\n"
        "                        l2_cache: true, data_simplification: false, export_type: [text, "
        "db]}\n";
    Workload w = loadWorkload(writeTempYaml("prof.yaml", yaml));
    EXPECT_TRUE(w.hasProfilerBlock);
    EXPECT_FALSE(w.profiler.activityCpu);
    EXPECT_TRUE(w.profiler.activityNpu);
    ASSERT_TRUE(w.profiler.schedule.has_value());
    EXPECT_EQ(w.profiler.schedule->skipFirst, 1u);
    EXPECT_EQ(w.profiler.schedule->repeat, 2u);
    EXPECT_TRUE(w.profiler.withFlops);
    EXPECT_EQ(w.profiler.level, ProfilerLevel::Level2);
    EXPECT_EQ(w.profiler.effectiveAicMetrics(), AicMetrics::MemoryUB);
    EXPECT_TRUE(w.profiler.l2Cache);
    EXPECT_FALSE(w.profiler.dataSimplification);
    EXPECT_TRUE(w.profiler.exportsDb());
    EXPECT_TRUE(w.profiler.exportsText());
}

}  // namespace
}  // namespace ascendsim
