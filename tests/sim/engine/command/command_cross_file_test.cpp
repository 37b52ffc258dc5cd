// The files of one `ascendsim` run agree with each other: kernel_details.csv, op_statistic.csv and
// trace_view.json describe the same kernels with the same times, the torch→NPU and host→device
// flows land on real kernels, and the PMU columns are self-consistent (formats.md §3.1, §3.2, §3.5).
#include <gtest/gtest.h>

#include "sim/engine/cross_file_checks.h"

namespace ascendsim::e2e {
namespace {

// Cube and vector kernels, an op type launched twice per step, and two recorded steps.
constexpr const char* kMixedWorkload =
    "name: mixed_cube_vector\n"
    "steps: 2\n"
    "tensors:\n"
    "  - {name: a, shape: [128, 512], dtype: fp16, kind: input}\n"
    "  - {name: w1, shape: [512, 512], dtype: fp16, kind: weight}\n"
    "  - {name: w2, shape: [512, 128], dtype: fp16, kind: weight}\n"
    "  - {name: bias, shape: [512], dtype: fp16, kind: weight}\n"
    "ops:\n"
    "  - {name: mm1, type: MatMul, inputs: [a, w1], outputs: [h], aten: aten::mm}\n"
    "  - {name: add1, type: Add, inputs: [h, bias], outputs: [hb], aten: aten::add}\n"
    "  - {name: relu, type: Relu, inputs: [hb], outputs: [r], aten: aten::relu}\n"
    "  - {name: add2, type: Add, inputs: [r, bias], outputs: [rb], aten: aten::add}\n"
    "  - {name: mm2, type: MatMul, inputs: [rb, w2], outputs: [y], aten: aten::mm}\n";

class CrossFile : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        scratch_ = new TempDir;
        const fs::path workload = scratch_->path() / "mixed.yaml";
        std::ofstream(workload) << kMixedWorkload;
        const fs::path out = scratch_->path() / "out";
        fs::create_directory(out);
        auto options = commandOptions(workload, out);
        options.level = "Level2";
        const auto outcome = runCommand(options);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        files_ = new ProfilerOutputFiles(onlyProfilerDir(out) / "ASCEND_PROFILER_OUTPUT");
    }
    static void TearDownTestSuite() {
        delete files_;
        delete scratch_;
    }
    static const ProfilerOutputFiles& files() { return *files_; }

    static inline TempDir* scratch_ = nullptr;
    static inline ProfilerOutputFiles* files_ = nullptr;
};

TEST_F(CrossFile, TraceView_IsAJsonListWithDurOnEveryCompleteEvent) {
    EXPECT_GT(expectTraceViewWellFormed(files()), 10u);
}

TEST_F(CrossFile, KernelDetails_EveryDurationNumericAndStartTabbed) {
    ASSERT_EQ(files().kernels.rows.size(), 10u);  // 5 kernels × 2 steps
    expectKernelDetailsValueShapes(files());
}

TEST_F(CrossFile, EveryKernelRow_IsAnAscendHardwareEventWithSameStartAndDuration) {
    expectKernelRowsInTrace(files());
}

TEST_F(CrossFile, OpStatistic_IsTheAggregationOfKernelDetails) {
    const auto counts = expectOpStatisticAggregatesKernels(files());
    EXPECT_EQ(counts.at({"Add", "AI_VECTOR_CORE"}), 4);  // two Adds per step
}

TEST_F(CrossFile, EveryKernel_HasOneTorchToNpuFlowFromTheLaunchingTorchOp) {
    expectTorchToNpuFlowPerKernel(files());
}

TEST_F(CrossFile, EveryNodeLaunch_HasAHostToDeviceFlowToItsKernel) {
    expectHostToDeviceFlowPerLaunch(files());
}

TEST_F(CrossFile, PmuColumns_RatiosInUnitRangeAndPipeTimesWithinCoreTime) {
    EXPECT_EQ(expectPmuColumnsConsistent(files()), 10 * 11);  // 10 rows × (6 aic + 5 aiv ratio/rate columns)
}

TEST_F(CrossFile, VectorKernels_RunOnAivAndCubeKernelsOnAic) {
    const CsvTable& k = files().kernels;
    for (std::size_t r = 0; r < k.rows.size(); ++r) {
        const bool cube = k.cell(r, "Type") == "MatMul";
        EXPECT_EQ(k.cell(r, "Accelerator Core"), cube ? "AI_CORE" : "AI_VECTOR_CORE");
        EXPECT_GT(numberCell(k.cell(r, cube ? "aicore_time(us)" : "aiv_time(us)")), 0.0);
        EXPECT_EQ(numberCell(k.cell(r, cube ? "aiv_time(us)" : "aicore_time(us)")), 0.0);
    }
}

}  // namespace
}  // namespace ascendsim::e2e
