// data_simplification in the 2023 era (issue 14, the data-collection page): False by default, True
// by default in cluster runs (ranks > 1), and True deletes FRAMEWORK/ and the raw data under PROF_*
// after the export (the exported timeline/ and summary/ stay).
#include <gtest/gtest.h>

#include "cli_process.h"

namespace ascendsim::cli_test {
namespace {

fs::path emptyEra2023OutputDir(const std::string& name) {
    const fs::path dir = testing_scratch::scratchDir("era2023_data_simplification") / name;
    fs::remove_all(dir);
    return dir;
}

// The *_ascend_pt directories of a run of `workload` in the 2023 era, with `extra` options.
std::vector<fs::path> run2023(const std::string& workload, const std::string& name, std::vector<std::string> extra = {}) {
    const fs::path out = emptyEra2023OutputDir(name);
    std::vector<std::string> args{"--workload", (sourceDir() / workload).string(), "--format-version", "2023",
                                  "--deterministic", "--output", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome o = runAscendsim(args);
    EXPECT_EQ(o.exitCode, 0) << o.err;
    return entriesOf(out);
}

fs::path profOf(const fs::path& ascendPt) {
    for (const fs::path& p : entriesOf(ascendPt))
        if (p.filename().string().rfind("PROF_", 0) == 0) return p;
    return {};
}

bool hasRawData(const fs::path& prof) {
    bool device = false;
    for (const fs::path& p : entriesOf(prof))
        if (p.filename().string().rfind("device_", 0) == 0) device = device || fs::exists(p / "data");
    return device || fs::exists(prof / "host/data");
}

TEST(Era2023DataSimplification, OffByDefaultOnOneRankKeepingFrameworkAndRawData) {
    const auto dirs = run2023("workloads/unit/matmul.yaml", "single");
    ASSERT_EQ(dirs.size(), 1u);
    EXPECT_TRUE(fs::is_directory(dirs[0] / "FRAMEWORK"));
    const fs::path prof = profOf(dirs[0]);
    EXPECT_TRUE(hasRawData(prof)) << prof;
    EXPECT_TRUE(fs::exists(prof / "device_0/summary/op_summary_0_1.csv"));
}

TEST(Era2023DataSimplification, OnByDefaultInClusterRunsDeletingFrameworkAndRawDataButNotTheExport) {
    const auto dirs = run2023("workloads/unit/allreduce.yaml", "cluster");
    ASSERT_GE(dirs.size(), 2u);
    for (const fs::path& dir : dirs) {
        EXPECT_FALSE(fs::exists(dir / "FRAMEWORK")) << dir;
        const fs::path prof = profOf(dir);
        ASSERT_FALSE(prof.empty()) << dir;
        EXPECT_FALSE(hasRawData(prof)) << prof;
        EXPECT_TRUE(fs::exists(prof / "host/info.json")) << prof;
        bool summary = false;
        for (const fs::path& p : entriesOf(prof)) summary = summary || fs::is_directory(p / "summary");
        EXPECT_TRUE(summary) << prof;
    }
    // Given explicitly, False keeps them in a cluster run too.
    const auto kept = run2023("workloads/unit/allreduce.yaml", "cluster_kept", {"--data-simplification", "false"});
    ASSERT_GE(kept.size(), 2u);
    EXPECT_TRUE(fs::is_directory(kept[0] / "FRAMEWORK"));
    EXPECT_TRUE(hasRawData(profOf(kept[0])));
}

}  // namespace
}  // namespace ascendsim::cli_test
