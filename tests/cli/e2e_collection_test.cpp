// E2E profiling as a user runs it (docs/e2e-profiling.md): the collection's PROF_* lands directly in
// profiler_result_path (or --output), with use_e2e_profiler's torch ops as MsprofTx data, and a
// result path that cannot be used is bad input that leaves nothing behind.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_process.h"

namespace ascendsim::cli_test {
namespace {

fs::path freshDir(const std::string& name) {
    const fs::path dir = testing_scratch::scratchDir("e2e_collection") / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// The unit matmul workload with two steps and an e2e_profile: block profiling the second.
fs::path e2eWorkload(const fs::path& dir, const fs::path& resultPath, bool useE2eProfiler) {
    std::string text = slurp(sourceDir() / "workloads/unit/matmul.yaml");
    const std::string steps = "steps: 1\n";
    text.replace(text.find(steps), steps.size(), "steps: 2\n");
    text += "e2e_profile:\n  use_e2e_profiler: " + std::string(useE2eProfiler ? "true" : "false") +
            "\n  profiler_result_path: " + resultPath.string() + "\n  steps: [2]\n";
    const fs::path file = dir / "matmul_e2e.yaml";
    std::ofstream(file) << text;
    return file;
}

TEST(E2eCollection, PROFGoesDirectlyIntoProfilerResultPath) {
    const fs::path dir = freshDir("result_path");
    const fs::path result = dir / "result";
    const Outcome o = runAscendsim({"--workload", e2eWorkload(dir, result, true).string(), "--deterministic"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const auto entries = entriesOf(result);
    ASSERT_EQ(entries.size(), 1u);
    const fs::path prof = entries[0];
    EXPECT_EQ(prof.filename().string().rfind("PROF_000001_", 0), 0u) << prof;
    EXPECT_TRUE(fs::exists(prof / "host/data/unaging.api_event.data.slice_0"));
    EXPECT_TRUE(fs::exists(prof / "device_0/summary/op_summary_0_1.csv"));
    EXPECT_FALSE(fs::exists(prof / "FRAMEWORK"));
    EXPECT_NE(o.out.find("profiling data written to " + prof.string()), std::string::npos) << o.out;
    // use_e2e_profiler: the torch ops are MsprofTx ranges, raw and in the exported timeline.
    EXPECT_TRUE(fs::exists(prof / "host/data/unaging.additional.msproftx.slice_0"));
    const std::string timeline = slurp(prof / "device_0/timeline/msprof_0_1.json");
    EXPECT_NE(timeline.find("\"MsprofTx\""), std::string::npos);
    EXPECT_NE(timeline.find("\"aten::mm\""), std::string::npos);
    // Nothing else in the folder the run was started from was touched.
    EXPECT_EQ(entriesOf(dir).size(), 2u);  // the workload and result/
}

TEST(E2eCollection, WithoutUseE2eProfilerThereIsNoFrameworkData) {
    const fs::path dir = freshDir("cann_only");
    const fs::path result = dir / "result";
    ASSERT_EQ(runAscendsim({"--workload", e2eWorkload(dir, result, false).string(), "--deterministic"}).exitCode, 0);
    const fs::path prof = entriesOf(result).at(0);
    EXPECT_FALSE(fs::exists(prof / "host/data/unaging.additional.msproftx.slice_0"));
    EXPECT_EQ(slurp(prof / "device_0/timeline/msprof_0_1.json").find("aten::mm"), std::string::npos);
}

TEST(E2eCollection, OutputOnTheCommandLinePlacesItInstead) {
    const fs::path dir = freshDir("output_given");
    const Outcome o = runAscendsim({"--workload", e2eWorkload(dir, dir / "unused", true).string(), "--deterministic",
                                    "--output", (dir / "out").string()});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    EXPECT_FALSE(fs::exists(dir / "unused"));
    ASSERT_EQ(entriesOf(dir / "out").size(), 1u);
    EXPECT_EQ(entriesOf(dir / "out")[0].filename().string().rfind("PROF_", 0), 0u);
}

TEST(E2eCollection, AResultPathThatIsAFileIsBadInputNamingTheFieldAndWritesNothing) {
    const fs::path dir = freshDir("bad_path");
    std::ofstream(dir / "taken") << "a file";
    const Outcome o = runAscendsim({"--workload", e2eWorkload(dir, dir / "taken", true).string()});
    EXPECT_EQ(o.exitCode, 2) << o.err;
    EXPECT_NE(o.err.find("e2e_profile.profiler_result_path"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("is not a folder"), std::string::npos) << o.err;
    EXPECT_EQ(entriesOf(dir).size(), 2u);  // the workload and the file, nothing more
    EXPECT_EQ(slurp(dir / "taken"), "a file");
}

TEST(E2eCollection, SameInputsSameBytes) {
    const fs::path a = freshDir("same_a"), b = freshDir("same_b");
    ASSERT_EQ(runAscendsim({"--workload", e2eWorkload(a, a / "r", true).string(), "--deterministic"}).exitCode, 0);
    ASSERT_EQ(runAscendsim({"--workload", e2eWorkload(b, b / "r", true).string(), "--deterministic"}).exitCode, 0);
    const fs::path pa = entriesOf(a / "r").at(0), pb = entriesOf(b / "r").at(0);
    EXPECT_EQ(pa.filename(), pb.filename());
    for (const auto& e : fs::recursive_directory_iterator(pa)) {
        if (!e.is_regular_file()) continue;
        EXPECT_EQ(slurp(e.path()), slurp(pb / fs::relative(e.path(), pa))) << e.path();
    }
}

}  // namespace
}  // namespace ascendsim::cli_test
