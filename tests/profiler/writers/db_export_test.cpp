#include "profiler/writers/db/db_export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/db_query_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;
namespace fs = std::filesystem;

class DbExport : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("ascendsim_db_export_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        run_ = threeKernelRun(chip_);
        run_.processId = 3136493;
        run_.hostName = "ubuntu";
        run_.rankId = 0;
        run_.endNs = 10000000;
        run_.apis.push_back({ApiLevel::Node, "launch", 4000, 4500, 7, 1});
        run_.apis.push_back({ApiLevel::Acl, "aclnnAdd", 3000, 4900, 7, 0});
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
    ChipConfig chip_ = splitChip();
    RunRecord run_;
};

TEST_F(DbExport, FileNameFollowsTheRank) {
    EXPECT_EQ(ascendPytorchProfilerDbName(run_), "ascend_pytorch_profiler_0.db");
    RunRecord single = run_;
    single.rankId = -1;
    EXPECT_EQ(ascendPytorchProfilerDbName(single), "ascend_pytorch_profiler.db");
}

TEST_F(DbExport, TasksJoinTheirStringsAndPmuValuesMatchTheFormulas) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    ASSERT_TRUE(writeAscendPytorchProfilerDb(dir_, run_, config));
    const fs::path db = dir_ / "ascend_pytorch_profiler_0.db";
    EXPECT_EQ(query(db, "SELECT count(*) FROM TASK"), std::vector<std::string>{"3"});
    EXPECT_EQ(query(db, "SELECT n.value, o.value, t.taskId, s.value FROM COMPUTE_TASK_INFO c "
                        "JOIN STRING_IDS n ON n.id = c.name JOIN STRING_IDS o ON o.id = c.opType "
                        "JOIN TASK t ON t.globalTaskId = c.globalTaskId JOIN STRING_IDS s ON s.id = c.inputShapes "
                        "ORDER BY t.startNs LIMIT 1"),
              std::vector<std::string>{"aclnnAdds_AddAiCore_Add|Add|34489|\"4096;\""});
    // MatMul's aic_mac_ratio = (150000 + 6000) / 200000.
    EXPECT_EQ(query(db, "SELECT p.value FROM TASK_PMU_INFO p JOIN STRING_IDS s ON s.id = p.name "
                        "JOIN TASK t ON t.globalTaskId = p.globalTaskId WHERE s.value = 'aic_mac_ratio' "
                        "AND t.taskId = 34493"),
              std::vector<std::string>{"0.78"});
    EXPECT_EQ(query(db, "SELECT type, connectionId FROM CANN_API ORDER BY startNs"),
              (std::vector<std::string>{"20000|2", "10000|1"}));
    EXPECT_EQ(query(db, "SELECT * FROM RANK_DEVICE_MAP"), std::vector<std::string>{"0|0"});
    EXPECT_EQ(query(db, "SELECT id FROM STEP_TIME"), std::vector<std::string>{"13"});
    EXPECT_EQ(query(db, "SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'"),
              std::vector<std::string>{"1.2.0"});
    // torch_npu keeps the environment in the DB; the 8.3 era lists HCCL_ALGO too.
    const auto env = query(db, "SELECT value FROM META_DATA WHERE name = 'ENV_VARIABLES'");
    ASSERT_EQ(env.size(), 1u);
    EXPECT_EQ(env[0].rfind("{\"ASCEND_GLOBAL_LOG_LEVEL\": \"\", \"HCCL_RDMA_TC\": \"\"", 0), 0u) << env[0];
    EXPECT_NE(env[0].find("\"HCCL_ALGO\": \"\"}"), std::string::npos) << env[0];
    EXPECT_EQ(query(db, "SELECT typeof(startNs), min(name) >= 268435456 FROM PYTORCH_API"),
              std::vector<std::string>{"text|1"});
}

TEST_F(DbExport, NoDbForAnEmptyRun) {
    RunRecord empty;
    empty.chip = &chip_;
    EXPECT_FALSE(writeAscendPytorchProfilerDb(dir_, empty, ProfilerConfig{}));
    EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(DbExport, AnalysisDbStepTraceTimeFollowsTheCsvHeader) {
    CsvTable table{{"Device_id", "Step", "Computing", "Communication(Not Overlapped)", "Overlapped", "Communication",
                    "Free", "Stage", "Bubble", "Communication(Not Overlapped and Exclude Receive)", "Preparing"},
                   {{"0", "13", "8843.91", "85881.122", "3999.454", "89880.576", "25900.158", "120625.19", "0",
                     "85881.122", "16681.808"}}};
    ASSERT_TRUE(writeAnalysisDb(dir_, table));
    const auto schema = query(dir_ / "analysis.db", "SELECT sql FROM sqlite_master WHERE name = 'StepTraceTime'");
    std::string real;
    std::ifstream schemaFile(referenceRoot() / "_derived" / "schema_ef63bc64_analysis_st_level2.sql");
    for (std::string line; std::getline(schemaFile, line);) {
        if (line.rfind("CREATE TABLE StepTraceTime", 0) == 0) real = line;
    }
    ASSERT_EQ(schema.size(), 1u);
    if (!real.empty()) {
        EXPECT_EQ(schema[0] + ";", real);
    }
    EXPECT_EQ(query(dir_ / "analysis.db", "SELECT step, computing FROM StepTraceTime"),
              std::vector<std::string>{"13|8843.91"});
    EXPECT_FALSE(writeAnalysisDb(dir_ / "none", CsvTable{table.header, {}}));
}

}  // namespace
}  // namespace ascendsim
