// Which real launches found their code in the ICaches (code_residency.h), and how the replay
// groups and simulates them.
#include <gtest/gtest.h>

#include "sim/config/chip_config_loader.h"
#include "sim/replay/rules/replay_op_rules.h"
#include "sim/replay/run/code_residency.h"
#include "sim/replay/run/replay_run.h"
#include "tests/sim/replay/real_row.h"

namespace ascendsim::test {

namespace {

// 32 KiB of 2 KiB lines, 10 KiB images: three binaries fit, a fourth evicts the oldest.
const ICacheConfig kICache{32768, 2048, 1400, 8, 10240};

RealKernel vectorRow(const std::string& type, const std::string& dtype = "FLOAT", const std::string& shape = "32,4096") {
    RealKernel k = row(type, shape, dtype, "FORMAT_ND", shape, dtype, "FORMAT_ND", 48);
    k.acceleratorCore = "AI_VECTOR_CORE";
    k.durationUs = 5.0;
    return k;
}

RealProfile profileOf(std::vector<RealKernel> kernels) {
    RealProfile profile;
    profile.kernels = std::move(kernels);
    return profile;
}

}  // namespace

TEST(CodeResidency, RepeatAfterTwoOtherBinariesIsResidentAfterThreeIsNot) {
    const RealProfile profile = profileOf({vectorRow("Relu"), vectorRow("Mul"), vectorRow("Cast"), vectorRow("Relu"),
                                           vectorRow("Sin"), vectorRow("Cos"), vectorRow("Add"), vectorRow("Relu")});
    const std::vector<bool> resident = codeResidentRows(profile, kICache);
    EXPECT_EQ(resident, (std::vector<bool>{false, false, false, true, false, false, false, false}));
}

TEST(CodeResidency, OneBinaryServesEveryShapeButNotAnotherDtype) {
    const RealProfile profile = profileOf({vectorRow("Relu", "FLOAT", "32,4096"), vectorRow("Relu", "FLOAT", "8,8"),
                                           vectorRow("Relu", "FLOAT16", "8,8")});
    EXPECT_EQ(codeResidentRows(profile, kICache), (std::vector<bool>{false, true, false}));
}

TEST(CodeResidency, CubeKernelsAndAiCpuTasksLeaveTheVectorCachesAlone) {
    RealKernel matmul = row("MatMulV2", "32,64;64,64", "FLOAT;FLOAT", "ND;ND", "32,64", "FLOAT", "ND");
    RealKernel aiCpu = vectorRow("NonZero");
    aiCpu.acceleratorCore = "AI_CPU";
    const RealProfile profile = profileOf({vectorRow("Relu"), vectorRow("Mul"), vectorRow("Cast"), matmul, aiCpu,
                                           vectorRow("Relu")});
    EXPECT_TRUE(codeResidentRows(profile, kICache).back());
}

TEST(CodeResidency, NoCodeImageMeansEveryLaunchCold) {
    ICacheConfig straightLine = kICache;
    straightLine.kernelCodeBytes = 0;
    const RealProfile profile = profileOf({vectorRow("Relu"), vectorRow("Relu")});
    EXPECT_EQ(codeResidentRows(profile, straightLine), (std::vector<bool>{false, false}));
}

TEST(CodeResidency, ColdAndResidentLaunchesAreTwoGroupsWithTheirOwnMedians) {
    RealKernel cold = vectorRow("Relu");
    cold.durationUs = 8.0;
    RealKernel warm = vectorRow("Relu");
    warm.durationUs = 3.0;
    const RealProfile profile = profileOf({cold, warm, warm});
    const std::vector<ReplayedKernel> groups = distinctKernels(profile, L2State::Cold, 0, &kICache);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_FALSE(groups[0].codeResident);
    EXPECT_DOUBLE_EQ(groups[0].realUs, 8.0);
    EXPECT_TRUE(groups[1].codeResident);
    EXPECT_EQ(groups[1].occurrences, 2u);
    EXPECT_DOUBLE_EQ(groups[1].realUs, 3.0);
    EXPECT_EQ(distinctKernels(profile).size(), 1u);  // without an ICache: one group
}

// On the 910B2 (five 2 KiB lines of code, each a penalty per block of the 48 fetching): a
// resident launch saves exactly the fills, and its simulated icache miss rate drops to zero.
TEST(CodeResidency, AResidentLaunchSkipsTheColdFillsOfItsCode) {
    ChipConfig chip = loadChipByName("Ascend910B2", defaultConfigDir());
    // The fills alone: the blocks' turns on their argument record (§58) hide under a cold fetch
    // and show warm, which would take part of the saving.
    chip.blockArgumentReadBytes = 0;
    const OpInstance op = replayOp(vectorRow("Relu"));
    ReplayPlacement resident;
    resident.codeResident = true;
    const SimulatedKernel cold = simulateReplayOp(op, chip, L2State::Cold, ReplayPlacement{});
    const SimulatedKernel warm = simulateReplayOp(op, chip, L2State::Cold, resident);
    const double fillsUs = static_cast<double>(chip.icache.kernelCodeBytes / chip.icache.fillBytes) * 48.0 *
                           chip.icache.missPenaltyCycles /
                           (chip.vectorCoreFreqMhz > 0 ? chip.vectorCoreFreqMhz : chip.aiCoreFreqMhz);
    EXPECT_NEAR(cold.durationUs - warm.durationUs, fillsUs, 0.05 * fillsUs);
    EXPECT_GT(cold.pipeRatios.at("aiv_icache_miss_rate"), 0.0);
    EXPECT_EQ(warm.pipeRatios.at("aiv_icache_miss_rate"), 0.0);
}

}  // namespace ascendsim::test
