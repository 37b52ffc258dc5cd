#include "profiler/writers/memory/memory_record.h"

#include <gtest/gtest.h>

#include "profiler/assembly/sample_run.h"
#include "profiler/format/number_format.h"
#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/memory/npu_module_mem.h"
#include "profiler/writers/summary/operator_details.h"
#include "profiler/writers/memory/operator_memory.h"

namespace ascendsim {
namespace {

using testing_support::joinHeader;
using testing_support::referenceHeader;
using testing_support::sampleRun;

const std::string kLevel1 = "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
const std::string kSt = "msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/";

TEST(HostMemoryCsvs, HeadersMatchTheRealSamples) {
    const auto memory = referenceHeader(kSt + "memory_record.csv");
    if (memory.empty()) GTEST_SKIP() << "reference samples not available";
    EXPECT_EQ(joinHeader(memoryRecordHeader()), memory);
    EXPECT_EQ(joinHeader(operatorMemoryHeader()), referenceHeader(kSt + "operator_memory.csv"));
    EXPECT_EQ(joinHeader(npuModuleMemHeader(FormatVersion::Cann83)), referenceHeader(kSt + "npu_module_mem.csv"));
    EXPECT_EQ(joinHeader(npuModuleMemHeader(FormatVersion::Cann80)), referenceHeader(kLevel1 + "npu_module_mem.csv"));
    EXPECT_EQ(joinHeader(operatorDetailsHeader()), referenceHeader(kLevel1 + "operator_details.csv"));
}

TEST(MemoryRecord, AppRowsFirstThenPtaEachFollowedByPtaPlusGe) {
    const auto run = sampleRun(1);
    const auto table = buildMemoryRecord(run);
    ASSERT_FALSE(table.rows.empty());
    EXPECT_EQ(table.rows[0][0], "APP");
    EXPECT_EQ(table.rows[0][2], "");
    EXPECT_EQ(table.rows[0][3], pythonFloatRepr(2'212'077'568.0 / 1024.0 / 1024.0));
    EXPECT_EQ(table.rows[0][6], "NPU:0");
    for (std::size_t i = 1; i < table.rows.size(); ++i) {
        const auto& c = table.rows[i][0];
        if (c == "PTA" || c == "GE") {
            ASSERT_LT(i + 1, table.rows.size());
            EXPECT_EQ(table.rows[i + 1][0], "PTA+GE");
            EXPECT_EQ(table.rows[i + 1][1], table.rows[i][1]);
        }
        EXPECT_EQ(table.rows[i][1].back(), '\t');
    }
}

TEST(MemoryRecord, PtaPlusGeAddsTheLatestGeTotals) {
    const auto run = sampleRun(1);
    const auto table = buildMemoryRecord(run);
    // Row order: APP, PTA(malloc), PTA+GE, GE, PTA+GE, ...
    ASSERT_GE(table.rows.size(), 5u);
    EXPECT_EQ(table.rows[3][0], "GE");
    EXPECT_EQ(table.rows[4][0], "PTA+GE");
    const double pta = static_cast<double>(run.memoryEvents[0].totalAllocated) / 1048576.0;
    const double ge = static_cast<double>(run.geMemory[0].totalAllocatedBytes) / 1024.0 / 1024.0;
    EXPECT_EQ(table.rows[4][2], pythonFloatRepr(pta + ge));
    EXPECT_EQ(table.rows[4][4], pythonFloatRepr(pta));                 // active: PTA only
    EXPECT_EQ(table.rows[4][5], std::to_string(run.memoryEvents[0].streamPtr));
}

TEST(MemoryRecord, WorkspaceRowsHaveNoPartner) {
    const auto table = buildMemoryRecord(sampleRun(1));
    for (std::size_t i = 0; i + 1 < table.rows.size(); ++i)
        if (table.rows[i][0] == "WORKSPACE") {
            EXPECT_NE(table.rows[i + 1][0], "PTA+GE");
        }
}

TEST(OperatorMemory, MallocIsJoinedWithItsFreeAndBlockFree) {
    const auto run = sampleRun(1);
    const auto table = buildOperatorMemory(run);
    ASSERT_EQ(table.rows.size(), 2u);  // one PTA allocation, one GE op
    const auto& row = table.rows[0];
    EXPECT_EQ(row[0], "aten::convolution");
    EXPECT_EQ(row[1], "25009.5");
    EXPECT_EQ(row[5], "575.510\t");  // free - malloc
    EXPECT_EQ(row[6], "575.000\t");  // block_free - malloc
    EXPECT_EQ(row[14], "NPU:0");
}

TEST(OperatorMemory, GeRowsKeepTheCannDurationQuirk) {
    const auto table = buildOperatorMemory(sampleRun(1));
    const auto& ge = table.rows[1];
    EXPECT_EQ(ge[0], "cann::trans_TransData_0");
    EXPECT_EQ(ge[1], "50240.0");
    EXPECT_EQ(ge[5], "106.43");  // plain float, no TAB
    EXPECT_EQ(ge[3].back(), '\t');
    EXPECT_EQ(ge[7], "49.125");
    EXPECT_EQ(ge[4], "");
}

TEST(NpuModuleMem, GroupsByComponentAndConvertsKbToMb) {
    const auto run = sampleRun(2);
    const auto table = buildNpuModuleMem(run, FormatVersion::Cann83);
    ASSERT_EQ(table.rows.size(), 4u);
    EXPECT_EQ(table.rows[0][1], "SLOG");
    EXPECT_EQ(table.rows[1][1], "SLOG");
    EXPECT_EQ(table.rows[2][1], "APP");
    EXPECT_EQ(table.rows[0][3], "158.65234375");
    EXPECT_EQ(table.rows[0][2].back(), '\t');
}

TEST(OperatorDetails, SkipsStepsAndComputesSelfAndDeviceTimes) {
    const auto run = sampleRun(1);
    ProfilerConfig level1;
    level1.level = ProfilerLevel::Level1;
    const auto table = buildOperatorDetails(run, level1);
    ASSERT_EQ(table.rows.size(), run.hostOps.size() - 1);
    const auto& conv2d = table.rows[0];
    EXPECT_EQ(conv2d[0], "aten::conv2d");
    EXPECT_EQ(conv2d[1], "[32, 3, 224, 224];\r\n[64, 3, 7, 7]");
    EXPECT_EQ(conv2d[3], "60.0");   // 190 µs total minus the 130 µs child
    EXPECT_EQ(conv2d[4], "190.0");
    EXPECT_EQ(conv2d[5], "0");      // its kernel belongs to the child
    EXPECT_EQ(conv2d[6], "250.125");
    EXPECT_EQ(conv2d[8], "250.125");
    const auto& relu = table.rows[2];
    EXPECT_EQ(relu[0], "aten::relu");
    EXPECT_EQ(relu[5], "13.02");
    EXPECT_EQ(relu[7], "0");  // AI_VECTOR_CORE is not "With AICore"
    const auto text = renderCsv(table, CsvDialect::TorchNpu);
    EXPECT_NE(text.find("\"[32, 3, 224, 224];\r\n[64, 3, 7, 7]\""), std::string::npos);
}

// At Level0 (and in the 8.0 era) a vector kernel's trace Task Type is the SQE type AI_CORE
// (e5a31957 level0 trace_view), so it counts as "With AICore".
TEST(OperatorDetails, Level0CountsVectorKernelsWithAiCore) {
    const auto run = sampleRun(1);
    const auto table = buildOperatorDetails(run, ProfilerConfig{});
    EXPECT_EQ(table.rows[2][0], "aten::relu");
    EXPECT_EQ(table.rows[2][7], "13.02");
}

}  // namespace
}  // namespace ascendsim
