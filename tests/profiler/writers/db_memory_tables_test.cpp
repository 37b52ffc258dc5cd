// The memory, frequency and enumeration tables of ascend_pytorch_profiler[_{rank}].db: schemas
// and enumerations equal the real DBs, rows agree with memory_record.csv / operator_memory.csv,
// every id resolves, and each table exists exactly when the real tool writes it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "profiler/assembly/output_assembly.h"
#include "profiler/assembly/sample_run.h"
#include "profiler/format/csv_reader.h"
#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"
#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/db/db_export.h"
#include "profiler/writers/db_query_test_support.h"
#include "profiler/writers/memory/memory_record.h"
#include "profiler/writers/memory/operator_memory.h"

namespace ascendsim {
namespace {

using namespace testing_support;
namespace fs = std::filesystem;

const std::vector<std::string> kMemoryTables = {"MEMORY_RECORD", "OP_MEMORY", "NPU_MEM",
                                                "NPU_MODULE_MEM", "NPU_OP_MEM"};
const std::vector<std::string> kEnumTables = {"ENUM_MODULE",         "ENUM_MSTX_EVENT_TYPE",
                                              "ENUM_HCCL_DATA_TYPE", "ENUM_HCCL_LINK_TYPE",
                                              "ENUM_HCCL_RDMA_TYPE", "ENUM_HCCL_TRANSPORT_TYPE"};

fs::path realDb(const std::string& sample, int level) {
    return referenceRoot() / "msinsight" / sample / "test/data/pytorch/db" /
           ("level" + std::to_string(level)) /
           "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
}

std::set<std::string> tables(const fs::path& db) {
    const auto rows = query(db, "SELECT name FROM sqlite_master WHERE type = 'table'");
    return {rows.begin(), rows.end()};
}

std::string schema(const fs::path& db, const std::string& table) {
    const auto rows =
        query(db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'");
    return rows.empty() ? "" : rows.front();
}

// DB cells in the CSVs' units: ns as µs text, bytes as MB floats; CSV times without their TAB.
std::string dbTime(const std::string& ns) {
    return ns.empty() ? ns : nsToUsString(std::stoull(ns));
}
std::string dbMb(const std::string& bytes) {
    return pythonFloatRepr(static_cast<double>(std::stoll(bytes)) / 1048576.0);
}
std::string csvTime(std::string text) {
    if (!text.empty() && text.back() == '\t') text.pop_back();
    return text;
}

// MEMORY_RECORD and memory_record.csv rows (without APP) as "component,µs,MB,MB,MB,stream".
std::vector<std::string> memoryRecordFromDb(const fs::path& db) {
    std::vector<std::string> rows;
    for (const std::string& row :
         query(db,
               "SELECT s.value, m.timestamp, m.totalAllocated, m.totalReserved, m.totalActive, "
               "m.streamPtr FROM MEMORY_RECORD m JOIN STRING_IDS s ON s.id = m.component "
               "ORDER BY m.rowid")) {
        const std::vector<std::string> c = cellsOf(row);
        // The CSV leaves the active total of a row without PTA part empty where the DB stores 0.
        const bool noPta = c[5].empty();
        rows.push_back(c[0] + "," + dbTime(c[1]) + "," + dbMb(c[2]) + "," + dbMb(c[3]) + "," +
                       (noPta ? "" : dbMb(c[4])) + "," + c[5]);
    }
    return rows;
}
std::vector<std::string> memoryRecordFromCsv(const CsvTable& table) {
    std::vector<std::string> rows;
    for (const CsvRow& r : table.rows) {
        if (r[0] == "APP") continue;
        rows.push_back(r[0] + "," + csvTime(r[1]) + "," + r[2] + "," + r[3] + "," + r[4] + "," +
                       r[5]);
    }
    return rows;
}

// OP_MEMORY and operator_memory.csv rows as "name|KB|alloc µs|release µs|alloc total MB".
std::vector<std::string> opMemoryFromDb(const fs::path& db) {
    std::vector<std::string> rows;
    for (const std::string& row :
         query(db,
               "SELECT s.value, o.size, o.allocationTime, o.releaseTime, "
               "o.allocationTotalAllocated FROM OP_MEMORY o JOIN STRING_IDS s ON s.id = o.name "
               "ORDER BY o.rowid")) {
        const std::vector<std::string> c = cellsOf(row);
        rows.push_back(c[0] + "|" + pythonFloatRepr(std::stod(c[1]) / 1024.0) + "|" + dbTime(c[2]) +
                       "|" + dbTime(c[3]) + "|" + dbMb(c[4]));
    }
    return rows;
}
std::vector<std::string> opMemoryFromCsv(const CsvTable& table) {
    std::vector<std::string> rows;
    for (const CsvRow& r : table.rows) {
        const bool ge = r[0].rfind("cann::", 0) == 0;  // the DB names GE ops without the prefix
        rows.push_back((ge ? r[0].substr(6) : r[0]) + "|" + r[1] + "|" + csvTime(r[2]) + "|" +
                       csvTime(r[3]) + "|" + r[7]);
    }
    return rows;
}

// sampleRun with every GE buffer's release recorded too (the sampler records both or neither).
RunRecord memoryRun(std::uint32_t steps = 2) {
    RunRecord run = sampleRun(steps);
    run.rankId = 0;
    for (const GeOpMemoryRecord& op : run.geOpMemory) {
        run.geMemory.push_back(
            {op.allocationNs + op.durationNs, op.releaseTotalAllocated, op.releaseTotalReserved});
    }
    std::stable_sort(
        run.geMemory.begin(), run.geMemory.end(),
        [](const GeMemorySample& a, const GeMemorySample& b) { return a.timeNs < b.timeNs; });
    return run;
}

class DbMemoryTables : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("ascendsim_db_memory_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        config_.level = ProfilerLevel::Level1;
        config_.profileMemory = true;
        config_.formatVersion = FormatVersion::Cann80;  // the era of the e5a31957 DBs
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path write() {
        fs::remove_all(dir_);
        EXPECT_TRUE(writeAscendPytorchProfilerDb(dir_, run_, config_));
        return dir_ / ascendPytorchProfilerDbName(run_);
    }
    fs::path dir_;
    RunRecord run_ = memoryRun();
    ProfilerConfig config_;
};

TEST_F(DbMemoryTables, EveryTableAlsoInTheRealDbOfTheSameLevelHasItsSchema) {
    for (int level = 0; level <= 2; ++level) {
        const fs::path real = realDb("e5a31957", level);
        if (!fs::exists(real)) GTEST_SKIP() << "reference DBs not available";
        config_.level = static_cast<ProfilerLevel>(level + 1);
        const fs::path ours = write();
        const auto ourTables = tables(ours);
        for (const auto& table : kMemoryTables) EXPECT_TRUE(ourTables.contains(table)) << table;
        for (const auto& table : kEnumTables) EXPECT_TRUE(ourTables.contains(table)) << table;
        EXPECT_TRUE(ourTables.contains("AICORE_FREQ"));
        for (const auto& table : ourTables) {
            if (tables(real).contains(table)) {
                EXPECT_EQ(schema(ours, table), schema(real, table))
                    << "level" << level << " " << table;
            }
        }
    }
}

TEST_F(DbMemoryTables, EnumerationsAreTheRealOnes) {
    const fs::path real = realDb("e5a31957", 1);
    const fs::path real2024 = realDb("c1e639ee", 1);
    if (!fs::exists(real) || !fs::exists(real2024)) GTEST_SKIP() << "reference DBs not available";
    const fs::path ours = write();
    for (const auto& table : kEnumTables) {
        EXPECT_EQ(query(ours, "SELECT * FROM " + table), query(real, "SELECT * FROM " + table))
            << table;
    }
    config_.formatVersion = FormatVersion::Era2024;
    const fs::path ours2024 = write();
    EXPECT_EQ(query(ours2024, "SELECT * FROM ENUM_MODULE"),
              query(real2024, "SELECT * FROM ENUM_MODULE"));
}

TEST_F(DbMemoryTables, MemoryRecordRowsAreTheCsvRowsWithoutApp) {
    const fs::path db = write();
    EXPECT_EQ(memoryRecordFromDb(db), memoryRecordFromCsv(buildMemoryRecord(run_)));
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM MEMORY_RECORD m JOIN STRING_IDS s ON s.id = m.component "
                    "WHERE s.value = 'GE'"),
              query(db, "SELECT count(*) FROM NPU_OP_MEM"));
}

TEST_F(DbMemoryTables, OpMemoryRowsAreTheOperatorMemoryCsvRows) {
    const fs::path db = write();
    EXPECT_EQ(opMemoryFromDb(db), opMemoryFromCsv(buildOperatorMemory(run_)));
}

// The files of one profiled cycle (steps 1-2 of 4, so the run is cut to a window first).
TEST(DbMemoryFiles, TheDbAgreesWithTheCsvFilesOfTheSameCycle) {
    const fs::path root =
        fs::temp_directory_path() / ("ascendsim_db_files_" + std::to_string(::getpid()));
    fs::remove_all(root);
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.profileMemory = true;
    config.exportTypes = {ExportType::Text, ExportType::Db};
    config.schedule =
        ProfilerSchedule{.wait = 1, .warmup = 0, .active = 2, .repeat = 1, .skipFirst = 0};
    OutputOptions options;
    options.parentDirectory = root;
    const auto result = writeProfilerOutput(memoryRun(4), config, options);
    ASSERT_EQ(result.directories.size(), 1u);
    const fs::path out = result.directories.front() / "ASCEND_PROFILER_OUTPUT";
    const fs::path db = out / "ascend_pytorch_profiler_0.db";
    const auto memory = memoryRecordFromDb(db);
    EXPECT_FALSE(memory.empty());
    EXPECT_EQ(memory, memoryRecordFromCsv(readCsvFile(out / "memory_record.csv")));
    EXPECT_EQ(opMemoryFromDb(db), opMemoryFromCsv(readCsvFile(out / "operator_memory.csv")));
    EXPECT_EQ(query(db, "SELECT count(*) FROM NPU_MODULE_MEM"),
              std::vector<std::string>{
                  std::to_string(readCsvFile(out / "npu_module_mem.csv").rows.size())});
    fs::remove_all(root);
}

// analysis.db of a Level0 and a Level1 run in the era of the e5a31957 samples: StepTraceTime with
// their schema and no CommAnalyzer tables (the run has no collectives).
TEST(DbMemoryFiles, AnalysisDbHasTheRealStepTraceTimeSchema) {
    const fs::path real = referenceRoot() /
                          "msinsight/e5a31957/test/data/pytorch/db/level1/rank0_ascend_pt" /
                          "ASCEND_PROFILER_OUTPUT/analysis.db";
    if (!fs::exists(real)) GTEST_SKIP() << "reference DBs not available";
    const fs::path root =
        fs::temp_directory_path() / ("ascendsim_db_analysis_" + std::to_string(::getpid()));
    for (ProfilerLevel level : {ProfilerLevel::Level0, ProfilerLevel::Level1}) {
        fs::remove_all(root);
        ProfilerConfig config;
        config.level = level;
        config.exportTypes = {ExportType::Db};
        config.formatVersion = FormatVersion::Cann80;
        OutputOptions options;
        options.parentDirectory = root;
        const auto result = writeProfilerOutput(sampleRun(2), config, options);
        ASSERT_EQ(result.directories.size(), 1u);
        const fs::path ours = result.directories.front() / "ASCEND_PROFILER_OUTPUT/analysis.db";
        EXPECT_EQ(tables(ours), std::set<std::string>{"StepTraceTime"});
        EXPECT_EQ(schema(ours, "StepTraceTime"), schema(real, "StepTraceTime"));
        EXPECT_EQ(query(ours, "SELECT count(*) FROM StepTraceTime"), std::vector<std::string>{"2"});
    }
    fs::remove_all(root);
}

TEST_F(DbMemoryTables, EveryIdResolvesAndGeEventsPairUp) {
    const fs::path db = write();
    const std::vector<std::pair<std::string, std::string>> stringColumns = {
        {"MEMORY_RECORD", "component"}, {"OP_MEMORY", "name"},  {"NPU_MEM", "type"},
        {"NPU_OP_MEM", "operatorName"}, {"NPU_OP_MEM", "type"}, {"NPU_OP_MEM", "component"}};
    for (const auto& [table, column] : stringColumns) {
        EXPECT_EQ(query(db, "SELECT count(*) FROM " + table + " WHERE " + column +
                                " NOT IN (SELECT id FROM STRING_IDS)"),
                  std::vector<std::string>{"0"})
            << table << "." << column;
    }
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM NPU_MODULE_MEM WHERE moduleId NOT IN (SELECT id FROM "
                    "ENUM_MODULE)"),
              std::vector<std::string>{"0"});
    // torch_npu's memory range from 2^29, in its order: GE, the PTA components, PTA+GE, op names.
    EXPECT_EQ(
        query(db, "SELECT id, value FROM STRING_IDS WHERE id >= 536870912 ORDER BY id LIMIT 5"),
        (std::vector<std::string>{"536870912|GE", "536870913|PTA", "536870914|WORKSPACE",
                                  "536870915|PTA+GE", "536870916|aten::convolution"}));
    // Each GE buffer: one allocate and one release at the same address, the release its duration
    // later.
    EXPECT_EQ(query(db,
                    "SELECT t.value, count(DISTINCT m.addr) FROM NPU_OP_MEM m JOIN STRING_IDS t ON "
                    "t.id = m.type "
                    "GROUP BY t.value ORDER BY t.value"),
              (std::vector<std::string>{"allocate|2", "release|2"}));
    EXPECT_EQ(query(db, "SELECT duration FROM OP_MEMORY WHERE streamPtr IS NULL"),
              (std::vector<std::string>{"106430", "106430"}));
    EXPECT_EQ(query(db, "SELECT DISTINCT globalTid & 4294967295 FROM NPU_OP_MEM"),
              std::vector<std::string>{std::to_string(kDequeueTid)});
}

TEST_F(DbMemoryTables, CannMemoryRowsUseBytesAndModuleIds) {
    const fs::path db = write();
    EXPECT_EQ(query(db,
                    "SELECT s.value, n.ddr, n.hbm FROM NPU_MEM n JOIN STRING_IDS s ON s.id = "
                    "n.type LIMIT 1"),
              std::vector<std::string>{"app|0|2212077568"});
    // SLOG is module 0, APP module 33; rows in time order.
    EXPECT_EQ(query(db, "SELECT moduleId, totalReserved FROM NPU_MODULE_MEM LIMIT 2"),
              (std::vector<std::string>{"0|166359040", "33|1048576"}));
    EXPECT_EQ(query(db, "SELECT count(*) FROM AICORE_FREQ WHERE freq = 1800"),
              std::vector<std::string>{"2"});
}

TEST_F(DbMemoryTables, WrittenExactlyWhenTheRealToolWritesThem) {
    config_.profileMemory = false;
    auto written = tables(write());
    for (const auto& table : kMemoryTables) EXPECT_FALSE(written.contains(table)) << table;
    EXPECT_TRUE(written.contains("AICORE_FREQ"));
    EXPECT_TRUE(written.contains("ENUM_MODULE"));

    // Level_none: no CANN device data; torch_npu's PTA records remain (without GE, which it
    // reads from NPU_OP_MEM).
    config_.profileMemory = true;
    config_.level = ProfilerLevel::LevelNone;
    const fs::path none = write();
    written = tables(none);
    EXPECT_FALSE(written.contains("NPU_MEM"));
    EXPECT_FALSE(written.contains("NPU_OP_MEM"));
    EXPECT_FALSE(written.contains("AICORE_FREQ"));
    EXPECT_TRUE(written.contains("MEMORY_RECORD"));
    EXPECT_EQ(query(none, "SELECT count(*) FROM STRING_IDS WHERE value = 'GE'"),
              std::vector<std::string>{"0"});

    // The 2024 era (910A) has no AI Core frequency table.
    config_.level = ProfilerLevel::Level1;
    config_.formatVersion = FormatVersion::Era2024;
    EXPECT_FALSE(tables(write()).contains("AICORE_FREQ"));
}

}  // namespace
}  // namespace ascendsim
