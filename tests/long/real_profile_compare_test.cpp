// `ascendsim compare` on the real samples of all three format eras (long tier: needs
// /work/shared/reference/real-profiles, skips without it): per-kernel rows and pipe ratios load.
#include <gtest/gtest.h>

#include <sstream>

#include "profiler/report/profile_comparison.h"
#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

TEST(RealProfileCompare, RealProfilesOfEveryEraLoadWithKernelsAndMetrics) {
    const fs::path root = sourceDir() / ".." / "shared" / "reference" / "real-profiles" / "msinsight";
    const std::vector<fs::path> samples = {
        root / "c1e639ee" / "test" / "data" / "pytorch" / "text" / "level0" / "rank0_ascend_pt",
        root / "e5a31957" / "test" / "data" / "pytorch" / "text" / "level2" / "rank0_ascend_pt",
        root / "ef63bc64" / "test" / "st" / "level2" / "rank_0_ascend_pt"};
    for (const auto& dir : samples) {
        if (!fs::is_directory(dir)) GTEST_SKIP() << "reference samples not present";
        const ProfileSummary s = loadProfileSummary(dir);
        EXPECT_EQ(s.kernels.size(), s.kernelCount) << dir;
        EXPECT_FALSE(matchedKernels(s).empty()) << dir;
        std::ostringstream report;
        writeProfileComparison(s, s, 5, report);
        EXPECT_NE(report.str().find("Top kernel changes per step"), std::string::npos) << dir;
    }
    // Level2 PipeUtilization samples carry the pipe ratios.
    const ProfileSummary level2 = loadProfileSummary(samples[1]);
    EXPECT_TRUE(weightedMetrics(level2).count("aic_mte2_ratio"));
    EXPECT_TRUE(weightedMetrics(level2).count("aiv_mte3_ratio"));
}

}  // namespace
}  // namespace ascendsim::e2e
