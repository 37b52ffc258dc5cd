// Sampled HBM/LLC counters of whole simulated runs: they are the memory model's traffic, so they
// add up to what the kernels' PMU counters saw, grow with the traffic, and show the L2 reuse.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/engine/e2e_support.h"
#include "sim/engine/simulation.h"

namespace ascendsim::e2e {
namespace {

// The unit MatMul workload with profile_memory on, `steps` steps, all recorded.
fs::path matmulWithProfileMemory(const fs::path& dir, int steps) {
    std::ifstream unit(unitWorkload("matmul.yaml"));
    std::string text((std::istreambuf_iterator<char>(unit)), std::istreambuf_iterator<char>());
    const std::string stepsLine = "steps: 1\n";
    text.replace(text.find(stepsLine), stepsLine.size(), "steps: " + std::to_string(steps) + "\n");
    text += "profiler:\n  profile_memory: true\n";
    const fs::path path = dir / "matmul_profile_memory.yaml";
    std::ofstream(path) << text;
    return path;
}

std::uint64_t sampledHbmReadBytes(const RunRecord& record) {
    std::uint64_t bytes = 0;
    for (const auto& sample : record.hardwareSamples)
        for (std::uint64_t stack : sample.hbmReadBytes) bytes += stack;
    return bytes;
}

std::uint64_t kernelHbmReadBytes(const RunRecord& record) {
    std::uint64_t units = 0;
    for (const auto& k : record.kernels)
        units +=
            k.device.cubeSum[PmuEvent::MainMemRead] + k.device.vectorSum[PmuEvent::MainMemRead];
    return units * 8;  // main_mem_read counts 8-byte units
}

// LLC read hit ratio over the samples of the window that starts at windowStartNs.
double windowHitRatio(const RunRecord& record, std::uint64_t windowStartNs,
                      std::uint64_t windowEndNs) {
    std::uint64_t hits = 0, lookups = 0;
    for (const auto& sample : record.hardwareSamples) {
        if (sample.timeNs <= windowStartNs || sample.timeNs > windowEndNs) continue;
        for (std::size_t llc = 0; llc < sample.llcReadHits.size(); ++llc) {
            hits += sample.llcReadHits[llc];
            lookups += sample.llcReadHits[llc] + sample.llcReadMisses[llc];
        }
    }
    return lookups == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(lookups);
}

SimulationResult simulate(const fs::path& workload, std::vector<std::string> overrides = {}) {
    TempDir unused;
    SimulationOptions options = commandOptions(workload, unused.path());
    options.setOverrides = std::move(overrides);
    return runSimulation(options);
}

TEST(HardwareSamplesRun, SamplesAddUpToTheKernelsHbmTraffic) {
    TempDir dir;
    const SimulationResult result = simulate(matmulWithProfileMemory(dir.path(), 1));
    ASSERT_GE(result.record.hardwareSamples.size(), 2u);  // the zero sample, then at least one
    EXPECT_GT(sampledHbmReadBytes(result.record), 0u);
    EXPECT_EQ(sampledHbmReadBytes(result.record), kernelHbmReadBytes(result.record));
}

TEST(HardwareSamplesRun, HbmReadsGrowWithTheOperandBytes) {
    TempDir dir;
    const fs::path workload = matmulWithProfileMemory(dir.path(), 1);
    // y[M, N] = a[M, K] x b[K, N] in fp16 on a 192 MiB L2: each operand is fetched from HBM once,
    // so the sampled reads are the operand bytes: 2 x (1024 x 1024 + 1024 x 1024) = 4 MiB, then
    // 2 x (2048 x 2048 + 2048 x 1024) = 12 MiB, three times as much. The launch also fetches its
    // argument record's line once (512 B, docs/fidelity.md §58).
    constexpr std::uint64_t kArgumentLine = 512;
    const std::uint64_t base =
        sampledHbmReadBytes(simulate(workload, {"m=1024", "k=1024", "n=1024"}).record);
    const std::uint64_t larger =
        sampledHbmReadBytes(simulate(workload, {"m=2048", "k=2048", "n=1024"}).record);
    EXPECT_EQ(base, (4u << 20) + kArgumentLine);
    EXPECT_EQ(larger - kArgumentLine, 3 * (base - kArgumentLine));
}

TEST(HardwareSamplesRun, SecondStepOverL2ResidentOperandsHitsMore) {
    TempDir dir;
    const SimulationResult result = simulate(matmulWithProfileMemory(dir.path(), 2));
    const auto& steps = result.record.steps;
    ASSERT_EQ(steps.size(), 2u);
    const double first = windowHitRatio(result.record, steps[0].startNs, steps[0].endNs);
    const double second = windowHitRatio(result.record, steps[1].startNs, steps[1].endNs);
    EXPECT_GE(first, 0.0);
    EXPECT_LE(second, 1.0);
    EXPECT_GT(second, first);
}

}  // namespace
}  // namespace ascendsim::e2e
