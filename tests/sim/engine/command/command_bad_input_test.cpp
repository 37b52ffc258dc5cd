// `ascendsim --workload ...` on bad input: a clear one-line error that names the file, line and
// field, a non-zero exit code, and nothing written into the --output directory.
#include <gtest/gtest.h>

#include <regex>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

class BadInput : public ::testing::Test {
protected:
    // Writes `yaml` as `name` into the scratch directory and returns its path.
    fs::path writeWorkload(const std::string& name, const std::string& yaml) {
        const fs::path path = scratch_.path() / name;
        std::ofstream(path) << yaml;
        return path;
    }

    // Runs the command and checks the common contract of every rejected run.
    CommandOutcome runRejected(const SimulationOptions& options) {
        CommandOutcome outcome = runCommand(options);
        EXPECT_NE(outcome.exitCode, 0) << "stdout:\n" << outcome.out;
        EXPECT_TRUE(entriesOf(output_.path()).empty()) << "a rejected run left files in --output";
        EXPECT_EQ(outcome.out.find("profiling data written"), std::string::npos) << outcome.out;
        EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << "one-line message expected:\n"
                                                                               << outcome.err;
        EXPECT_EQ(outcome.err.rfind("ascendsim: ", 0), 0u) << outcome.err;
        return outcome;
    }

    SimulationOptions optionsFor(const fs::path& workload) { return commandOptions(workload, output_.path()); }

    TempDir scratch_;
    TempDir output_;
};

void expectMatches(const std::string& text, const std::string& pattern) {
    EXPECT_TRUE(std::regex_search(text, std::regex(pattern))) << "message:\n  " << text << "does not match\n  "
                                                             << pattern;
}

TEST_F(BadInput, MalformedYaml_NamesFileAndLine) {
    const auto path = writeWorkload("malformed.yaml", "name: bad\nops:\n  - {name: a, type: Add\n");
    const auto outcome = runRejected(optionsFor(path));
    expectMatches(outcome.err, R"(malformed\.yaml:[0-9]+:[0-9]+: yaml)");
}

TEST_F(BadInput, UnknownOpType_NamesLineAndTypeField) {
    const auto path = writeWorkload("unknown_op.yaml",
                                    "name: unknown_op\n"
                                    "tensors:\n"
                                    "  - {name: x, shape: [16, 16], dtype: fp16, kind: input}\n"
                                    "ops:\n"
                                    "  - {name: frob, type: Frobnicate, inputs: [x], outputs: [y]}\n");
    const auto outcome = runRejected(optionsFor(path));
    expectMatches(outcome.err, R"(unknown_op\.yaml:5:[0-9]+: ops\[0\]\.type: .*'Frobnicate')");
}

TEST_F(BadInput, ConsumerShapeMismatch_NamesTheConsumingOp) {
    // mm produces y [64,16]; add then combines it with z [64,32], which numpy cannot broadcast.
    const auto path = writeWorkload("shape_mismatch.yaml",
                                    "name: shape_mismatch\n"
                                    "tensors:\n"
                                    "  - {name: a, shape: [64, 32], dtype: fp16, kind: input}\n"
                                    "  - {name: b, shape: [32, 16], dtype: fp16, kind: weight}\n"
                                    "  - {name: z, shape: [64, 32], dtype: fp16, kind: input}\n"
                                    "ops:\n"
                                    "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n"
                                    "  - {name: add, type: Add, inputs: [y, z], outputs: [s]}\n");
    const auto outcome = runRejected(optionsFor(path));
    expectMatches(outcome.err, R"(shape_mismatch\.yaml:8:[0-9]+: ops\[1\])");
    expectMatches(outcome.err, R"(\[64,16\]|64, 16)");
}

TEST_F(BadInput, MatMulInnerDimensionMismatch_NamesTheInput) {
    const auto path = writeWorkload("k_mismatch.yaml",
                                    "name: k_mismatch\n"
                                    "tensors:\n"
                                    "  - {name: a, shape: [64, 32], dtype: fp16, kind: input}\n"
                                    "  - {name: b, shape: [48, 16], dtype: fp16, kind: weight}\n"
                                    "ops:\n"
                                    "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n");
    const auto outcome = runRejected(optionsFor(path));
    expectMatches(outcome.err, R"(k_mismatch\.yaml:6:[0-9]+: ops\[0\]\.inputs)");
}

constexpr const char* kAttentionWorkload =
    "name: attention\n"
    "parameters: {blocks: 24}\n"
    "tensors:\n"
    "  - {name: q, shape: [1, 4, 256, 64], dtype: fp16, kind: input}\n"
    "  - {name: k, shape: [1, 4, 256, 64], dtype: fp16, kind: input}\n"
    "  - {name: v, shape: [1, 4, 256, 64], dtype: fp16, kind: input}\n"
    "ops:\n"
    "  - {name: attn, type: FlashAttentionScore, inputs: [q, k, v], outputs: [o], block_dim: $blocks}\n";

TEST_F(BadInput, MixAttentionBlockDimBeyondCubeCores_NamesBlockDimField) {
    const auto path = writeWorkload("attention.yaml", kAttentionWorkload);
    auto options = optionsFor(path);
    options.setOverrides = {"blocks=25"};  // Ascend910B1 has 24 AI cube cores
    const auto outcome = runRejected(options);
    expectMatches(outcome.err, R"(attention\.yaml:8:[0-9]+: ops\[0\]\.block_dim: .*25.*24)");
}

TEST_F(BadInput, MixAttentionAtCubeCoreCount_IsAccepted) {
    // The boundary of the test above: block_dim 24 fits the chip, so the rejection was the limit.
    const auto path = writeWorkload("attention.yaml", kAttentionWorkload);
    auto options = optionsFor(path);
    options.setOverrides = {"blocks=24"};
    options.level = "Level0";
    const auto outcome = runCommand(options);
    EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
    EXPECT_EQ(entriesOf(output_.path()).size(), 1u);
}

TEST_F(BadInput, BlockDimBeyondUint16InSetOverride_NamesCommandLineEntry) {
    auto options = optionsFor(unitWorkload("matmul.yaml"));
    options.setOverrides = {"op.matmul.block_dim=70000"};
    const auto outcome = runRejected(options);
    expectMatches(outcome.err, R"(<command line>:1:1: --set op\.matmul\.block_dim: .*70000)");
}

TEST_F(BadInput, BlockDimBeyondUint16InWorkloadFile_NamesFileLine) {
    const auto path = writeWorkload("huge_block_dim.yaml",
                                    "name: huge_block_dim\n"
                                    "tensors:\n"
                                    "  - {name: x, shape: [16, 16], dtype: fp16, kind: input}\n"
                                    "ops:\n"
                                    "  - {name: relu, type: Relu, inputs: [x], outputs: [y], block_dim: 70000}\n");
    const auto outcome = runRejected(optionsFor(path));
    expectMatches(outcome.err, R"(huge_block_dim\.yaml:5:[0-9]+: ops\[0\]\.block_dim)");
}

TEST_F(BadInput, TensorsBeyondDeviceMemory_NamesOpAndMemory) {
    auto options = optionsFor(unitWorkload("elementwise_chain.yaml"));
    options.setOverrides = {"batch=100000000"};  // 4096 fp16 columns: ~760 GiB per activation
    const auto outcome = runRejected(options);
    expectMatches(outcome.err, R"(elementwise_chain\.yaml:[0-9]+:[0-9]+: ops\[[0-9]+\].*device memory)");
    expectMatches(outcome.err, R"(64\.00 GiB)");  // Ascend910B1 HBM
}

TEST_F(BadInput, UnknownSetParameter_NamesItsPosition) {
    auto options = optionsFor(unitWorkload("matmul.yaml"));
    options.setOverrides = {"m=64", "no_such_parameter=3"};
    const auto outcome = runRejected(options);
    expectMatches(outcome.err, R"(<command line>:1:2: --set no_such_parameter)");
}

TEST_F(BadInput, UnknownChip_ListsTheKnownChips) {
    auto options = optionsFor(unitWorkload("matmul.yaml"));
    options.chipName = "Ascend999";
    const auto outcome = runRejected(options);
    expectMatches(outcome.err, R"('Ascend999'.*Ascend910B1)");
}

TEST_F(BadInput, UnknownLevel_NamesTheOption) {
    auto options = optionsFor(unitWorkload("matmul.yaml"));
    options.level = "Level7";
    const auto outcome = runRejected(options);
    expectMatches(outcome.err, R"(<command line>.*--level: .*'Level7')");
}

TEST_F(BadInput, UnknownAicMetrics_NamesTheOption) {
    auto options = optionsFor(unitWorkload("matmul.yaml"));
    options.aicMetrics = "Foo";
    const auto outcome = runRejected(options);
    expectMatches(outcome.err, R"(<command line>.*--aic-metrics: .*'Foo')");
}

TEST_F(BadInput, UnknownSpellings_ExitTwoAndListTheValidValues) {
    auto options = optionsFor(unitWorkload("matmul.yaml"));
    options.level = "torch_npu.profiler.ProfilerLevel.Level3";
    auto outcome = runRejected(options);
    EXPECT_EQ(outcome.exitCode, 2);
    expectMatches(outcome.err, R"(--level: unknown profiler level '.*Level3'; valid: Level_none, Level0, Level1, Level2)");
    options = optionsFor(unitWorkload("matmul.yaml"));
    options.exportType = "text,json";
    outcome = runRejected(options);
    EXPECT_EQ(outcome.exitCode, 2);
    expectMatches(outcome.err, R"(--export-type: unknown export type 'json'; valid: Text \(text\), Db \(db\))");
    options = optionsFor(unitWorkload("matmul.yaml"));
    options.activities = "ProfilerActivity.GPU";
    outcome = runRejected(options);
    EXPECT_EQ(outcome.exitCode, 2);
    expectMatches(outcome.err, R"(--activities: unknown activity 'ProfilerActivity.GPU'; valid: CPU, NPU)");
    options = optionsFor(unitWorkload("matmul.yaml"));
    options.aicMetrics = std::string("7");  // not a char[2]: GCC 12 -Wrestrict false positive
    expectMatches(runRejected(options).err, R"(--aic-metrics: .*'7'.*MemoryAccess \(ACL_AICORE_MEMORY_ACCESS or 8\))");
}

TEST_F(BadInput, MissingWorkloadFile_NamesThePath) {
    const auto outcome = runRejected(optionsFor(scratch_.path() / "does_not_exist.yaml"));
    expectMatches(outcome.err, R"(does_not_exist\.yaml)");
}

}  // namespace
}  // namespace ascendsim::e2e
