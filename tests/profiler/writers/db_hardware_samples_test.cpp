// HBM and LLC tables of the DB export: the real schemas (e5a31957 level1 DB) and rates computed
// from the sampled counters.
#include "profiler/writers/db/db_hardware_samples.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <fstream>

#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/hardware_sample_test_support.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kMs = 1'000'000;

// Every row of `sql` as its columns joined by ','.
std::vector<std::string> rowsOf(const fs::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* statement = nullptr;
    std::vector<std::string> rows;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK) {
        while (sqlite3_step(statement) == SQLITE_ROW) {
            std::string row;
            for (int column = 0; column < sqlite3_column_count(statement); ++column) {
                if (column > 0) row += ',';
                const unsigned char* text = sqlite3_column_text(statement, column);
                row += text ? reinterpret_cast<const char*>(text) : "";
            }
            rows.push_back(row);
        }
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return rows;
}

// The CREATE TABLE line of `table` in the real DB's schema dump ("" when the dump is missing).
std::string realSchema(const std::string& table) {
    std::ifstream dump(testing_support::referenceRoot() / "_derived" /
                       "schema_e5a31957_ascend_pytorch_profiler_0_level1.sql");
    for (std::string line; std::getline(dump, line);)
        if (line.rfind("CREATE TABLE " + table + " ", 0) == 0) return line;
    return {};
}

class DbHardwareSamples : public ::testing::Test {
  protected:
    void SetUp() override {
        path_ =
            fs::temp_directory_path() / ("ascendsim_db_hw_" + std::to_string(::getpid()) + ".db");
        run_.epochNs = 1'000'000'000'000;
        const HardwareTrafficSample first = testing_support::emptyHardwareSample(1 * kMs);
        HardwareTrafficSample second = testing_support::emptyHardwareSample(21 * kMs);
        second.intervalNs = 20 * kMs;
        second.hbmReadBytes = {2000, 2000, 2000, 2000};  // 100 000 B/s each
        second.hbmWriteBytes = {20, 20, 20, 20};
        second.llcReadHits = {2, 1};
        second.llcReadMisses = {1, 0};
        second.llcReadBytes = {5 << 20, 0};  // 250 MB/s
        run_.hardwareSamples = {first, second};
        config_.profileMemory = true;
    }
    void TearDown() override { fs::remove(path_); }

    void write() {
        DbFile db(path_);
        DbStringIds strings(0);
        writeHardwareSampleTables(db, run_, config_, strings);
        db.execute("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT)");
        std::vector<std::vector<DbValue>> rows;
        strings.appendRows(rows);
        db.insertRows("STRING_IDS", rows);
    }

    fs::path path_;
    RunRecord run_;
    ProfilerConfig config_;
};

TEST_F(DbHardwareSamples, SchemasEqualTheRealOnes) {
    write();
    for (const std::string table : {"HBM", "LLC"}) {
        const auto sql =
            rowsOf(path_, "SELECT sql FROM sqlite_master WHERE name = '" + table + "'");
        ASSERT_EQ(sql.size(), 1u) << table;
        const std::string real = realSchema(table);
        if (!real.empty()) {
            EXPECT_EQ(sql[0] + ";", real);
        }
    }
}

TEST_F(DbHardwareSamples, HbmRowsAreBytesPerSecondReadsBeforeWrites) {
    write();
    EXPECT_EQ(
        rowsOf(path_,
               "SELECT h.timestampNs, h.bandwidth, h.hbmId, s.value FROM HBM h "
               "JOIN STRING_IDS s ON s.id = h.type WHERE h.timestampNs = 1000021000000 ORDER BY "
               "h.rowid"),
        (std::vector<std::string>{"1000021000000,100000,0,read", "1000021000000,100000,1,read",
                                  "1000021000000,100000,2,read", "1000021000000,100000,3,read",
                                  "1000021000000,1000,0,write", "1000021000000,1000,1,write",
                                  "1000021000000,1000,2,write", "1000021000000,1000,3,write"}));
    EXPECT_EQ(rowsOf(path_, "SELECT count(*), typeof(bandwidth) FROM HBM GROUP BY 2"),
              std::vector<std::string>{"16,integer"});
}

TEST_F(DbHardwareSamples, LlcRowsPerLlcWithPercentHitRate) {
    write();
    EXPECT_EQ(rowsOf(path_,
                     "SELECT l.llcId, l.timestampNs, l.hitRate, l.throughput, s.value FROM LLC l "
                     "JOIN STRING_IDS s ON s.id = l.mode ORDER BY l.rowid"),
              (std::vector<std::string>{
                  "0,1000001000000,0.0,0,read", "0,1000021000000,66.7,262144000,read",
                  "1,1000001000000,0.0,0,read", "1,1000021000000,100.0,0,read"}));
}

TEST_F(DbHardwareSamples, NoTablesWithoutProfileMemory) {
    config_.profileMemory = false;
    write();
    EXPECT_TRUE(
        rowsOf(path_, "SELECT name FROM sqlite_master WHERE name IN ('HBM', 'LLC')").empty());
}

}  // namespace
}  // namespace ascendsim
