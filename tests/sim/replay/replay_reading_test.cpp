// Reading real profiles: both text eras, the DB export, distinct-kernel grouping and chip
// inference, on fixtures written in the real formats (replay_fixtures.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "sim/config/chip_config_loader.h"
#include "sim/replay/input/block_count.h"
#include "sim/replay/input/chip_inference.h"
#include "sim/replay/input/kernel_details_reader.h"
#include "sim/replay/input/real_profile_loader.h"
#include "sim/replay/run/replay_run.h"
#include "sim/replay/replay_fixtures.h"

namespace ascendsim {
namespace {

using namespace replay_fixtures;

TEST(ReplayReading, Cann83Text_KernelsCommunicationShapesAndPipes) {
    const RealProfile p = parseKernelDetailsCsv(kernelDetails83(), "kernel_details.csv");
    EXPECT_EQ(p.era, FormatVersion::Cann83);
    EXPECT_TRUE(p.hasShapes);
    ASSERT_EQ(p.kernels.size(), 4u);  // the all-reduce is not a compute kernel
    EXPECT_EQ(p.communicationTasks, 1u);
    EXPECT_DOUBLE_EQ(p.communicationUs, 500.0);
    const RealKernel& mm = p.kernels[0];
    EXPECT_EQ(mm.type, "MatMulV3");
    EXPECT_EQ(mm.inputShapes, "256,512;256,512");  // CANN's literal quotes removed
    EXPECT_EQ(mm.inputDtypes, "DT_BF16;DT_BF16");
    EXPECT_DOUBLE_EQ(mm.durationUs, 20.08);  // TAB-suffixed start time did not disturb the row
    EXPECT_EQ(mm.blockDim, 20u);
    EXPECT_DOUBLE_EQ(mm.pipeRatios.at("aic_mac_ratio"), 0.526);
    ASSERT_EQ(mm.sides.size(), 1u);  // the AIV side did not run
    EXPECT_EQ(mm.sides[0].prefix, "aic_");
    EXPECT_EQ(mm.sourceLine, 2u);
}

// A side whose total_cycles the row records as 0 did not run: msprof writes 0 for its ratios (a
// denominator of 0), which are no measurement of an idle pipe, so the replay does not read them
// (docs/fidelity.md §89: AlexNet's AI_CORE filter gradients compared the model's AIV work with them).
TEST(ReplayReading, RatiosOfASideThatDidNotRunAreNotRead) {
    const RealProfile text = parseKernelDetailsCsv(kernelDetails83(), "kernel_details.csv");
    const RealKernel& cube = text.kernels[0];  // AI_CORE: aiv_total_cycles 0
    EXPECT_DOUBLE_EQ(cube.pipeRatios.at("aic_mte2_ratio"), 0.316);
    EXPECT_EQ(cube.pipeRatios.count("aiv_vec_ratio"), 0u);
    EXPECT_EQ(cube.pipeRatios.count("aiv_icache_miss_rate"), 0u);
    const RealKernel& vector = text.kernels[1];  // AI_VECTOR_CORE: aic_total_cycles 0
    EXPECT_DOUBLE_EQ(vector.pipeRatios.at("aiv_mte2_ratio"), 0.75);
    EXPECT_EQ(vector.pipeRatios.count("aic_mac_ratio"), 0u);
    for (const auto& [column, value] : vector.pipeRatios) EXPECT_EQ(pipeColumnSide(column), "aiv_") << column;
    // The coupled cores' unprefixed side keeps its ratios when it ran.
    const RealProfile coupled = parseKernelDetailsCsv(kernelDetails2024(), "kernel_details.csv");
    EXPECT_DOUBLE_EQ(coupled.kernels[0].pipeRatios.at("mte2_ratio"), 0.901);
    EXPECT_EQ(pipeColumnSide("mte2_ratio"), "");

    const auto root = testing_scratch::scratchDir("replay_db_idle_side");
    const RealProfile db = loadRealProfile(dbProfile(root, "db"), ProfileSource::Auto);
    EXPECT_DOUBLE_EQ(db.kernels[0].pipeRatios.at("aiv_vec_ratio"), 0.2);
    EXPECT_EQ(db.kernels[0].pipeRatios.count("aic_mac_ratio"), 0u);  // aic_total_cycles 0
    EXPECT_DOUBLE_EQ(db.kernels[1].pipeRatios.at("aic_mac_ratio"), 0.3);  // no aic_total_cycles: kept
    std::filesystem::remove_all(root);
}

// Found by fuzz_replay_profile: a block dim past 2^32 (or fractional, or negative) was converted
// from double to uint32 without a check (undefined behaviour); it names its line and field now.
TEST(ReplayReading, BlockDimThatIsNoBlockCountNamesItsLineAndField) {
    for (const std::string bad : {"1764246877393776", "-1", "2.5"}) {
        std::string text = kernelDetails83();
        const std::size_t at = text.find(",20,0,NO,");  // the MatMul row: Block Dim 20, Mix Block Dim 0
        ASSERT_NE(at, std::string::npos);
        text.replace(at, 9, "," + bad + ",0,NO,");
        try {
            parseKernelDetailsCsv(text, "kernel_details.csv");
            ADD_FAILURE() << bad << " was accepted";
        } catch (const ReplayInputError& e) {
            EXPECT_NE(std::string(e.what()).find("kernel_details.csv:2: field 'Block Dim': not a block count: '" + bad + "'"),
                      std::string::npos)
                << e.what();
        }
    }
}

// The one rule both readers (text: a double cell; DB: an int64 column) apply to a block count.
TEST(ReplayReading, BlockCountRuleRejectsWhatNoCoreCountCanBe) {
    EXPECT_EQ(blockCountFrom(0.0), 0u);
    EXPECT_EQ(blockCountFrom(40.0), 40u);
    EXPECT_EQ(blockCountFrom(4294967295.0), 4294967295u);
    EXPECT_FALSE(blockCountFrom(4294967296.0));
    EXPECT_FALSE(blockCountFrom(-1.0));
    EXPECT_FALSE(blockCountFrom(2.5));
    EXPECT_FALSE(blockCountFrom(std::nan("")));
    EXPECT_FALSE(blockCountFrom(static_cast<double>(INT64_MAX)));
}

TEST(ReplayReading, Era2024Text_CrlfUnprefixedColumnsAndHccl) {
    const RealProfile p = parseKernelDetailsCsv(kernelDetails2024(), "kernel_details.csv");
    EXPECT_EQ(p.era, FormatVersion::Era2024);
    ASSERT_EQ(p.kernels.size(), 2u);
    EXPECT_EQ(p.communicationTasks, 1u);
    EXPECT_EQ(p.kernels[0].outputDtypes, "FLOAT16");
    EXPECT_DOUBLE_EQ(p.kernels[0].pipeRatios.at("mte2_ratio"), 0.901);
    ASSERT_EQ(p.kernels[0].sides.size(), 1u);
    EXPECT_EQ(p.kernels[0].sides[0].prefix, "");
}

TEST(ReplayReading, DbExport_DurationsFromTaskNamesFromStringIdsPmuAndCommunication) {
    const auto root = testing_scratch::scratchDir("replay_db");
    const RealProfile p = loadRealProfile(dbProfile(root, "db"), ProfileSource::Auto);
    EXPECT_EQ(p.exportType, "db");
    EXPECT_EQ(p.era, FormatVersion::Cann80);
    EXPECT_EQ(p.npuName, "Ascend910B");
    ASSERT_EQ(p.kernels.size(), 3u);
    EXPECT_EQ(p.kernels[0].type, "Add");
    EXPECT_EQ(p.kernels[0].inputShapes, "64,1024;64,1024");
    EXPECT_DOUBLE_EQ(p.kernels[0].durationUs, 35.0);
    EXPECT_DOUBLE_EQ(p.kernels[1].durationUs, 37.0);
    EXPECT_DOUBLE_EQ(p.kernels[0].pipeRatios.at("aiv_vec_ratio"), 0.2);
    ASSERT_EQ(p.kernels[0].sides.size(), 1u);  // aic_total_cycles 0 is no side
    EXPECT_DOUBLE_EQ(p.kernels[0].sides[0].coreTimeUs, 33.0);  // DB times are ns
    EXPECT_TRUE(p.kernels[2].pipeRatios.empty());
    EXPECT_EQ(p.communicationTasks, 1u);
    EXPECT_DOUBLE_EQ(p.communicationUs, 500.0);
    std::filesystem::remove_all(root);
}

TEST(ReplayReading, DbExport_Cann83WhenProfilerInfoStatesVersions) {
    const auto root = testing_scratch::scratchDir("replay_db83");
    const auto dir = dbProfile(root, "db");
    writeText(dir / "profiler_info_0.json", "{\"torch_npu_version\": \"2.7.1\", \"cann_version\": \"8.3.RC1\"}");
    EXPECT_EQ(loadRealProfile(dir, ProfileSource::Db).era, FormatVersion::Cann83);
    EXPECT_THROW(loadRealProfile(dir, ProfileSource::Text), ReplayInputError);  // no kernel_details.csv
    std::filesystem::remove_all(root);
}

TEST(ReplayReading, DistinctKernels_GroupByIdentityMedianOverOccurrences) {
    const auto kernels = distinctKernels(parseKernelDetailsCsv(kernelDetails83(), "k.csv"));
    ASSERT_EQ(kernels.size(), 3u);
    EXPECT_EQ(kernels[1].sample.type, "Add");
    EXPECT_EQ(kernels[1].occurrences, 2u);
    EXPECT_DOUBLE_EQ(kernels[1].realUs, 6.22);  // median of 5.22 and 7.22
    EXPECT_DOUBLE_EQ(kernels[1].realTotalUs, 12.44);
    EXPECT_DOUBLE_EQ(kernels[1].realPipes.at("aiv_mte2_ratio"), 0.75);
    EXPECT_EQ(kernels[0].family, "MatMul");
    EXPECT_EQ(kernels[2].family, "ScatterNdUpdate");  // no rule: its own family
}

TEST(ReplayReading, ChipInference_ClockFromCyclesAndCoresFromBlockDims) {
    const ChipEvidence e = chipEvidence(parseKernelDetailsCsv(kernelDetails83(), "k.csv"));
    EXPECT_EQ(e.organisation, CoreOrganisation::Split);
    EXPECT_EQ(e.maxCubeBlocks, 20u);
    EXPECT_EQ(e.maxVectorBlocks, 40u);
    ASSERT_TRUE(e.cubeMhz && e.vectorMhz);
    EXPECT_NEAR(*e.cubeMhz, 1650.0, 0.5);
    EXPECT_NEAR(*e.vectorMhz, 1650.0, 0.5);

    const std::vector<ChipSummary> chips = {
        {"Ascend910B2", "", CoreOrganisation::Split, 24, 48, 1800.0, 0, 0, 0.0},
        {"Ascend910B4", "", CoreOrganisation::Split, 20, 40, 1500.0, 0, 0, 0.0},
        {"Ascend910B4_1650", "", CoreOrganisation::Split, 20, 40, 1650.0, 0, 0, 0.0},
        {"Ascend910", "", CoreOrganisation::Coupled, 32, 0, 1000.0, 0, 0, 0.0}};
    EXPECT_EQ(inferChip(e, chips).name, "Ascend910B4_1650");
    const ChipEvidence coupled = chipEvidence(parseKernelDetailsCsv(kernelDetails2024(), "k.csv"));
    EXPECT_EQ(coupled.organisation, CoreOrganisation::Coupled);
    EXPECT_NEAR(*coupled.cubeMhz, 1000.0, 0.5);
    EXPECT_EQ(inferChip(coupled, chips).name, "Ascend910");
    const std::vector<ChipSummary> splitOnly(chips.begin(), chips.begin() + 3);
    EXPECT_THROW(inferChip(coupled, splitOnly), ReplayInputError);
}

TEST(ReplayReading, ChipInference_ShippedConfigsForTheSampleChips) {
    const auto chips = listChips(defaultConfigDir());
    const auto root = testing_scratch::scratchDir("replay_chips");
    EXPECT_EQ(inferChip(chipEvidence(loadRealProfile(dbProfile(root, "db"))), chips).name, "Ascend910B2");
    EXPECT_EQ(inferChip(chipEvidence(parseKernelDetailsCsv(kernelDetails83(), "k.csv")), chips).name,
              "Ascend910B4_1650");
    EXPECT_EQ(inferChip(chipEvidence(parseKernelDetailsCsv(kernelDetails2024(), "k.csv")), chips).name, "Ascend910");
    std::filesystem::remove_all(root);
}

TEST(ReplayReading, BadContent_NamesFileLineAndField) {
    try {
        parseKernelDetailsCsv("a,b\n1,2\n", "x/kernel_details.csv");
        FAIL() << "an unknown header was accepted";
    } catch (const ReplayInputError& e) {
        EXPECT_NE(std::string(e.what()).find("x/kernel_details.csv:1: not a kernel_details header"), std::string::npos);
    }
    std::string text = kernelDetails83();
    text.replace(text.find("20.080"), 6, "twenty");
    try {
        parseKernelDetailsCsv(text, "k.csv");
        FAIL() << "a bad duration was accepted";
    } catch (const ReplayInputError& e) {
        EXPECT_NE(std::string(e.what()).find("k.csv:2: field 'Duration(us)': not a number: 'twenty'"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace ascendsim
