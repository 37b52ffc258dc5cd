// Every class of bad input is reported as `file:line:column: field: problem` before simulation.
#include <gtest/gtest.h>

#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::writeTempYaml;

// Loads `yaml` (optionally validating against `deviceBytes`) and returns the error text with the
// temp file's path replaced by "x.yaml"; fails the test when nothing is thrown.
std::string errorOf(const std::string& yaml, const std::vector<std::string>& sets = {},
                    std::uint64_t deviceBytes = 64ULL << 30) {
    std::string path = writeTempYaml("error_case.yaml", yaml);
    try {
        Workload w = loadWorkload(path, WorkloadOverrides{sets});
        validateWorkload(w, deviceBytes);
    } catch (const WorkloadError& e) {
        std::string text = e.what();
        for (std::size_t at = text.find(path); at != std::string::npos; at = text.find(path)) {
            text.replace(at, path.size(), "x.yaml");
        }
        return text;
    }
    ADD_FAILURE() << "no WorkloadError for:\n" << yaml;
    return "";
}

// A valid two-op base: line numbers below refer to this layout.
const char* kHeader =
    "name: t\n"                                                    // 1
    "parameters: {m: 64, k: 32, n: 16}\n"                          // 2
    "tensors:\n"                                                   // 3
    "  - {name: a, shape: [$m, $k], dtype: fp16, kind: input}\n"   // 4
    "  - {name: b, shape: [$k, $n], dtype: fp16, kind: weight}\n"  // 5
    "ops:\n";                                                      // 6

TEST(WorkloadErrors, MalformedYamlNamesTheLine) {
    EXPECT_EQ(errorOf("name: t\nops: [\n  - {name: x\n"), "x.yaml:3:3: yaml: illegal block entry");
}

TEST(WorkloadErrors, UnknownTopLevelKeyIsATypo) {
    std::string text = errorOf("name: t\nstep: 3\n");
    EXPECT_EQ(text.substr(0, 39), "x.yaml:2:1: step: unknown key 'step' (e");
}

TEST(WorkloadErrors, UnknownOpKeyIsRejected) {
    std::string text = errorOf(std::string(kHeader) +
                               "  - {name: mm, type: MatMul, input: [a, b], outputs: [y]}\n");
    EXPECT_EQ(text.substr(0, 50), "x.yaml:7:30: ops[0].input: unknown key 'input' (ex");
}

TEST(WorkloadErrors, UnknownOpTypeListsTheKnownOnes) {
    std::string text = errorOf(std::string(kHeader) +
                               "  - {name: mm, type: MatMull, inputs: [a, b], outputs: [y]}\n");
    EXPECT_EQ(text.substr(0, 62), "x.yaml:7:22: ops[0].type: unknown op type 'MatMull' (known: Ab");
    EXPECT_NE(text.find("MatMul,"), std::string::npos);
}

TEST(WorkloadErrors, WrongInputCount) {
    EXPECT_EQ(
        errorOf(std::string(kHeader) + "  - {name: mm, type: MatMul, inputs: [a], outputs: [y]}\n"),
        "x.yaml:7:38: ops[0].inputs: MatMul takes 2 to 3 inputs, got 1");
}

TEST(WorkloadErrors, WrongOutputCount) {
    EXPECT_EQ(errorOf(std::string(kHeader) +
                      "  - {name: t, type: TopK, inputs: [a], outputs: [v], attrs: {k: 2}}\n"),
              "x.yaml:7:49: ops[0].outputs: TopK has 2 outputs, got 1");
}

TEST(WorkloadErrors, MissingTensorNamesTheInputPosition) {
    EXPECT_EQ(errorOf(std::string(kHeader) +
                      "  - {name: mm, type: MatMul, inputs: [a, conv9_out], outputs: [y]}\n"),
              "x.yaml:7:42: ops[0].inputs[1]: unknown tensor 'conv9_out'");
}

TEST(WorkloadErrors, ShapeMismatchBetweenProducerAndConsumer) {
    std::string text =
        errorOf(std::string(kHeader) +
                "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n"     // y [64,16]
                "  - {name: mm2, type: MatMul, inputs: [y, b], outputs: [z]}\n");  // needs K=16
    EXPECT_EQ(text,
              "x.yaml:8:43: ops[1].inputs[1]: MatMul 'mm2': K of 'b' [32,16] is 32 but a [64,16] "
              "has K=16");
}

TEST(WorkloadErrors, DeclaredOutputShapeMustMatchInference) {
    std::string text = errorOf(std::string(kHeader) +
                               "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n"
                               "  - {name: r, type: Relu, inputs: [y], outputs: [w]}\n" +
                               "tensors_extra: 1\n");
    EXPECT_NE(text.find("tensors_extra"), std::string::npos);  // sanity: unknown keys first
    std::string declared =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4, 8], dtype: fp16, kind: input}\n"
        "  - {name: y, shape: [4, 9], dtype: fp16}\n"
        "ops:\n"
        "  - {name: r, type: Relu, inputs: [a], outputs: [y]}\n";
    EXPECT_EQ(
        errorOf(declared),
        "x.yaml:6:50: ops[0].outputs[0]: 'y' is declared [4,9] fp16 (at x.yaml:4:5) but Relu 'r' "
        "produces [4,8] fp16");
}

TEST(WorkloadErrors, DtypeMismatchOfElementwiseInputs) {
    std::string yaml =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4, 8], dtype: fp16, kind: input}\n"
        "  - {name: b, shape: [8], dtype: int32, kind: input}\n"
        "ops:\n"
        "  - {name: add, type: Add, inputs: [a, b], outputs: [y]}\n";
    // Float inputs of different widths promote (fp32 main-grad += bf16 grad); int with float does not.
    EXPECT_EQ(errorOf(yaml),
              "x.yaml:6:40: ops[0].inputs[1]: Add 'add': 'b' is int32 but 'a' is fp16");
}

TEST(WorkloadErrors, TensorProducedTwice) {
    std::string text = errorOf(std::string(kHeader) +
                               "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n"
                               "  - {name: mm2, type: MatMul, inputs: [a, b], outputs: [y]}\n");
    EXPECT_EQ(text,
              "x.yaml:8:57: ops[1].outputs[0]: tensor 'y' is produced twice (also by op 'mm')");
}

TEST(WorkloadErrors, ActivationReadBeforeItIsProduced) {
    std::string text = errorOf(std::string(kHeader) +
                               "  - {name: r, type: Relu, inputs: [y], outputs: [z]}\n"
                               "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n");
    EXPECT_EQ(text, "x.yaml:7:36: ops[0].inputs[0]: tensor 'y' is read before op 'mm' produces it");
}

TEST(WorkloadErrors, DeclaredActivationThatNoOpProduces) {
    std::string yaml =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4, 8], dtype: fp16}\n"
        "ops:\n"
        "  - {name: r, type: Relu, inputs: [a], outputs: [y]}\n";
    EXPECT_EQ(
        errorOf(yaml),
        "x.yaml:5:36: ops[0].inputs[0]: activation 'a' is never produced by an op (declare it "
        "kind: input if the host feeds it)");
}

TEST(WorkloadErrors, BlockDimMustBeAPositiveSixteenBitInteger) {
    std::string base = std::string(kHeader) +
                       "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y], block_dim: ";
    EXPECT_EQ(errorOf(base + "0}\n"),
              "x.yaml:7:71: ops[0].block_dim: block_dim must be in 1..65535, got 0");
    EXPECT_EQ(errorOf(base + "70000}\n"),
              "x.yaml:7:71: ops[0].block_dim: block_dim must be in 1..65535, got 70000");
    EXPECT_EQ(
        errorOf(base + "lots}\n"),
        "x.yaml:7:71: ops[0].block_dim: in integer expression 'lots': unknown parameter 'lots'");
}

TEST(WorkloadErrors, BlockDimOverrideNamesTheCommandLine) {
    std::string yaml =
        std::string(kHeader) + "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n";
    EXPECT_EQ(errorOf(yaml, {"m=32", "op.mm.block_dim=0"}),
              "<command line>:1:2: --set op.mm.block_dim: block_dim must be an integer in "
              "1..65535, got '0'");
    EXPECT_EQ(errorOf(yaml, {"op.nope.block_dim=4"}),
              "<command line>:1:1: --set op.nope.block_dim: no op named 'nope'");
}

TEST(WorkloadErrors, UnknownSetKey) {
    std::string yaml =
        std::string(kHeader) + "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n";
    EXPECT_EQ(errorOf(yaml, {"batch=8"}).substr(0, 67),
              "<command line>:1:1: --set batch: unknown parameter 'batch' (paramet");
    EXPECT_EQ(errorOf(yaml, {"m"}), "<command line>:1:1: --set m: expected key=value");
    EXPECT_EQ(
        errorOf(yaml, {"k=16", "m=abc"}),
        "<command line>:1:2: --set m: 'abc' is not an integer (the workload's default '64' is)");
}

TEST(WorkloadErrors, TensorsThatDoNotFitDeviceMemory) {
    std::string yaml =
        std::string(kHeader) + "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n";
    // a 4 KiB + b 1 KiB persistent, y 2 KiB live while mm runs: 7 KiB > 6 KiB.
    EXPECT_EQ(errorOf(yaml, {}, 6 * 1024),
              "x.yaml:7:5: ops[0]: device memory exceeded: inputs, weights and state 5120 bytes + "
              "live activations and "
              "gradients 2048 bytes while op 'mm' runs = 7168 bytes > device memory 6144 bytes");
    std::string path = writeTempYaml("fits.yaml", yaml);
    EXPECT_NO_THROW(validateWorkload(loadWorkload(path), 7 * 1024));
}

TEST(WorkloadErrors, UnknownProfilerLevelAndMetrics) {
    std::string yaml = std::string(kHeader) +
                       "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n" +
                       "profiler:\n"                                         // 8
                       "  experimental_config: {profiler_level: Level3}\n";  // 9
    EXPECT_EQ(errorOf(yaml),
              "x.yaml:9:41: profiler.experimental_config.profiler_level: unknown profiler level 'Level3'; "
              "valid: Level_none, Level0, Level1, Level2; each also as ProfilerLevel.X or "
              "torch_npu.profiler.ProfilerLevel.X");
    std::string metrics = std::string(kHeader) +
                          "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n" +
                          "profiler:\n"
                          "  experimental_config: {aic_metrics: PipeUtilisation}\n";
    EXPECT_EQ(errorOf(metrics).substr(0, 92),
              "x.yaml:9:38: profiler.experimental_config.aic_metrics: unknown aic_metrics "
              "'PipeUtilisation'");
    std::string typo = std::string(kHeader) +
                       "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n" +
                       "profiler: {record_shape: true}\n";
    EXPECT_EQ(errorOf(typo).substr(0, 66),
              "x.yaml:8:12: profiler.record_shape: unknown key 'record_shape' (ex");
}

TEST(WorkloadErrors, UnknownAndMissingAttributes) {
    std::string text = errorOf(
        std::string(kHeader) +
        "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y], attrs: {transpose: true}}\n");
    EXPECT_EQ(
        text,
        "x.yaml:7:68: ops[0].attrs.transpose: unknown attribute 'transpose' for MatMul (known: "
        "transpose_a, transpose_b)");
    EXPECT_EQ(
        errorOf(std::string(kHeader) + "  - {name: c, type: Cast, inputs: [a], outputs: [y]}\n"),
        "x.yaml:7:5: ops[0].attrs: Cast 'c' needs attribute 'dst_type'");
    EXPECT_EQ(
        errorOf(std::string(kHeader) +
                "  - {name: c, type: Cast, inputs: [a], outputs: [y], attrs: {dst_type: fp64}}\n"),
        "x.yaml:7:72: ops[0].attrs.dst_type: 'fp64' is not one of: fp16, fp32, bf16, int32, int8");
}

TEST(WorkloadErrors, UnknownParameterInAShape) {
    std::string yaml =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [$batch, 8], dtype: fp16, kind: input}\n";
    EXPECT_EQ(errorOf(yaml), "x.yaml:3:23: tensors[0].shape[0]: unknown parameter 'batch'");
}

TEST(WorkloadErrors, ProblemsInsideABlockNameTheBlockLine) {
    std::string yaml =
        "name: t\n"                                                       // 1
        "tensors:\n"                                                      // 2
        "  - {name: a, shape: [4, 8], dtype: fp16, kind: input}\n"        // 3
        "blocks:\n"                                                       // 4
        "  act:\n"                                                        // 5
        "    params: {kind: Relu}\n"                                      // 6
        "    inputs: [x]\n"                                               // 7
        "    outputs: [y]\n"                                              // 8
        "    ops:\n"                                                      // 9
        "      - {name: f, type: $kind, inputs: [x, x], outputs: [y]}\n"  // 10
        "ops:\n"                                                          // 11
        "  - {block: act, name: first, inputs: [a]}\n";                   // 12
    EXPECT_EQ(errorOf(yaml),
              "x.yaml:10:40: blocks.act.ops[0].inputs: Relu takes 1 input, got 2 (in block "
              "instance 'first')");
    std::string badParam =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4, 8], dtype: fp16, kind: input}\n"
        "blocks:\n"
        "  act:\n"
        "    inputs: [x]\n"
        "    outputs: [y]\n"
        "    ops: [{name: f, type: Relu, inputs: [x], outputs: [y]}]\n"
        "ops:\n"
        "  - {block: act, inputs: [a], params: {knid: 1}}\n";
    EXPECT_EQ(errorOf(badParam),
              "x.yaml:10:40: ops[0].params.knid: block 'act' has no parameter 'knid'");
    std::string unknownBlock = "name: t\nops:\n  - {block: nothere}\n";
    EXPECT_EQ(errorOf(unknownBlock), "x.yaml:3:13: ops[0].block: unknown block 'nothere'");
}

TEST(WorkloadErrors, DuplicateKeysAndEmptyWorkloads) {
    EXPECT_EQ(errorOf(std::string(kHeader) +
                      "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y], name: mm2}\n"),
              "x.yaml:7:60: ops[0].name: key 'name' is given twice");
    EXPECT_EQ(errorOf("name: t\nops: []\n"), "x.yaml:2:6: ops: the workload has no ops");
}

TEST(WorkloadErrors, MissingWorkloadFile) {
    EXPECT_THROW(loadWorkload("/nonexistent/w.yaml"), WorkloadError);
}

}  // namespace
}  // namespace ascendsim
