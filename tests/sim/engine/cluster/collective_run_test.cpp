// A data-parallel run end to end (workloads/unit/allreduce.yaml, 2 ranks, Level1): one result
// directory per rank, and the communication files agree with trace_view, kernel_details and
// step_trace_time (formats.md §3.1, §3.4, §3.10).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "sim/engine/rank_directories_run.h"

namespace ascendsim::e2e {
namespace {

using json = nlohmann::ordered_json;

struct HcclOp {
    double startUs = 0, durUs = 0;
};

class CollectiveRun : public RankDirectoriesRun {
  protected:
    static void SetUpTestSuite() { runWorkload("allreduce.yaml"); }

    // The HCCL op rows of trace_view, by name and start.
    static std::vector<std::pair<std::string, HcclOp>> hcclOps(std::size_t rank) {
        const json trace = readJson(output(rank) / "trace_view.json");
        const std::int64_t pid = processPid(trace, "HCCL");
        std::vector<std::pair<std::string, HcclOp>> ops;
        for (const auto& e : trace)
            if (e["ph"] == "X" && e["pid"] == pid && e["tid"] == 0)
                ops.push_back(
                    {e["name"], {std::stod(e["ts"].get<std::string>()), e["dur"].get<double>()}});
        return ops;
    }
};

TEST_F(CollectiveRun, EveryRankWritesItsOwnDirectoryAndProfilerInfo) {
    ASSERT_EQ(dirs_->size(), 2u);
    for (std::size_t rank = 0; rank < 2; ++rank) {
        const fs::path info = dirs_->at(rank) / ("profiler_info_" + std::to_string(rank) + ".json");
        ASSERT_TRUE(fs::exists(info)) << info;
        EXPECT_TRUE(fs::exists(output(rank) / "communication.json"));
        EXPECT_TRUE(fs::exists(output(rank) / "communication_matrix.json"));
    }
    // Rank 1's tasks start at rank 1 and name rank 0 as the peer.
    const json matrix = readJson(output(1) / "communication_matrix.json");
    const json& top = matrix["step0"]["collective"].begin().value();
    EXPECT_TRUE(top.contains("1-0"));
    EXPECT_TRUE(top.contains("1-1"));
}

TEST_F(CollectiveRun, ElapseTimeIsTheTraceViewDurationOfTheOp) {
    const json comm = readJson(output(0) / "communication.json");
    const auto ops = hcclOps(0);
    ASSERT_EQ(ops.size(), 2u);  // one allreduce per step, 2 steps
    for (std::size_t step = 0; step < 2; ++step) {
        const json& collective = comm["step" + std::to_string(step)]["collective"];
        const json& info = collective.begin().value()["Communication Time Info"];
        EXPECT_EQ(collective.begin().key().substr(0, ops[step].first.size()), ops[step].first);
        EXPECT_NEAR(info["Elapse Time(ms)"].get<double>() * 1000.0, ops[step].second.durUs, 1e-3);
        EXPECT_NEAR(info["Start Timestamp(us)"].get<double>(), ops[step].second.startUs, 0.5);
        EXPECT_GT(info["Transit Time(ms)"].get<double>(), 0.0);
    }
}

TEST_F(CollectiveRun, StepTraceCommunicationIsTheUnionOfCollectiveIntervals) {
    const auto ops = hcclOps(0);
    const CsvTable steps = readCsv(output(0) / "step_trace_time.csv");
    ASSERT_EQ(steps.rows.size(), 2u);
    for (std::size_t step = 0; step < 2; ++step) {
        // One collective per step, so the union is its duration.
        EXPECT_NEAR(numberCell(steps.cell(step, "Communication")), ops[step].second.durUs, 2e-3);
        const double notOverlapped = numberCell(steps.cell(step, "Communication(Not Overlapped)"));
        const double overlapped = numberCell(steps.cell(step, "Overlapped"));
        EXPECT_NEAR(notOverlapped + overlapped, ops[step].second.durUs, 2e-3);
    }
}

TEST_F(CollectiveRun, KernelDetailsHasACommunicationRowAndTheUpdateWaitsForTheAllReduce) {
    const CsvTable kernels = readCsv(output(0) / "kernel_details.csv");
    const auto ops = hcclOps(0);
    std::vector<std::size_t> hcclRows;
    for (std::size_t i = 0; i < kernels.rows.size(); ++i)
        if (kernels.cell(i, "Accelerator Core") == "COMMUNICATION") hcclRows.push_back(i);
    ASSERT_EQ(hcclRows.size(), 2u);
    for (std::size_t n = 0; n < 2; ++n) {
        const std::size_t row = hcclRows[n];
        EXPECT_EQ(kernels.cell(row, "Type"), "hcom_allReduce_");
        EXPECT_EQ(kernels.cell(row, "Block Dim"), "0");
        EXPECT_EQ(kernels.cell(row, "Task ID"), "N/A");
        // The optimizer's kernel (the next row) starts only after the allreduce has ended.
        ASSERT_LT(row + 1, kernels.rows.size());
        EXPECT_GE(numberCell(kernels.cell(row + 1, "Start Time(us)")),
                  ops[n].second.startUs + ops[n].second.durUs);
    }
}

TEST_F(CollectiveRun, EveryHcclTaskIsAlsoAnSqeOnTheHcclStream) {
    const json trace = readJson(output(0) / "trace_view.json");
    std::map<std::string, std::int64_t> pidOf;
    for (const auto& e : trace)
        if (e["ph"] == "M" && e["name"] == "process_name") pidOf[e["args"]["name"]] = e["pid"];
    std::map<std::string, int> planeTasks, sqes;
    for (const auto& e : trace) {
        if (e["ph"] != "X") continue;
        if (e["pid"] == pidOf["HCCL"] && e["tid"] != 0) planeTasks[e["args"]["task type"]]++;
        if (e["pid"] == pidOf["Ascend Hardware"] && e["tid"] == 4) sqes[e["name"]]++;
    }
    EXPECT_EQ(sqes["SDMA"], planeTasks["Memcpy"] + planeTasks["Reduce_Inline"]);
    EXPECT_EQ(sqes["Write Value"], planeTasks["Notify_Record"]);
    EXPECT_EQ(sqes["Notify Wait"], planeTasks["Notify_Wait"]);
    EXPECT_GT(sqes["SDMA"], 0);
}

TEST_F(CollectiveRun, ApiStatisticHasTheHcclHostCalls) {
    const CsvTable apis = readCsv(output(0) / "api_statistic.csv");
    std::map<std::string, std::string> countByApi;
    for (std::size_t i = 0; i < apis.rows.size(); ++i)
        countByApi[apis.cell(i, "Level") + "/" + apis.cell(i, "API Name")] = apis.cell(i, "Count");
    EXPECT_EQ(countByApi["acl/hcom_allReduce_"], "2");
    EXPECT_EQ(countByApi["communication/Launch_Ffts"], "2");
    EXPECT_EQ(countByApi["node/launch"], "6");  // 4 kernels and 2 collectives
}

TEST(CollectiveRunOptions, RankOptionWritesOnlyThatRankAndLevel0HasNoCommunicationFiles) {
    TempDir scratch;
    auto options = commandOptions(unitWorkload("allreduce.yaml"), scratch.path());
    options.rank = 1;
    options.level = "Level0";
    const auto outcome = runCommand(options);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    const fs::path dir = onlyProfilerDir(scratch.path());
    EXPECT_TRUE(fs::exists(dir / "profiler_info_1.json"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT" / "communication.json"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT" / "communication_matrix.json"));
    const CsvTable kernels = readCsv(dir / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
    std::size_t collectives = 0;
    for (std::size_t i = 0; i < kernels.rows.size(); ++i) {
        if (kernels.cell(i, "Accelerator Core") != "COMMUNICATION") continue;
        ++collectives;
        EXPECT_EQ(kernels.cell(i, "Type"), "N/A");
        EXPECT_EQ(kernels.cell(i, "Device_id"), "1");
    }
    EXPECT_EQ(collectives, 2u);
}

// 9 ranks on servers of 8: 8 on one, 1 on the next, which HCCL's hierarchical algorithms do not
// cover (asymmetric groups).
TEST(CollectiveRunOptions, AnAsymmetricGroupIsAnErrorNamingTheOp) {
    TempDir scratch;
    auto options = commandOptions(unitWorkload("allreduce.yaml"), scratch.path());
    options.setOverrides = {"ranks=9"};
    const auto outcome = runCommand(options);
    EXPECT_EQ(outcome.exitCode, 2);
    EXPECT_NE(outcome.err.find("ops[1].type"), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find("asymmetric"), std::string::npos) << outcome.err;
    EXPECT_TRUE(entriesOf(scratch.path()).empty());
    options.setOverrides.clear();
    options.rank = 2;
    const auto outside = runCommand(options);
    EXPECT_EQ(outside.exitCode, 2);
    EXPECT_NE(outside.err.find("--rank"), std::string::npos) << outside.err;
}

}  // namespace
}  // namespace ascendsim::e2e
