// OutputTransaction: every rank directory and output file lands together or not at all, and
// temporaries of processes that are gone are removed by a later run.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <stdlib.h>

#include <fstream>

#include "sim/engine/exit_codes.h"
#include "sim/engine/output_transaction.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;

class Transaction : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "ascendsim_tx_XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        options_.outputParent = (dir_ / "out").string();
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    static void stageRankDirectories(const OutputTransaction& tx, int ranks) {
        for (int r = 0; r < ranks; ++r) {
            const fs::path d = tx.stagingDirectory() / ("w_" + std::to_string(r) + "_ascend_pt");
            fs::create_directories(d);
            std::ofstream(d / "kernel_details.csv") << "rank " << r;
        }
    }
    static std::size_t count(const fs::path& p) {
        std::size_t n = 0;
        std::error_code ec;
        for (auto it = fs::directory_iterator(p, ec); it != fs::directory_iterator(); ++it) ++n;
        return n;
    }
    fs::path dir_;
    SimulationOptions options_;
};

TEST_F(Transaction, CommitMovesEveryRankAndFileTogether) {
    options_.reportPath = (dir_ / "report.txt").string();
    {
        OutputTransaction tx(options_);
        stageRankDirectories(tx, 8);
        std::ofstream(tx.stageFile(options_.reportPath)) << "report";
        EXPECT_FALSE(fs::exists(options_.reportPath));
        tx.commit();
    }
    EXPECT_EQ(count(dir_ / "out"), 8u);
    EXPECT_TRUE(fs::exists(dir_ / "out/w_7_ascend_pt/kernel_details.csv"));
    EXPECT_TRUE(fs::exists(options_.reportPath));
    EXPECT_EQ(count(dir_), 2u) << "no temporaries beside the output";
}

TEST_F(Transaction, AFailureBeforeCommitLeavesNoRankAndRemovesTheCreatedFolder) {
    options_.outputParent = (dir_ / "new/nested").string();
    options_.chromeTracePath = (dir_ / "trace.json").string();
    {
        OutputTransaction tx(options_);
        EXPECT_TRUE(fs::is_directory(dir_ / "new/nested")) << "created before simulating";
        stageRankDirectories(tx, 3);  // ranks 3.. would fail: disk full
        std::ofstream(tx.stageFile(options_.chromeTracePath)) << "partial";
    }
    EXPECT_EQ(count(dir_), 0u) << "nothing of a failed run stays, not even its empty folders";
}

TEST_F(Transaction, ACollisionAtCommitMovesNoRank) {
    fs::create_directories(dir_ / "out/w_5_ascend_pt");
    OutputTransaction tx(options_);
    stageRankDirectories(tx, 8);
    EXPECT_THROW(tx.commit(), std::runtime_error);
    EXPECT_EQ(count(dir_ / "out"), 2u) << "only the existing directory and the staging folder";
}

TEST_F(Transaction, UnusableNamesAndPathsAreUsageErrors) {
    options_.workerName = "../escaped";
    EXPECT_THROW(OutputTransaction{options_}, UsageError);
    options_.workerName.reset();
    options_.hostname = "a/b";
    EXPECT_THROW(OutputTransaction{options_}, UsageError);
    options_.hostname.reset();
    options_.coreTracePath = (dir_ / "missing/trace.json").string();
    EXPECT_THROW(OutputTransaction{options_}, UsageError);
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "a rejected run creates no folder";
    EXPECT_NO_THROW(checkPathComponent("node-1_rank0", "--worker-name"));
}

pid_t deadPid() {
    const pid_t child = fork();
    if (child == 0) _exit(0);
    waitpid(child, nullptr, 0);
    return child;
}

TEST_F(Transaction, StaleTemporariesOfGoneProcessesAreRemoved) {
    fs::create_directories(dir_ / "out");
    const std::string dead = std::to_string(deadPid());
    const std::string alive = std::to_string(getpid());
    for (const auto& name : {"." + std::string("h_1_20250101_ascend_pt.tmp-") + dead + "-1",
                             "." + std::string("h_1_20250101_ascend_pt.tmp-") + alive + "-1",
                             std::string("h_1_20250101_ascend_pt")}) {
        fs::create_directories(dir_ / "out" / name / "sub");
    }
    { OutputTransaction tx(options_); }
    EXPECT_FALSE(fs::exists(dir_ / "out" / (".h_1_20250101_ascend_pt.tmp-" + dead + "-1")));
    EXPECT_TRUE(fs::exists(dir_ / "out" / (".h_1_20250101_ascend_pt.tmp-" + alive + "-1")));
    EXPECT_TRUE(fs::exists(dir_ / "out/h_1_20250101_ascend_pt"));
    // Our own staging folders of a gone pid, on this host:
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    std::string tag = host;
    for (char& c : tag)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';
    fs::create_directories(dir_ / "out" / (".ascendsim-staging-" + tag + "-" + dead));
    fs::create_directories(dir_ / "out" / (".ascendsim-staging-otherhost-" + dead));
    std::ofstream(dir_ / "out" / (".r.txt.ascendsim-tmp-" + tag + "-" + dead)) << "x";
    EXPECT_EQ(removeStaleTemporaries(dir_ / "out"), 2u);
    EXPECT_TRUE(fs::exists(dir_ / "out" / (".ascendsim-staging-otherhost-" + dead)))
        << "another host's pid proves nothing here";
}

}  // namespace
}  // namespace ascendsim
