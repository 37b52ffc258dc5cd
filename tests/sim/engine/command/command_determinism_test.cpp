// `--deterministic`: two runs of the same command give byte-identical output trees, so results can
// be diffed and committed as golden files.
#include <gtest/gtest.h>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

// Compares two trees file by file; names the first differing byte of each differing file.
void expectIdenticalTrees(const fs::path& a, const fs::path& b) {
    const auto filesA = relativeFiles(a);
    ASSERT_EQ(filesA, relativeFiles(b));
    for (const auto& rel : filesA) {
        const std::string bytesA = readFile(a / rel), bytesB = readFile(b / rel);
        if (bytesA == bytesB) continue;
        const auto mismatch = std::mismatch(bytesA.begin(), bytesA.end(), bytesB.begin(), bytesB.end());
        ADD_FAILURE() << rel << " differs at byte " << (mismatch.first - bytesA.begin()) << " (sizes "
                      << bytesA.size() << " and " << bytesB.size() << ")";
    }
}

void expectIdenticalRuns(SimulationOptions options, SimulationOptions other, std::size_t minimumFiles) {
    TempDir first, second;
    options.outputParent = first.path().string();
    ASSERT_EQ(runCommand(options).exitCode, 0);
    other.outputParent = second.path().string();
    ASSERT_EQ(runCommand(other).exitCode, 0);

    EXPECT_EQ(fileNames(first.path()), fileNames(second.path()));  // the *_ascend_pt name itself
    const fs::path dirA = onlyProfilerDir(first.path()), dirB = onlyProfilerDir(second.path());
    EXPECT_GE(relativeFiles(dirA).size(), minimumFiles);
    expectIdenticalTrees(dirA, dirB);
}

void expectDeterministic(const SimulationOptions& options, std::size_t minimumFiles) {
    expectIdenticalRuns(options, options, minimumFiles);
}

TEST(Determinism, VectorChainLevel2TextAndDb_ByteIdenticalTrees) {
    auto options = commandOptions(unitWorkload("elementwise_chain.yaml"), "");
    options.setOverrides = {"batch=16", "cols=512"};
    options.level = "Level2";
    options.exportType = "text,db";
    options.steps = 2;
    expectDeterministic(options, 20);
}

TEST(Determinism, MatMulLevel1MemoryMetricsWithL2Cache_ByteIdenticalTrees) {
    auto options = commandOptions(unitWorkload("matmul.yaml"), "");
    options.setOverrides = {"m=256", "k=256", "n=128"};
    options.level = "Level1";
    options.aicMetrics = "Memory";
    options.l2Cache = true;
    expectDeterministic(options, 15);
}

// Programs generated on a second host thread (--threads 2) are the same programs: the output does
// not depend on the host thread count. ResNet-50 at batch 2 has every kernel kind of the main job
// and enough blocks for the worker to run ahead and to be overtaken.
TEST(Determinism, OneAndTwoHostThreads_ByteIdenticalTrees) {
    auto options = commandOptions(sourceDir() / "workloads" / "resnet50.yaml", "");
    options.setOverrides = {"batch=2"};
    options.level = "Level2";
    options.steps = 3;  // wait, warm-up, one recorded step
    options.hostThreads = 1;
    auto twoThreads = options;
    twoThreads.hostThreads = 2;
    expectIdenticalRuns(options, twoThreads, 15);
}

TEST(Determinism, DifferentEpoch_ChangesTheOutput) {
    // The comparison above must be able to fail: a different fixed epoch moves every timestamp.
    auto options = commandOptions(unitWorkload("matmul.yaml"), "");
    options.setOverrides = {"m=64", "k=64", "n=64"};
    TempDir first, second;
    options.outputParent = first.path().string();
    ASSERT_EQ(runCommand(options).exitCode, 0);
    options.outputParent = second.path().string();
    options.epochNs = 1700000000000000000ull;
    ASSERT_EQ(runCommand(options).exitCode, 0);
    const fs::path a = onlyProfilerDir(first.path()), b = onlyProfilerDir(second.path());
    EXPECT_NE(a.filename(), b.filename());
    EXPECT_NE(readFile(a / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"),
              readFile(b / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"));
}

}  // namespace
}  // namespace ascendsim::e2e
