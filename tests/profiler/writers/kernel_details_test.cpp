#include "profiler/writers/summary/kernel_details.h"

#include <gtest/gtest.h>

#include "profiler/writers/summary/op_summary.h"
#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

const char* kSample83 =
    "msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
const char* kSample80Level1 =
    "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
const char* kSample80Level0 =
    "msinsight/e5a31957/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
const char* kSample2024Level1 =
    "msinsight/c1e639ee/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
const char* kSample2024Level0 =
    "msinsight/c1e639ee/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv";

std::string headerFor(const RunRecord& run, const ProfilerConfig& config) {
    return joinHeader(buildKernelDetailsTable(run, config).header);
}

void expectHeaderMatchesSample(const std::string& ours, const char* sample) {
    const std::string real = referenceHeader(sample);
    if (real.empty()) GTEST_SKIP() << "reference sample not available: " << sample;
    EXPECT_EQ(ours, real);
}

TEST(KernelDetails, Cann83Level2PipeUtilizationHeaderEqualsThe83Sample) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level2;
    expectHeaderMatchesSample(headerFor(threeKernelRun(chip), config), kSample83);
}

TEST(KernelDetails, Cann80Level1HeaderEqualsTheEarly2025Sample) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.formatVersion = FormatVersion::Cann80;
    expectHeaderMatchesSample(headerFor(threeKernelRun(chip), config), kSample80Level1);
}

TEST(KernelDetails, Cann80Level0HeaderEqualsTheEarly2025Sample) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level0;
    config.formatVersion = FormatVersion::Cann80;
    expectHeaderMatchesSample(headerFor(threeKernelRun(chip), config), kSample80Level0);
}

TEST(KernelDetails, Era2024On910AHeadersEqualThe2024Samples) {
    const ChipConfig chip = coupledChip();
    RunRecord run = threeKernelRun(chip);
    ProfilerConfig config;
    config.formatVersion = FormatVersion::Era2024;
    config.level = ProfilerLevel::Level1;
    expectHeaderMatchesSample(headerFor(run, config), kSample2024Level1);
    config.level = ProfilerLevel::Level0;
    expectHeaderMatchesSample(headerFor(run, config), kSample2024Level0);
}

TEST(KernelDetails, Cann83Level0KeepsDeviceIdAndTheShortHeader) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    EXPECT_EQ(headerFor(threeKernelRun(chip), config),
              "Step Id,Device_id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim");
}

TEST(KernelDetails, NoStepIdColumnWithoutSteps) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.steps.clear();
    ProfilerConfig config;
    EXPECT_EQ(headerFor(run, config).rfind("Device_id,Name,", 0), 0u);
}

TEST(KernelDetails, OtherAicMetricsGroupsAppendTheirColumnsAfterContextId) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.aicMetrics = AicMetrics::Memory;
    const std::string header = headerFor(threeKernelRun(chip), config);
    const std::string expectedTail =
        "Context ID,aicore_time(us),aic_total_cycles,aic_l1_read_bw(GB/s),aic_l1_write_bw(GB/s),"
        "aic_main_mem_read_bw(GB/s),aic_main_mem_write_bw(GB/s),aic_l2_read_bw(GB/s),aic_l2_write_bw(GB/s),"
        "aiv_time(us),aiv_total_cycles,aiv_ub_read_bw(GB/s),aiv_ub_write_bw(GB/s),aiv_main_mem_read_bw(GB/s),"
        "aiv_main_mem_write_bw(GB/s),aiv_l2_read_bw(GB/s),aiv_l2_write_bw(GB/s)";
    EXPECT_EQ(header.substr(header.find("Context ID")), expectedTail);

    config.aicMetrics = AicMetrics::None;
    const std::string none = headerFor(threeKernelRun(chip), config);
    EXPECT_EQ(none.substr(none.size() - 10), "Context ID");
}

TEST(KernelDetails, Cann83CellsUseCppFormats) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level2;
    const CsvTable table = buildKernelDetailsTable(threeKernelRun(chip), config);
    ASSERT_EQ(table.rows.size(), 3u);
    const CsvRow& add = table.rows[0];
    const CsvRow& matmul = table.rows[1];
    EXPECT_EQ(add[0], "13");
    EXPECT_EQ(add[1], "0");
    EXPECT_EQ(add[2], "4294967295");
    EXPECT_EQ(add[7], "dynamic");
    EXPECT_EQ(add[8], "AI_VECTOR_CORE");
    EXPECT_EQ(add[9], "1764246877005000.000\t");
    EXPECT_EQ(add[10], "2.060");
    EXPECT_EQ(add[11], "0");
    EXPECT_EQ(matmul[11], "7.940000");  // 5010000 - 5002060 ns
    EXPECT_EQ(add[12], "4");
    EXPECT_EQ(add[15], "\"4096;\"");
    EXPECT_EQ(add[16], "FLOAT;FLOAT");
    EXPECT_EQ(add[21], "N/A");              // Context ID of a non-mix kernel
    EXPECT_EQ(table.rows[2][21], "0");      // MIX kernels are context 0
    EXPECT_EQ(add[22], "0.0");              // unused AIC side: aicore_time
    EXPECT_EQ(add[23], "0");                // and its cycles
    EXPECT_EQ(add.back(), "0.000");         // cube_utilization of a vector kernel
}

TEST(KernelDetails, ShapesComeOutTripleQuotedLikeTheSamples) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    const std::string csv = renderKernelDetailsCsv(threeKernelRun(chip), config);
    EXPECT_NE(csv.find(",\"\"\"4096,1024;4096,1024\"\"\",DT_BF16;DT_BF16,ND;ND,\"\"\"4096,4096\"\"\","),
              std::string::npos);
    EXPECT_NE(csv.find("\r\n"), std::string::npos);
}

TEST(KernelDetails, PmuCellsFollowTheFormulasOfTheCounters) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    const CsvTable table = buildKernelDetailsTable(threeKernelRun(chip), config);
    const CsvRow& matmul = table.rows[1];
    auto cell = [&](const std::string& name) {
        for (std::size_t i = 0; i < table.header.size(); ++i)
            if (table.header[i] == name) return matmul[i];
        return std::string("missing");
    };
    // 20 blocks × 200000 cycles at 1650 MHz on 20 cores: 4e6 / 1650 / 20 = 121.212 µs.
    EXPECT_EQ(cell("aic_total_cycles"), "4000000");
    EXPECT_EQ(cell("aicore_time(us)"), "121.212");
    EXPECT_EQ(cell("aic_mac_ratio"), "0.78");        // (150000 + 6000) / 200000
    EXPECT_EQ(cell("aic_mac_time(us)"), "94.545");   // 121.2121… × 0.78
    EXPECT_EQ(cell("aic_icache_miss_rate"), "0.004");
    // cube_utilization = 4e6 / (1650 × 20) × 100 / 170.4 = 71.134
    EXPECT_EQ(cell("cube_utilization(%)"), "71.134");
    EXPECT_EQ(cell("aiv_time(us)"), "0.0");
}

TEST(KernelDetails, Cann80UsesPythonNumberFormatsAndNoDeviceId) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.formatVersion = FormatVersion::Cann80;
    const CsvTable table = buildKernelDetailsTable(threeKernelRun(chip), config);
    EXPECT_EQ(table.rows[0][1], "4294967295");  // no Device_id after Step Id
    EXPECT_EQ(table.rows[0][9], "2.06");
    EXPECT_EQ(table.rows[0][10], "0");
    EXPECT_EQ(table.rows[1][10], "7.94");
    EXPECT_EQ(table.rows[0].back(), "0");
}

TEST(KernelDetails, Level0ShowsTaskTimeOnlyValues) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    const CsvTable table = buildKernelDetailsTable(threeKernelRun(chip), config);
    EXPECT_EQ(table.rows[1][2], "aclnnMatmul_MatMulV3Common_MatMulV3");
    EXPECT_EQ(table.rows[1][3], "N/A");
    EXPECT_EQ(table.rows[1][4], "N/A");
    EXPECT_EQ(table.rows[1][8], "0");
}

// The real Level0 samples (msinsight e5a31957, c1e639ee) were collected with record_shapes=true
// and still show N/A types and Block Dim 0.
TEST(KernelDetails, Level0WithRecordShapesIsStillTaskTimeOnly) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.recordShapes = true;
    const CsvTable table = buildKernelDetailsTable(threeKernelRun(chip), config);
    EXPECT_EQ(table.rows[1][3], "N/A");
    EXPECT_EQ(table.rows[1][4], "N/A");
    EXPECT_EQ(table.rows[1][8], "0");
}

TEST(KernelDetails, KernelOutsideEveryStepHasAnEmptyStepIdAndTheStepEndIsExclusive) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.kernels[2].hostOpIndex = -1;
    run.kernels[2].device.startNs = 9000000;  // exactly the step end: "…\t" > "…"
    run.kernels[2].device.endNs = 9100000;
    ProfilerConfig config;
    const CsvTable table = buildKernelDetailsTable(run, config);
    EXPECT_EQ(table.rows[0][0], "13");
    EXPECT_EQ(table.rows[2][0], "");
}

TEST(KernelDetails, NoKernelsNoFile) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.kernels.clear();
    EXPECT_EQ(renderKernelDetailsCsv(run, ProfilerConfig{}), "");
    ProfilerConfig none;
    none.level = ProfilerLevel::LevelNone;
    EXPECT_EQ(renderKernelDetailsCsv(threeKernelRun(chip), none), "");
}

TEST(OpSummary, CannFileHasCannNamesLfAndPreEscapedShapes) {
    const ChipConfig chip = splitChip();
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    const std::string csv = renderOpSummaryCsv(threeKernelRun(chip), config);
    EXPECT_EQ(csv.rfind("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
                        "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,",
                        0),
              0u);
    EXPECT_EQ(csv.find('\r'), std::string::npos);
    EXPECT_NE(csv.find(",\"\"\"4096,4096\"\"\","), std::string::npos);
}

}  // namespace
}  // namespace ascendsim

namespace ascendsim {
namespace {

TEST(KernelDetails, EveryRowHasOneCellPerHeaderColumnForEveryGroupEraAndLevel) {
    using namespace testing_support;
    const ChipConfig split = splitChip();
    const ChipConfig coupled = coupledChip();
    for (const ChipConfig* chip : {&split, &coupled}) {
        RunRecord run = threeKernelRun(*chip);
        KernelRecord cpu;
        cpu.name = "NonZero";
        cpu.opType = "NonZero";
        cpu.device.type = TaskType::AiCpu;
        cpu.device.startNs = 8000000;
        cpu.device.endNs = 8001000;
        run.kernels.push_back(cpu);
        for (FormatVersion era : {FormatVersion::Cann83, FormatVersion::Cann80, FormatVersion::Era2024}) {
            for (ProfilerLevel level : {ProfilerLevel::Level0, ProfilerLevel::Level1, ProfilerLevel::Level2}) {
                for (int g = 0; g <= static_cast<int>(AicMetrics::MemoryAccess); ++g) {
                    ProfilerConfig config;
                    config.level = level;
                    config.formatVersion = era;
                    config.aicMetrics = static_cast<AicMetrics>(g);
                    const CsvTable table = buildKernelDetailsTable(run, config);
                    ASSERT_EQ(table.rows.size(), 4u);
                    for (const CsvRow& row : table.rows) {
                        EXPECT_EQ(row.size(), table.header.size())
                            << chip->name << " era " << static_cast<int>(era) << " group " << g;
                        for (const std::string& cell : row) EXPECT_NE(cell, "nan");
                    }
                }
            }
        }
    }
}

}  // namespace
}  // namespace ascendsim
