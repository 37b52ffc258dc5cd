// The workload's e2e_profile: block (sim/workload/blocks/e2e_profile_block.h): defaults, flags, the
// profiled steps, and bad values naming file, line and field.
#include "sim/workload/blocks/e2e_profile_block.h"

#include <gtest/gtest.h>

#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::writeTempYaml;

const std::string kBase =
    "name: t\n"                                                  // 1
    "steps: 12\n"                                                // 2
    "tensors:\n"                                                 // 3
    "  - {name: a, shape: [64, 32], dtype: fp16, kind: input}\n" // 4
    "  - {name: b, shape: [32, 16], dtype: fp16, kind: weight}\n" // 5
    "ops:\n"                                                     // 6
    "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n"; // 7

Workload load(const std::string& block) { return loadWorkload(writeTempYaml("e2e.yaml", kBase + block)); }

std::string errorOf(const std::string& block) {
    try {
        load(block);
    } catch (const WorkloadError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no WorkloadError for:\n" << block;
    return "";
}

TEST(E2eProfileBlock, DefaultsAreProfileConfigsAndTheRunIsThe2023EraAtLevel1) {
    const Workload w = load("e2e_profile: {use_e2e_profiler: true}\n");
    ASSERT_TRUE(w.profiler.e2e.has_value());
    const AclProfFlags& f = w.profiler.e2e->flags;
    EXPECT_TRUE(f.aclApi && f.taskTime && f.aicoreMetrics && f.aicpu && f.hcclTrace);
    EXPECT_FALSE(f.l2cache || f.trainingTrace);
    EXPECT_EQ(w.profiler.formatVersion, FormatVersion::Era2023);
    EXPECT_EQ(w.profiler.level, ProfilerLevel::Level1);
    EXPECT_EQ(w.profiler.effectiveAicMetrics(), AicMetrics::PipeUtilization);  // aiCoreMetricsType 1
    EXPECT_TRUE(w.profiler.activityCpu);
}

TEST(E2eProfileBlock, StepElevenAfterTenWarmupStepsIsTheScheduleSkippingTen) {
    const Workload w = load("e2e_profile: {use_e2e_profiler: true, steps: [11]}\n");
    ASSERT_TRUE(w.profiler.schedule.has_value());
    EXPECT_EQ(w.profiler.schedule->skipFirst, 10U);
    EXPECT_EQ(w.profiler.schedule->active, 1U);
}

TEST(E2eProfileBlock, WithoutUseE2eProfilerThereIsNoFrameworkActivity) {
    const Workload w = load("e2e_profile: {use_e2e_profiler: false}\n");
    EXPECT_FALSE(w.profiler.activityCpu);
    EXPECT_TRUE(w.profiler.activityNpu);
}

TEST(E2eProfileBlock, FlagsAndMetricsTypeOfTheConfigMap) {
    const Workload w = load(
        "e2e_profile:\n"
        "  config: {ACL_PROF_L2CACHE: true, ACL_PROF_AICPU: false, aiCoreMetricsType: 0xFF}\n");
    EXPECT_TRUE(w.profiler.e2e->flags.l2cache);
    EXPECT_FALSE(w.profiler.e2e->flags.aicpu);
    EXPECT_TRUE(w.profiler.l2Cache);
    EXPECT_EQ(w.profiler.effectiveAicMetrics(), AicMetrics::None);
}

TEST(E2eProfileBlock, AicoreMetricsOffMeansNoMetricsWhateverTheType) {
    const Workload w = load("e2e_profile: {config: {ACL_PROF_AICORE_METRICS: false, aiCoreMetricsType: 2}}\n");
    EXPECT_EQ(w.profiler.effectiveAicMetrics(), AicMetrics::None);
}

TEST(E2eProfileBlock, BadValuesNameFileLineAndField) {
    EXPECT_NE(errorOf("e2e_profile:\n  config: {aiCoreMetricsType: 7}\n").find(":9:"), std::string::npos);
    EXPECT_NE(errorOf("e2e_profile:\n  config: {aiCoreMetricsType: 7}\n").find("0, 1, 2, 3, 4, 5 or 0xFF"),
              std::string::npos);
    EXPECT_NE(errorOf("e2e_profile:\n  config: {ACL_PROF_FOO: true}\n").find("e2e_profile.config.ACL_PROF_FOO"),
              std::string::npos);
    EXPECT_NE(errorOf("e2e_profile: {steps: [13]}\n").find("1..12"), std::string::npos);
    EXPECT_NE(errorOf("e2e_profile: {steps: [3, 5]}\n").find("consecutive"), std::string::npos);
    EXPECT_NE(errorOf("e2e_profile: {use_e2e_profiler: maybe}\n").find("e2e_profile.use_e2e_profiler"),
              std::string::npos);
    EXPECT_NE(errorOf("e2e_profile: {colour: red}\n").find("colour"), std::string::npos);
}

TEST(AclProfOption, SetsFlagsAndRejectsUnknownOnes) {
    AclProfFlags flags;
    applyAclProfOption("ACL_PROF_TASK_TIME=false,ACL_PROF_L2CACHE=true", flags);
    EXPECT_FALSE(flags.taskTime);
    EXPECT_TRUE(flags.l2cache);
    EXPECT_THROW(applyAclProfOption("ACL_PROF_NOPE=true", flags), WorkloadError);
    EXPECT_THROW(applyAclProfOption("ACL_PROF_AICPU", flags), WorkloadError);
}

}  // namespace
}  // namespace ascendsim
