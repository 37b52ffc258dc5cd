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
// (a row runs 48 blocks, one on each, unless it says otherwise) and 24 AIC.
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

// A launch on every core leaves its code on each, so both walks agree on such rows.
constexpr CodeWalk kWalks[] = {CodeWalk::PerSide, CodeWalk::PerCoreRing};

RealKernel vectorRow(const std::string& type, const std::string& dtype = "FLOAT", const std::string& shape = "32,4096",
                     std::uint32_t blocks = 48) {
    RealKernel k = row(type, shape, dtype, "FORMAT_ND", shape, dtype, "FORMAT_ND", blocks);
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
    for (const CodeWalk walk : kWalks)
        EXPECT_EQ(codeResidentRows(profile, kCodeChip, walk),
                  (std::vector<bool>{false, false, false, true, false, false, false, false}));
}

TEST(CodeResidency, OneBinaryServesEveryShapeButNotAnotherDtype) {
    const RealProfile profile = profileOf({vectorRow("Relu", "FLOAT", "32,4096"), vectorRow("Relu", "FLOAT", "8,8"),
                                           vectorRow("Relu", "FLOAT16", "8,8")});
    for (const CodeWalk walk : kWalks)
        EXPECT_EQ(codeResidentRows(profile, kCodeChip, walk), (std::vector<bool>{false, true, false}));
}

// TransData's binaries are one per (src, dst) format pair (binaryFixesFormats): after an NCHW ->
// FRACTAL_Z conversion an NCHW -> NC1HWC0 one fetches its code, after another NCHW -> NC1HWC0 of
// any shape it does not (msinsight e5a31957 text/level2 rank0 rows 109 -> 110: aiv_icache_miss_rate
// 0.021 -> 0.000; rows 105 -> 106, after a FRACTAL_Z one: 0.041). The C0 = 16 sub-format
// ("NC1HWC0:1") is a binary of its own. Elementwise binaries serve every format.
TEST(CodeResidency, TransDataRunsOneBinaryPerFormatPairAndElementwiseOneForAllFormats) {
    const auto transData = [](const std::string& shape, const std::string& from, const std::string& to) {
        RealKernel k = row("TransData", shape, "FLOAT", from, shape, "FLOAT", to, 48);
        k.acceleratorCore = "AI_VECTOR_CORE";
        return k;
    };
    RealKernel reluNchw = vectorRow("Relu", "FLOAT", "32,64,27,27");
    reluNchw.inputFormats = reluNchw.outputFormats = "NCHW";
    const RealProfile profile = profileOf({transData("256,256,3,3", "NCHW", "FRACTAL_Z"),
                                           transData("32,256,13,13", "NCHW", "NC1HWC0"),
                                           transData("32,384,13,13", "NCHW", "NC1HWC0"),
                                           transData("32,256,13,13", "NCHW", "NC1HWC0:1"),
                                           vectorRow("Relu"), reluNchw});
    for (const CodeWalk walk : kWalks)
        EXPECT_EQ(codeResidentRows(profile, kCodeChip, walk),
                  (std::vector<bool>{false, false, true, false, false, true}));
    EXPECT_NE(codeBinaryOf(profile.kernels[0], true), codeBinaryOf(profile.kernels[1], true));
    EXPECT_EQ(codeBinaryOf(profile.kernels[1], true), codeBinaryOf(profile.kernels[2], true));
    EXPECT_EQ(codeBinaryOf(profile.kernels[4], true), codeBinaryOf(profile.kernels[5], true));
}

TEST(CodeResidency, CubeKernelsAndAiCpuTasksLeaveTheVectorCachesAlone) {
    RealKernel matmul = row("MatMulV2", "32,64;64,64", "FLOAT;FLOAT", "ND;ND", "32,64", "FLOAT", "ND");
    RealKernel aiCpu = vectorRow("NonZero");
    aiCpu.acceleratorCore = "AI_CPU";
    const RealProfile profile = profileOf({vectorRow("Relu"), vectorRow("Mul"), vectorRow("Cast"), matmul, aiCpu,
                                           vectorRow("Relu")});
    for (const CodeWalk walk : kWalks) EXPECT_TRUE(codeResidentRows(profile, kCodeChip, walk).back());
}

TEST(CodeResidency, NoCodeImageMeansEveryLaunchCold) {
    ICacheConfig straightLine = kICache;
    straightLine.kernelCodeBytes = 0;
    const RealProfile profile = profileOf({vectorRow("Relu"), vectorRow("Relu")});
    for (const CodeWalk walk : kWalks)
        EXPECT_EQ(codeResidentRows(profile, codeChipOf(straightLine), walk), (std::vector<bool>{false, false}));
}

// §76: a one-block launch repeated back to back misses every time on the chip (Qwen3 rank 0: 56 of
// 56). Per core, each launch lands on the core after the last one's; one cache per side finds it.
TEST(CodeResidency, ARepeatedOneBlockLaunchLandsOnTheNextCore) {
    const RealKernel cast = vectorRow("Cast", "FLOAT", "1024", 1);
    const RealProfile profile = profileOf({cast, cast, cast});
    EXPECT_EQ(codeResidentRows(profile, kCodeChip, CodeWalk::PerCoreRing), (std::vector<bool>{false, false, false}));
    EXPECT_EQ(codeResidentRows(profile, kCodeChip, CodeWalk::PerSide), (std::vector<bool>{false, true, true}));
}

// A launch that ran on every core leaves its code wherever the next one-block launch lands.
TEST(CodeResidency, ABinaryThatRanOnEveryCoreIsFoundByAOneBlockLaunch) {
    const RealProfile profile =
        profileOf({vectorRow("Cast"), vectorRow("Cast", "FLOAT", "1024", 1), vectorRow("Cast", "FLOAT", "1024", 1)});
    EXPECT_EQ(codeResidentRows(profile, kCodeChip, CodeWalk::PerCoreRing), (std::vector<bool>{false, true, true}));
}

// A launch lasts as long as its slowest block, so it is resident only when every block found its
// code (§84). Cast on cores 0-1, Mul on 2-47; the next launch starts again at core 0: two Cast
// blocks land on 0-1 and find it, three reach core 2, which holds only Mul.
TEST(CodeResidency, ALaunchIsResidentOnlyWhenEveryBlockFoundItsCode) {
    const RealKernel mul = vectorRow("Mul", "FLOAT", "32,4096", 46);
    const auto castOf = [](std::uint32_t blocks) { return vectorRow("Cast", "FLOAT", "1024", blocks); };
    EXPECT_EQ(codeResidentRows(profileOf({castOf(2), mul, castOf(2)}), kCodeChip, CodeWalk::PerCoreRing),
              (std::vector<bool>{false, false, true}));
    EXPECT_EQ(codeResidentRows(profileOf({castOf(2), mul, castOf(3)}), kCodeChip, CodeWalk::PerCoreRing),
              (std::vector<bool>{false, false, false}));
}

// The timeline holds the inputs the chip holds, so its replay walks the code per core; the cold
// and producer states keep one cache per side (§84). Grouped under each: three one-block Casts
// are one cold group under the timeline, a cold launch and two resident ones otherwise.
TEST(CodeResidency, TheTimelineWalksTheCodePerCore) {
    EXPECT_EQ(codeWalkOf(L2State::Timeline), CodeWalk::PerCoreRing);
    for (const L2State other : {L2State::Cold, L2State::Warm, L2State::Producer})
        EXPECT_EQ(codeWalkOf(other), CodeWalk::PerSide);
    const RealKernel cast = vectorRow("Cast", "FLOAT", "1024", 1);
    const RealProfile profile = profileOf({cast, cast, cast});
    const std::vector<ReplayedKernel> timeline = distinctKernels(profile, L2State::Timeline, 0, &kCodeChip);
    ASSERT_EQ(timeline.size(), 1u);
    EXPECT_FALSE(timeline[0].codeResident);
    EXPECT_EQ(timeline[0].occurrences, 3u);
    EXPECT_EQ(distinctKernels(profile, L2State::Cold, 0, &kCodeChip).size(), 2u);
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

// §93: every launch reads its binary's code through L2, so L2 holds it until other traffic
// pushes it out. The walk starts in steady state (the profile's last rows before its first): the
// small Relu finds the code its own last launch left; Mul's 512 KiB tensors flush a 64 KiB L2,
// its own code with them, so Mul and the Relu after it fill from HBM.
TEST(CodeInL2, ABinaryIsHeldUntilTrafficPushesItOut) {
    RealProfile profile = profileOf({vectorRow("Relu", "FLOAT", "8,8", 1), vectorRow("Mul", "FLOAT", "32,4096"),
                                     vectorRow("Relu", "FLOAT", "8,8", 1)});
    profile.hasShapes = true;
    constexpr std::uint64_t kL2 = 64 * 1024;
    EXPECT_EQ(codeHeldInL2Rows(profile, kL2, &kCodeChip), (std::vector<bool>{true, false, false}));
    // The two Relu launches are two groups: one finds its code in L2, one fills it from HBM.
    const std::vector<ReplayedKernel> groups = distinctKernels(profile, L2State::Cold, kL2, &kCodeChip, true);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_TRUE(groups[0].codeHeldInL2);
    EXPECT_FALSE(groups[1].codeHeldInL2);
    EXPECT_FALSE(groups[2].codeHeldInL2);
    EXPECT_EQ(groups[2].sample.type, "Relu");
    // Without the walk (the replay's default) every launch finds its code in L2.
    for (const ReplayedKernel& k : distinctKernels(profile, L2State::Cold, kL2, &kCodeChip)) EXPECT_TRUE(k.codeHeldInL2);
}

TEST(CodeInL2, HeldEverywhereWithoutACodeImageOrShapes) {
    RealProfile profile = profileOf({vectorRow("Relu", "FLOAT", "8,8", 1), vectorRow("Mul", "FLOAT", "32,4096")});
    constexpr std::uint64_t kL2 = 64 * 1024;
    profile.hasShapes = false;  // Level0: no tensors to walk
    EXPECT_EQ(codeHeldInL2Rows(profile, kL2, &kCodeChip), (std::vector<bool>{true, true}));
    profile.hasShapes = true;  // walked: Mul's tensors flush the L2 between every two launches
    EXPECT_EQ(codeHeldInL2Rows(profile, kL2, &kCodeChip), (std::vector<bool>{false, false}));
    ICacheConfig straightLine = kICache;
    straightLine.kernelCodeBytes = 0;
    const ChipConfig noImage = codeChipOf(straightLine);
    EXPECT_EQ(codeHeldInL2Rows(profile, kL2, &noImage), (std::vector<bool>{true, true}));
    EXPECT_EQ(codeHeldInL2Rows(profile, kL2, nullptr), (std::vector<bool>{true, true}));
}

}  // namespace ascendsim::test
