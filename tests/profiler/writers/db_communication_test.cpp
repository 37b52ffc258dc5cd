// The collectives in ascend_pytorch_profiler.db: COMMUNICATION_OP / COMMUNICATION_TASK_INFO
// schemas as the real 8.0 DB and formats.md §5.1 (8.3) give them, and rows joined to TASK.
#include <gtest/gtest.h>
#include <unistd.h>

#include "profiler/writers/communication_test_support.h"
#include "profiler/writers/db/db_export.h"
#include "profiler/writers/db_query_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;
namespace fs = std::filesystem;

constexpr const char* kSampleDb =
    "msinsight/e5a31957/test/data/pytorch/db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
    "ascend_pytorch_profiler_0.db";

class DbCommunication : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("ascendsim_db_comm_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        run_ = runWithCollectives(chip_);
        run_.processId = 3136493;
        run_.hostName = "ubuntu";
        run_.rankId = 0;
        run_.endNs = 10000000;
        run_.communicationOps[0].correlationId = 1175;
        run_.communicationOps[0].streamId = 4;
        run_.communicationOps[0].taskId = 807;
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path write(FormatVersion version, ProfilerLevel level = ProfilerLevel::Level1) {
        ProfilerConfig config;
        config.level = level;
        config.formatVersion = version;
        EXPECT_TRUE(writeAscendPytorchProfilerDb(dir_, run_, config));
        return dir_ / "ascend_pytorch_profiler_0.db";
    }
    fs::path dir_;
    ChipConfig chip_ = splitChip();
    RunRecord run_;
};

std::vector<std::string> schemaOf(const fs::path& db, const std::string& table) {
    return query(db, "SELECT sql FROM sqlite_master WHERE name = '" + table + "'");
}

TEST_F(DbCommunication, SchemasEqualTheRealDbOfThe80Era) {
    const fs::path real = referenceRoot() / kSampleDb;
    if (!fs::exists(real)) GTEST_SKIP() << "reference samples not available";
    const fs::path ours = write(FormatVersion::Cann80);
    for (const char* table :
         {"COMMUNICATION_OP", "COMMUNICATION_TASK_INFO", "CommunicationTaskIndex"})
        EXPECT_EQ(schemaOf(ours, table), schemaOf(real, table)) << table;
}

TEST_F(DbCommunication, The83SchemaAddsDeviceRankSizeMasterAndBandwidth) {
    const fs::path db = write(FormatVersion::Cann83);
    EXPECT_EQ(query(db, "SELECT deviceId, rankSize FROM COMMUNICATION_OP WHERE opId = 1"),
              std::vector<std::string>{"0|2"});
    EXPECT_EQ(query(db, "SELECT isMaster FROM COMMUNICATION_TASK_INFO WHERE planeId = 0"),
              (std::vector<std::string>{"1", "1"}));
}

TEST_F(DbCommunication, EveryHcclTaskHasATaskRowWithItsSqeTypeAndTheOpsConnection) {
    const fs::path db = write(FormatVersion::Cann80);
    EXPECT_EQ(query(db, "SELECT count(*) FROM COMMUNICATION_TASK_INFO"),
              std::vector<std::string>{"14"});
    EXPECT_EQ(
        query(db,
              "SELECT n.value, o.value, a.value, c.count FROM COMMUNICATION_OP c "
              "JOIN STRING_IDS n ON n.id = c.opName JOIN STRING_IDS o ON o.id = c.opType "
              "JOIN STRING_IDS a ON a.id = c.algType WHERE c.opId = 1"),
        std::vector<std::string>{"hcom_allReduce__452_0_1|hcom_allReduce_|MESH-RING|2097152"});
    // The reduce of op 1: an SDMA task on stream 4, task 807, connection 1175, FP32 (4) over HCCS
    // (1).
    EXPECT_EQ(
        query(
            db,
            "SELECT s.value, t.streamId, t.taskId, t.connectionId, c.dataType, c.linkType, c.size "
            "FROM COMMUNICATION_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId "
            "JOIN STRING_IDS s ON s.id = t.taskType JOIN STRING_IDS k ON k.id = c.taskType "
            "WHERE k.value = 'Reduce_Inline' AND c.opId = 1"),
        std::vector<std::string>{"SDMA|4|807|1175|4|1|4194304"});
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM TASK t JOIN STRING_IDS s ON s.id = t.taskType "
                    "WHERE s.value IN ('Write Value', 'Notify Wait') AND t.connectionId = 1175"),
              std::vector<std::string>{"4"});
}

TEST_F(DbCommunication, Level0HasTheOpsButNoTasks) {
    const fs::path db = write(FormatVersion::Cann80, ProfilerLevel::Level0);
    EXPECT_EQ(query(db, "SELECT count(*) FROM COMMUNICATION_OP"), std::vector<std::string>{"2"});
    EXPECT_EQ(query(db, "SELECT count(*) FROM COMMUNICATION_TASK_INFO"),
              std::vector<std::string>{"0"});
}

TEST_F(DbCommunication, AnalysisDbHoldsTheCommunicationFilesAsRows) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.formatVersion = FormatVersion::Cann80;
    const CommunicationAnalysisRows rows = buildCommunicationAnalysisRows(run_, config);
    ASSERT_TRUE(writeAnalysisDb(dir_, CsvTable{}, &rows));
    const fs::path db = dir_ / "analysis.db";
    const fs::path real = referenceRoot() /
                          "msinsight/e5a31957/test/data/pytorch/db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                          "analysis.db";
    if (fs::exists(real)) {
        for (const char* table : {"CommAnalyzerTime", "CommAnalyzerBandwidth", "CommAnalyzerMatrix"})
            EXPECT_EQ(schemaOf(db, table), schemaOf(real, table)) << table;
    }
    EXPECT_EQ(query(db, "SELECT hccl_op_name, transit_time, wait_time, step, type FROM CommAnalyzerTime "
                        "ORDER BY start_timestamp LIMIT 1"),
              std::vector<std::string>{"hcom_allReduce__452_0_1|1.2|0.0425|step13|collective"});
    // HCCS: one row per packet size (one size here), then SDMA with zeros.
    EXPECT_EQ(query(db, "SELECT transport_type, package_size, count FROM CommAnalyzerBandwidth "
                        "WHERE hccl_op_name = 'hcom_allReduce__452_0_1'"),
              (std::vector<std::string>{"HCCS|4.194304|2", "SDMA|0|0"}));
    EXPECT_EQ(query(db, "SELECT src_rank, dst_rank, op_name FROM CommAnalyzerMatrix "
                        "WHERE hccl_op_name = 'allreduce-top1' AND transport_type = 'HCCS'"),
              std::vector<std::string>{"0|1|hcom_allReduce__452_0_1"});
    EXPECT_EQ(query(db, "SELECT count(*) FROM sqlite_master WHERE name = 'StepTraceTime'"),
              std::vector<std::string>{"0"});
}

}  // namespace
}  // namespace ascendsim
