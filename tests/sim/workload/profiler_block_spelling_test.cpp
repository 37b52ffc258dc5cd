// The workload's `profiler:` block takes torch_npu's own spellings, as torch_npu's Python does
// (issue 14 item 6), and names file/line/field for an unknown one.
#include <gtest/gtest.h>

#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::writeTempYaml;

const char* kOps =
    "name: t\n"
    "tensors:\n"
    "  - {name: a, shape: [64, 32], dtype: fp16, kind: input}\n"
    "  - {name: b, shape: [32, 16], dtype: fp16, kind: weight}\n"
    "ops:\n"
    "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n";

ProfilerConfig profilerOf(const std::string& block) {
    return loadWorkload(writeTempYaml("spelling.yaml", std::string(kOps) + block)).profiler;
}

TEST(ProfilerBlockSpelling, FullyQualifiedTorchNpuNames) {
    const ProfilerConfig p = profilerOf(
        "profiler:\n"
        "  activities: [torch_npu.profiler.ProfilerActivity.NPU]\n"
        "  experimental_config:\n"
        "    profiler_level: torch_npu.profiler.ProfilerLevel.Level2\n"
        "    aic_metrics: torch_npu.profiler.AiCMetrics.MemoryL0\n"
        "    export_type: [torch_npu.profiler.ExportType.Text, torch_npu.profiler.ExportType.Db]\n");
    EXPECT_FALSE(p.activityCpu);
    EXPECT_TRUE(p.activityNpu);
    EXPECT_EQ(p.level, ProfilerLevel::Level2);
    EXPECT_EQ(p.aicMetrics, AicMetrics::MemoryL0);
    EXPECT_TRUE(p.exportsText());
    EXPECT_TRUE(p.exportsDb());
}

TEST(ProfilerBlockSpelling, ClassNamesAclNamesAndNumbers) {
    EXPECT_EQ(profilerOf("profiler: {experimental_config: {profiler_level: ProfilerLevel.Level1}}\n").level,
              ProfilerLevel::Level1);
    EXPECT_EQ(profilerOf("profiler: {experimental_config: {aic_metrics: ACL_AICORE_MEMORY_UB}}\n").aicMetrics,
              AicMetrics::MemoryUB);
    EXPECT_EQ(profilerOf("profiler: {experimental_config: {aic_metrics: 4}}\n").aicMetrics,
              AicMetrics::ResourceConflictRatio);
    EXPECT_EQ(profilerOf("profiler: {experimental_config: {aic_metrics: 0xFF}}\n").aicMetrics, AicMetrics::None);
    const ProfilerConfig db = profilerOf("profiler: {experimental_config: {export_type: ExportType.Db}}\n");
    EXPECT_FALSE(db.exportsText());
    EXPECT_TRUE(db.exportsDb());
}

TEST(ProfilerBlockSpelling, UnknownValueNamesFileLineFieldAndTheValidOnes) {
    const std::string path = writeTempYaml("bad_spelling.yaml", std::string(kOps) +
                                                                    "profiler:\n"
                                                                    "  activities: [CPU, GPU]\n");
    try {
        loadWorkload(path);
        FAIL() << "GPU accepted";
    } catch (const WorkloadError& e) {
        EXPECT_EQ(e.where().line, 8);
        EXPECT_EQ(e.field(), "profiler.activities");
        EXPECT_EQ(e.problem(), "unknown activity 'GPU'; valid: CPU, NPU; each also as ProfilerActivity.X or "
                               "torch_npu.profiler.ProfilerActivity.X");
    }
}

}  // namespace
}  // namespace ascendsim
