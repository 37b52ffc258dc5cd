// workloads/unit/cnn_training_ops.yaml end to end: every op type added for the AlexNet training
// samples loads from workload YAML, lowers and runs, and kernel_details names each with its
// (nonzero) duration.
#include <gtest/gtest.h>

#include <set>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

TEST(CnnTrainingOpsRun, EveryNewOpTypeRunsFromWorkloadYaml) {
    TempDir out;
    auto options = commandOptions(unitWorkload("cnn_training_ops.yaml"), out.path());
    options.level = "Level2";
    const auto outcome = runCommand(options);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    const CsvTable kernels = readCsv(onlyProfilerDir(out.path()) / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
    std::set<std::string> types;
    for (std::size_t r = 0; r < kernels.rows.size(); ++r) {
        types.insert(kernels.cell(r, "Type"));
        EXPECT_GT(numberCell(kernels.cell(r, "Duration(us)")), 0.0) << kernels.cell(r, "Name");
    }
    for (const char* type : {"MaxPoolWithArgmaxV1", "MaxPoolGradWithArgmaxV1", "DropOutDoMask", "NLLLoss", "NLLLossGrad",
                             "AxpyV2", "TransData", "BroadcastTo", "AdaptiveAvgPool3d", "AdaptiveAvgPool3dGrad"})
        EXPECT_TRUE(types.count(type)) << type;
}

}  // namespace
}  // namespace ascendsim::e2e
