// Every shipped workload runs on every chip config (configs/*.yaml): split 910B1–B4/910_9391 and
// coupled 910/310P3, where cube kernels leave L0C through UB (no FixPipe). Tiny shapes and one
// step keep the sweep fast; the MIX attention of the LLaMA decoder is a clear lowering error on
// coupled chips (file:line:field), never a crash.
#include <gtest/gtest.h>

#include <set>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

std::vector<std::string> chipNames() {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(sourceDir() / "configs"))
        if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

bool isCoupled(const std::string& chip) { return chip == "Ascend910" || chip == "Ascend310P3"; }

struct SweepWorkload {
    std::string path;  // relative to the source dir
    std::vector<std::string> overrides;
    std::uint32_t steps = 1;
};

// Small parameters for each workload (the shapes stay the model's, only sizes shrink).
const std::vector<SweepWorkload> kUnitWorkloads = {
    {"workloads/unit/matmul.yaml", {"m=96", "k=160", "n=200"}},
    {"workloads/unit/conv2d.yaml", {"batch=1", "channels=16", "filters=32", "hw=10"}},
    {"workloads/unit/elementwise_chain.yaml", {"batch=8", "cols=256"}},
    {"workloads/unit/aicpu_topk.yaml", {"batch=2", "length=64"}},
};

class ChipSweep : public ::testing::TestWithParam<std::string> {
protected:
    CommandOutcome run(const SweepWorkload& workload) {
        auto options = commandOptions(sourceDir() / workload.path, out_.path());
        options.chipName = GetParam();
        options.setOverrides = workload.overrides;
        options.steps = workload.steps;
        options.level = "Level0";
        return runCommand(options);
    }

    TempDir out_;
};

TEST_P(ChipSweep, UnitWorkloadsRunAndRecordTheirKernels) {
    for (const auto& workload : kUnitWorkloads) {
        TempDir out;
        auto options = commandOptions(sourceDir() / workload.path, out.path());
        options.chipName = GetParam();
        options.setOverrides = workload.overrides;
        options.steps = 1;
        options.level = "Level0";
        const auto outcome = runCommand(options);
        ASSERT_EQ(outcome.exitCode, 0) << workload.path << " on " << GetParam() << ": " << outcome.err;
        const auto details = readCsv(onlyProfilerDir(out.path()) / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
        ASSERT_FALSE(details.rows.empty()) << workload.path << " on " << GetParam();
        for (std::size_t row = 0; row < details.rows.size(); ++row)
            EXPECT_GT(numberCell(details.cell(row, "Duration(us)")), 0.0) << workload.path << " on " << GetParam();
    }
}

TEST_P(ChipSweep, CubeKernelsUseTheCoreKindOfTheChip) {
    TempDir out;
    auto options = commandOptions(sourceDir() / kUnitWorkloads[0].path, out.path());
    options.chipName = GetParam();
    options.setOverrides = kUnitWorkloads[0].overrides;
    options.steps = 1;
    options.level = "Level1";  // Level0 leaves Type and Accelerator Core as N/A
    const auto outcome = runCommand(options);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    const auto details = readCsv(onlyProfilerDir(out.path()) / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
    ASSERT_EQ(details.rows.size(), 1u);
    EXPECT_EQ(details.cell(0, "Type"), "MatMul");
    EXPECT_EQ(details.cell(0, "Accelerator Core"), "AI_CORE");
}

TEST_P(ChipSweep, ModelWorkloadsRunOneStep) {
    const std::vector<SweepWorkload> models = {
        {"workloads/resnet50.yaml", {"batch=1", "image=32", "classes=10"}},
        {"workloads/bert_base.yaml", {"batch=1", "seq_len=16", "layers=1", "vocab=64"}},
    };
    for (const auto& workload : models) {
        const auto outcome = run(workload);
        EXPECT_EQ(outcome.exitCode, 0) << workload.path << " on " << GetParam() << ": " << outcome.err;
        EXPECT_NE(outcome.out.find("steps simulated 1"), std::string::npos) << outcome.out;
    }
}

// The training workload hard-codes the 224x224 geometry (7x7 layer4 gradients), so it runs at full
// image size with batch 1 (~5-7 s per chip): forward, backward (incl. BNTrainingUpdateGrad of the
// 112x112 stem plane, which is larger than the split chips' 192 KiB UB and is chunked) and the update.
TEST_P(ChipSweep, ResNet50TrainingRunsOneStep) {
    const auto outcome = run({"workloads/resnet50_train.yaml", {"batch=1"}});
    EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
    EXPECT_NE(outcome.out.find("steps simulated 1"), std::string::npos) << outcome.out;
}

TEST_P(ChipSweep, LlamaDecoderRunsOnSplitChipsAndIsALoweringErrorOnCoupledChips) {
    const SweepWorkload llama{"workloads/llama_decoder.yaml",
                              {"layers=1", "prefill_len=16", "decode_steps=1", "hidden=256", "heads=2",
                               "head_dim=128", "ffn=512", "vocab=64"}};
    const auto outcome = run(llama);
    if (!isCoupled(GetParam())) {
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
        return;
    }
    EXPECT_NE(outcome.exitCode, 0);
    EXPECT_EQ(outcome.err.rfind("ascendsim: ", 0), 0u) << outcome.err;
    EXPECT_NE(outcome.err.find("llama_decoder.yaml:"), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find("FlashAttentionScore"), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find("coupled"), std::string::npos) << outcome.err;
    EXPECT_TRUE(entriesOf(out_.path()).empty()) << "a rejected run left files in --output";
}

TEST(ChipSweepConfigs, EveryChipOfTheIssueHasAConfig) {
    const auto names = chipNames();
    const std::set<std::string> present(names.begin(), names.end());
    for (const char* chip : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910_9391",
                             "Ascend310P3", "Ascend910"})
        EXPECT_EQ(present.count(chip), 1u) << chip;
}

INSTANTIATE_TEST_SUITE_P(AllChips, ChipSweep, ::testing::ValuesIn(chipNames()),
                         [](const ::testing::TestParamInfo<std::string>& chip) { return chip.param; });

}  // namespace
}  // namespace ascendsim::e2e
