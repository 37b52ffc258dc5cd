// `ascendsim msprof` as a user runs it: msprof's spelling, one PROF_* collection in --output with
// raw data and its export, deterministic, and clear errors for what it cannot do.
#include <gtest/gtest.h>

#include <set>

#include "cli_process.h"

namespace ascendsim::cli_test {
namespace {

std::set<std::string> filesUnder(const fs::path& root) {
    std::set<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        std::string rel = fs::relative(e.path(), root).string();
        rel = rel.substr(rel.find('/'));  // drop the PROF_* name
        files.insert(rel);
    }
    return files;
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = testing_scratch::scratchDir("msprof_cli") / name;
    fs::remove_all(dir);
    return dir;
}

std::vector<std::string> msprofArgs(const fs::path& out, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"msprof", "--application=" + (sourceDir() / "workloads/unit/matmul.yaml").string(),
                                  "--output=" + out.string(), "--deterministic"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(MsprofCommand, WritesOnePROFCollectionWithRawDataAndItsExport) {
    const fs::path out = freshDir("export_on");
    const Outcome o = runAscendsim(msprofArgs(out, {"--aic-metrics=PipeUtilization", "--ai-core=on", "--task-time=on",
                                                    "--export=on"}));
    ASSERT_EQ(o.exitCode, 0) << o.err;
    std::vector<fs::path> entries(fs::directory_iterator(out), fs::directory_iterator{});
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].filename().string().rfind("PROF_000001_", 0), 0u);
    const auto files = filesUnder(out);
    for (const char* f : {"/host/data/unaging.api_event.data.slice_0", "/device_0/data/stars_soc.data.0.slice_0",
                          "/mindstudio_profiler_output/op_summary_20251127120000.csv",
                          "/mindstudio_profiler_output/msprof_20251127120000.json",
                          "/mindstudio_profiler_output/api_statistic_20251127120000.csv"})
        EXPECT_TRUE(files.count(f)) << f;
    for (const auto& f : files) EXPECT_EQ(f.find("ASCEND_PROFILER_OUTPUT"), std::string::npos) << f;
    // CANN data only: the timeline has no PyTorch process.
    const std::string timeline = slurp(entries[0] / "mindstudio_profiler_output/msprof_20251127120000.json");
    EXPECT_NE(timeline.find("\"Ascend Hardware\""), std::string::npos);
    EXPECT_EQ(timeline.find("\"Python\""), std::string::npos);
    // PipeUtilization columns in op_summary.
    EXPECT_NE(slurp(entries[0] / "mindstudio_profiler_output/op_summary_20251127120000.csv").find("aic_mac_ratio"),
              std::string::npos);
}

TEST(MsprofCommand, ExportOffLeavesTheRawCollectionOnlyAndAiCoreOffDropsTheMetrics) {
    const fs::path off = freshDir("export_off");
    ASSERT_EQ(runAscendsim(msprofArgs(off, {"--export=off"})).exitCode, 0);
    for (const auto& f : filesUnder(off)) EXPECT_EQ(f.find("mindstudio_profiler_output"), std::string::npos) << f;
    const fs::path noCore = freshDir("ai_core_off");
    ASSERT_EQ(runAscendsim(msprofArgs(noCore, {"--ai-core=off"})).exitCode, 0);
    const fs::path prof = *fs::directory_iterator(noCore);
    EXPECT_EQ(slurp(prof / "mindstudio_profiler_output/op_summary_20251127120000.csv").find("aic_mac_ratio"),
              std::string::npos);
}

TEST(MsprofCommand, SameInputsSameBytes) {
    const fs::path a = freshDir("same_a"), b = freshDir("same_b");
    ASSERT_EQ(runAscendsim(msprofArgs(a)).exitCode, 0);
    ASSERT_EQ(runAscendsim(msprofArgs(b)).exitCode, 0);
    const fs::path pa = *fs::directory_iterator(a), pb = *fs::directory_iterator(b);
    for (const auto& e : fs::recursive_directory_iterator(pa)) {
        if (!e.is_regular_file()) continue;
        EXPECT_EQ(slurp(e.path()), slurp(pb / fs::relative(e.path(), pa))) << e.path();
    }
}

TEST(MsprofCommand, BadInputIsExitTwoWithTheReason) {
    const fs::path out = freshDir("bad");
    Outcome o = runAscendsim({"msprof", "--application=python3 train.py", "--output=" + out.string()});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("workload YAML"), std::string::npos) << o.err;
    o = runAscendsim({"msprof", "--export=off", "--output=" + out.string()});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("--application"), std::string::npos) << o.err;
    o = runAscendsim(msprofArgs(out, {"--task-time=sometimes"}));
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace ascendsim::cli_test
