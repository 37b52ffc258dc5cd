// The exit-code contract (README "Exit codes"): 0 success, 2 bad input or usage (CLI parser
// errors included), 1 runtime failure with the system's reason, 130/143 interrupted; every error
// on stderr, and a failed or interrupted run leaves no output behind.
#include <gtest/gtest.h>

#include <stdlib.h>

#include "cli_process.h"

namespace ascendsim::cli_test {
namespace {

class ExitCodes : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "ascendsim_cli_XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::vector<std::string> run(std::vector<std::string> extra) {
        std::vector<std::string> args{"-w", (sourceDir() / "workloads/unit/matmul.yaml").string(),
                                      "--deterministic", "-o", (dir_ / "out").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
    // A rejected run: the code, one stderr line, nothing on stdout, nothing in --output.
    Outcome expectRejected(const std::vector<std::string>& args, int code) {
        Outcome o = runAscendsim(args);
        EXPECT_EQ(o.exitCode, code) << o.err;
        EXPECT_EQ(o.out, "");
        EXPECT_FALSE(o.err.empty());
        EXPECT_TRUE(entriesOf(dir_ / "out").empty()) << "a rejected run left output";
        return o;
    }
    fs::path dir_;
};

TEST_F(ExitCodes, ParserErrorsAreTwoOnStderr) {
    expectRejected({"--no-such-option"}, 2);            // CLI11: 109
    expectRejected({"--steps", "many"}, 2);             // CLI11: 105
    expectRejected({"compare", "only-one"}, 2);         // CLI11: 106
    expectRejected(run({"--threads", "3"}), 2);         // CLI11: 105 (validation)
    expectRejected(run({"--log-level", "loud"}), 2);    // was: logging silently off
    expectRejected(run({"--rank", "-1"}), 2);           // was: ignored
    expectRejected(run({"--rank", "99999999999999999999"}), 2);  // was: clamped
    expectRejected(run({"--epoch-ns", "18446744073709551615"}), 2);  // was: wrapped
    expectRejected({}, 2);                              // no --workload
}

TEST_F(ExitCodes, HelpListsTheContractAndExitsZero) {
    const Outcome o = runAscendsim({"--help"});
    EXPECT_EQ(o.exitCode, 0);
    EXPECT_NE(o.out.find("Exit codes"), std::string::npos);
    EXPECT_NE(o.out.find("130/143"), std::string::npos);
}

TEST_F(ExitCodes, NamesThatBecomePathsMustBePlain) {
    const Outcome o = expectRejected(run({"--worker-name", "../escaped"}), 2);
    EXPECT_NE(o.err.find("--worker-name '../escaped'"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "escaped_0"));
    for (const auto& e : entriesOf(dir_)) EXPECT_EQ(e.filename(), "out") << e;
    expectRejected(run({"--hostname", ".."}), 2);
}

TEST_F(ExitCodes, OutputPathsAreCheckedBeforeSimulating) {
    std::ofstream(dir_ / "a-file") << "x";
    Outcome o = expectRejected(run({"--report", (dir_ / "missing/report.txt").string()}), 2);
    EXPECT_NE(o.err.find("--report"), std::string::npos) << o.err;
    expectRejected(run({"--chrome-trace", dir_.string()}), 2);  // a folder
    expectRejected(run({"--core-trace", (dir_ / "a-file/x.json").string()}), 2);
    o = runAscendsim({"-w", (sourceDir() / "workloads/unit/matmul.yaml").string(), "-o",
                      (dir_ / "a-file/sub").string()});
    EXPECT_EQ(o.exitCode, 2) << o.err;
    EXPECT_NE(o.err.find("--output"), std::string::npos) << o.err;
}

TEST_F(ExitCodes, AFullDiskIsARuntimeFailureWithTheReasonAndNoOutput) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    const Outcome o = runAscendsim(run({"--report", "/dev/full"}));
    EXPECT_EQ(o.exitCode, 1) << o.err;
    EXPECT_NE(o.err.find("No space left on device"), std::string::npos) << o.err;
}

TEST_F(ExitCodes, BadInputSubcommandsReportOnStderr) {
    Outcome o = runAscendsim({"chips", "--config-dir", (dir_ / "none").string()});
    EXPECT_EQ(o.exitCode, 2) << o.err;
    EXPECT_EQ(o.out, "");
    o = runAscendsim({"microbench", "--chip", "NoSuchChip"});
    EXPECT_EQ(o.exitCode, 2) << o.err;
    EXPECT_EQ(o.out, "");
    EXPECT_NE(o.err.find("ascendsim microbench: "), std::string::npos) << o.err;
    o = runAscendsim({"compare", (dir_ / "x").string(), (dir_ / "y").string()});
    EXPECT_EQ(o.exitCode, 2) << o.err;
}

TEST_F(ExitCodes, ASuccessfulRunIsZeroAndCommitsEverything) {
    const Outcome o = runAscendsim(run({"--report", (dir_ / "report.txt").string(),
                                        "--chrome-trace", (dir_ / "trace.json").string()}));
    ASSERT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(fs::file_size(dir_ / "report.txt") > 0);
    EXPECT_TRUE(fs::file_size(dir_ / "trace.json") > 0);
    const auto entries = entriesOf(dir_ / "out");
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_NE(entries[0].filename().string().find("_ascend_pt"), std::string::npos);
    for (const auto& e : entriesOf(dir_))
        EXPECT_NE(e.filename().string()[0], '.') << "temporary left: " << e;
}

void expectInterrupted(const fs::path& dir, int signal, int code) {
    const fs::path out = dir / ("out" + std::to_string(signal));
    const Outcome o = runAscendsim({"-w", (sourceDir() / "workloads/resnet50.yaml").string(), "-o",
                                    out.string(), "--report", (dir / "r.txt").string()},
                                   signal, out);
    EXPECT_EQ(o.exitCode, code) << o.err;
    EXPECT_NE(o.err.find("interrupted by"), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_TRUE(entriesOf(out).empty()) << "temporary output left behind";
    EXPECT_FALSE(fs::exists(dir / "r.txt"));
    for (const auto& e : entriesOf(dir)) {  // the (empty) output folders the runs created
        EXPECT_TRUE(fs::is_directory(e) && entriesOf(e).empty()) << "left behind: " << e;
    }
}

TEST_F(ExitCodes, SigintAndSigtermRemoveTemporariesAndExit130And143) {
    expectInterrupted(dir_, SIGINT, 130);
    expectInterrupted(dir_, SIGTERM, 143);
}

}  // namespace
}  // namespace ascendsim::cli_test
