// --write-threads: the rank directories of a multi-rank run written on several host threads are
// the bytes one thread writes, listed in rank order (sim/engine/cluster/rank_directory_writer.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "sim/engine/cluster/rank_directory_writer.h"
#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

void expectSameTrees(const fs::path& a, const fs::path& b) {
    const auto files = relativeFiles(a);
    ASSERT_EQ(files, relativeFiles(b));
    for (const auto& f : files) EXPECT_EQ(readFile(a / f), readFile(b / f)) << f;
}

// The "profiling data written to DIR" lines of a run's stdout, with its output parent as OUT (the
// report above them carries the wall time, which differs between runs).
std::vector<std::string> writtenDirectories(const std::string& out, const fs::path& parent) {
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with("profiling data written to ")) continue;
        const std::string p = parent.string();
        for (std::size_t at = line.find(p); at != std::string::npos; at = line.find(p, at)) line.replace(at, p.size(), "OUT");
        lines.push_back(line);
    }
    return lines;
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
    const auto listed = writtenDirectories(first.out, one.path());
    EXPECT_EQ(listed.size(), 4u);
    EXPECT_TRUE(std::is_sorted(listed.begin(), listed.end()));
    EXPECT_EQ(listed, writtenDirectories(second.out, three.path()));
}

TEST(WriteThreads, DefaultSharesTheHardwareThreadsAmongTheProcesses) {
    EXPECT_GE(defaultWriteThreads(1), 1u);
    EXPECT_EQ(defaultWriteThreads(1024), 1u);
}

}  // namespace
}  // namespace ascendsim::e2e
