// --write-threads: the rank directories of a multi-rank run written on several host threads are
// the bytes one thread writes, listed in rank order (sim/engine/cluster/rank_directory_writer.h).
#include <gtest/gtest.h>

#include "sim/engine/cluster/rank_directory_writer.h"
#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

void expectSameTrees(const fs::path& a, const fs::path& b) {
    const auto files = relativeFiles(a);
    ASSERT_EQ(files, relativeFiles(b));
    for (const auto& f : files) EXPECT_EQ(readFile(a / f), readFile(b / f)) << f;
}

std::string withoutParent(std::string text, const fs::path& parent) {
    const std::string p = parent.string();
    for (std::size_t at = text.find(p); at != std::string::npos; at = text.find(p, at)) text.replace(at, p.size(), "OUT");
    return text;
}

// The slow rank makes two rank kinds, so the threads write records of different classes.
TEST(WriteThreads, SeveralThreadsWriteTheBytesOfOne) {
    TempDir one, three;
    SimulationOptions options = commandOptions(unitWorkload("tp_dp.yaml"), one.path());
    options.setOverrides = {"slow_rank=1:1.5"};
    options.writeThreads = 1;
    const CommandOutcome first = runCommand(options);
    ASSERT_EQ(first.exitCode, 0) << first.err;
    options.outputParent = three.path().string();
    options.writeThreads = 3;
    const CommandOutcome second = runCommand(options);
    ASSERT_EQ(second.exitCode, 0) << second.err;
    ASSERT_EQ(entriesOf(one.path()).size(), 4u);
    expectSameTrees(one.path(), three.path());
    // Both list the directories in rank order on stdout.
    EXPECT_EQ(withoutParent(first.out, one.path()), withoutParent(second.out, three.path()));
}

TEST(WriteThreads, DefaultSharesTheHardwareThreadsAmongTheProcesses) {
    EXPECT_GE(defaultWriteThreads(1), 1u);
    EXPECT_EQ(defaultWriteThreads(1024), 1u);
}

}  // namespace
}  // namespace ascendsim::e2e
