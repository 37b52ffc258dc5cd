// The long tier (`ctest -L long`, not run by CI): the cross-file checks of the CI tier's small
// workloads, applied to full-size runs — the main job (ResNet-50 batch 32, Level2) under every
// aic_metrics group, and a ResNet-50 training run — plus byte-identical repeats of the main job.
#include <gtest/gtest.h>

#include "sim/engine/cross_file_checks.h"

namespace ascendsim::e2e {
namespace {

fs::path workloadFile(const std::string& name) { return sourceDir() / "workloads" / name; }

// Runs `options` and returns the ASCEND_PROFILER_OUTPUT of its only result directory.
fs::path runFullSize(const SimulationOptions& options) {
    const auto outcome = runCommand(options);
    EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
    return onlyProfilerDir(options.outputParent) / "ASCEND_PROFILER_OUTPUT";
}

void expectConsistent(const fs::path& outputDir, const std::string& what) {
    SCOPED_TRACE(what);
    const ProfilerOutputFiles files(outputDir);
    EXPECT_GT(files.kernels.rows.size(), 300u) << "a full-size run has hundreds of kernels";
    EXPECT_GT(expectTraceViewWellFormed(files), files.kernels.rows.size());
    expectKernelDetailsValueShapes(files);
    expectKernelRowsInTrace(files);
    expectOpStatisticAggregatesKernels(files);
    expectTorchToNpuFlowPerKernel(files);
    expectHostToDeviceFlowPerLaunch(files);
    expectPmuColumnsConsistent(files);
}

TEST(FullSize, MainJob_EveryAicMetricsGroup_FilesAgreeWithEachOther) {
    for (const char* group : {"PipeUtilization", "ArithmeticUtilization", "Memory", "MemoryL0", "MemoryUB",
                              "ResourceConflictRatio", "L2Cache", "MemoryAccess"}) {
        TempDir out;
        auto options = commandOptions(workloadFile("resnet50.yaml"), out.path());
        options.level = "Level2";
        options.aicMetrics = group;
        expectConsistent(runFullSize(options), group);
    }
}

TEST(FullSize, TrainingRun_FilesAgreeWithEachOther) {
    TempDir out;
    auto options = commandOptions(workloadFile("resnet50_train.yaml"), out.path());
    options.level = "Level2";
    expectConsistent(runFullSize(options), "resnet50_train");
}

TEST(FullSize, MainJob_TwoRunsByteIdentical) {
    TempDir first, second;
    const auto a = onlyProfilerDir((runFullSize(commandOptions(workloadFile("resnet50.yaml"), first.path())),
                                    first.path()));
    const auto b = onlyProfilerDir((runFullSize(commandOptions(workloadFile("resnet50.yaml"), second.path())),
                                    second.path()));
    const auto files = relativeFiles(a);
    ASSERT_EQ(files, relativeFiles(b));
    ASSERT_GT(files.size(), 20u);
    for (const auto& file : files) EXPECT_EQ(readFile(a / file), readFile(b / file)) << file;
}

}  // namespace
}  // namespace ascendsim::e2e
