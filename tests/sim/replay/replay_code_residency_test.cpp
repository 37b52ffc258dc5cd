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

// 32 KiB of 2 KiB lines, 10 KiB images: three binaries fit, a fourth evicts the oldest. 48 AIV
// (every row below runs 48 blocks, one on each) and 24 AIC.
const ICacheConfig kICache{32768, 2048, 1400, 8, 10240};

ChipConfig codeChipOf(const ICacheConfig& icache) {
    ChipConfig chip;
    chip.organisation = CoreOrganisation::Split;
    chip.aiCoreCount = 24;
    chip.vectorCoreCount = 48;
    chip.icache = icache;
    return chip;
}

const ChipConfig kCodeChip = codeChipOf(kICache);

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
    const std::vector<bool> resident = codeResidentRows(profile, kCodeChip);
    EXPECT_EQ(resident, (std::vector<bool>{false, false, false, true, false, false, false, false}));
}

TEST(CodeResidency, OneBinaryServesEveryShapeButNotAnotherDtype) {
    const RealProfile profile = profileOf({vectorRow("Relu", "FLOAT", "32,4096"), vectorRow("Relu", "FLOAT", "8,8"),
                                           vectorRow("Relu", "FLOAT16", "8,8")});
    EXPECT_EQ(codeResidentRows(profile, kCodeChip), (std::vector<bool>{false, true, false}));
}

TEST(CodeResidency, CubeKernelsAndAiCpuTasksLeaveTheVectorCachesAlone) {
    RealKernel matmul = row("MatMulV2", "32,64;64,64", "FLOAT;FLOAT", "ND;ND", "32,64", "FLOAT", "ND");
    RealKernel aiCpu = vectorRow("NonZero");
    aiCpu.acceleratorCore = "AI_CPU";
    const RealProfile profile = profileOf({vectorRow("Relu"), vectorRow("Mul"), vectorRow("Cast"), matmul, aiCpu,
                                           vectorRow("Relu")});
    EXPECT_TRUE(codeResidentRows(profile, kCodeChip).back());
}

RealKernel oneBlock(RealKernel k, const std::string& acceleratorCore = "AI_VECTOR_CORE") {
    k.blockDim = 1;
    k.acceleratorCore = acceleratorCore;
    return k;
}

// The scheduler hands a launch's blocks to the cores in turn from where the last launch stopped
// (docs/fidelity.md §76): a one-block launch lands on the core after the previous launch's, so a
// one-block repeat finds its code only where a launch over every core left it.
TEST(CodeResidency, ALaunchsBlocksGoToTheNextCoresInTurn) {
    const RealProfile profile = profileOf({vectorRow("Relu"), oneBlock(vectorRow("Relu")), oneBlock(vectorRow("Cast")),
                                           oneBlock(vectorRow("Cast")), vectorRow("Cast"), vectorRow("Cast")});
    // Relu on all 48 cores; Relu again on core 0 (resident); Cast on core 1, then core 2 (both
    // cold: a new core each time); Cast on all 48 (2 of 48 found it: cold); Cast on all 48 again.
    EXPECT_EQ(codeResidentRows(profile, kCodeChip), (std::vector<bool>{false, true, false, false, false, true}));
}

// One AIV: a MIX binary's 7-line image with two 5-line images exceeds the 16 lines, where three
// 5-line images fit (the Qwen3 LpNormV2 / Pows / Add cycle, §76).
TEST(CodeResidency, AMixBinarysLargerImageLeavesNoRoomForTwoOthers) {
    ChipConfig oneCore = kCodeChip;
    oneCore.vectorCoreCount = 1;
    const RealKernel lpNorm = oneBlock(vectorRow("LpNormV2"), "MIX_AIV");
    const RealProfile profile = profileOf({lpNorm, oneBlock(vectorRow("Pows")), oneBlock(vectorRow("Add")), lpNorm,
                                           oneBlock(vectorRow("Pows"))});
    EXPECT_EQ(codeResidentRows(profile, oneCore), (std::vector<bool>{false, false, false, true, true}));
    oneCore.icache.mixKernelCodeBytes = 7 * 2048;
    EXPECT_EQ(codeResidentRows(profile, oneCore), (std::vector<bool>{false, false, false, false, false}));
    EXPECT_TRUE(runsMixBinary(lpNorm));
    EXPECT_FALSE(runsMixBinary(vectorRow("Pows")));
}

TEST(CodeResidency, NoCodeImageMeansEveryLaunchCold) {
    ICacheConfig straightLine = kICache;
    straightLine.kernelCodeBytes = 0;
    const RealProfile profile = profileOf({vectorRow("Relu"), vectorRow("Relu")});
    EXPECT_EQ(codeResidentRows(profile, codeChipOf(straightLine)), (std::vector<bool>{false, false}));
}

TEST(CodeResidency, ColdAndResidentLaunchesAreTwoGroupsWithTheirOwnMedians) {
    RealKernel cold = vectorRow("Relu");
    cold.durationUs = 8.0;
    RealKernel warm = vectorRow("Relu");
    warm.durationUs = 3.0;
    const RealProfile profile = profileOf({cold, warm, warm});
    const std::vector<ReplayedKernel> groups = distinctKernels(profile, L2State::Cold, 0, &kCodeChip);
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
