// An FSDP-style run end to end (workloads/unit/collectives.yaml, 4 ranks, Level1): the
// broadcast, allgather and reducescatter each appear in communication.json, communication_matrix,
// trace_view's HCCL rows, kernel_details and api_statistic, named as HCCL names them
// ([D] e5a31957 test_data, ef63bc64 level2: hcom_broadcast_, hcom_allGather_,
// hcom_reduceScatter_; matrix keys broadcast-, allgather-, reduce-).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <systemc>

#include "profiler/writers/db_query_test_support.h"
#include "sim/engine/rank_directories_run.h"
#include "sim/engine/ranks/collective_ops.h"

namespace ascendsim::e2e {
namespace {

using json = nlohmann::ordered_json;

constexpr std::size_t kRanks = 4;
// w_shard [256, 1024] fp32.
constexpr double kShardMb = 256.0 * 1024 * 4 / 1e6;

// The p2p ops' names as the ef63bc64 Level2 sample spells them: kernel_details Type
// hcom_batchSendRecv_, Name hcom_batchSendRecv__128_3_1, communication.json key
// hcom_batchSendRecv__128_3_1@3985310405473756128 (its group's hash ends in 128; op 3 of the step).
TEST(CollectiveNames, P2pOpsAreNamedAsTheRealSampleNamesThem) {
    EXPECT_STREQ(collectiveApiName(CollectiveKind::BatchSendRecv), "hcom_batchSendRecv_");
    EXPECT_EQ(collectiveOpName(CollectiveKind::BatchSendRecv, "3985310405473756128", 3), "hcom_batchSendRecv__128_3_1");
    EXPECT_EQ(collectiveOpName(CollectiveKind::Send, "3985310517142905952", 0), "hcom_send__952_0_1");
    EXPECT_EQ(collectiveOpName(CollectiveKind::Recv, "3985310517142905952", 4), "hcom_receive__952_4_1");
}

class CollectiveKindsRun : public RankDirectoriesRun {
  protected:
    static void SetUpTestSuite() { runWorkload("collectives.yaml"); }

    // step0's collectives of communication.json, by the op name before "@".
    static std::map<std::string, json> step0Ops(std::size_t rank) {
        const json comm = readJson(output(rank) / "communication.json");
        std::map<std::string, json> ops;
        for (const auto& [key, op] : comm["step0"]["collective"].items())
            if (key != "Total Op Info") ops[key.substr(0, key.find('@'))] = op;
        return ops;
    }
};

TEST_F(CollectiveKindsRun, CommunicationJsonHasEachOpNamedInIssueOrderWithItsBytes) {
    ASSERT_EQ(dirs_->size(), kRanks);
    for (std::size_t rank = 0; rank < kRanks; ++rank) {
        const auto ops = step0Ops(rank);
        ASSERT_EQ(ops.size(), 3u) << rank;
        // One numbering for every kind of op, in issue order (e5a31957: broadcast _0, _1, ...).
        const std::string hash = ops.begin()->first.substr(ops.begin()->first.rfind("__") + 2, 3);
        const std::string broadcast = "hcom_broadcast__" + hash + "_0_1";
        const std::string gather = "hcom_allGather__" + hash + "_1_1";
        const std::string scatter = "hcom_reduceScatter__" + hash + "_2_1";
        ASSERT_TRUE(ops.contains(broadcast) && ops.contains(gather) && ops.contains(scatter))
            << ops.begin()->first;
        const auto hccs = [&](const std::string& name) {
            return ops.at(name)["Communication Bandwidth Info"]["HCCS"];
        };
        // AllGather: every peer's shard; ReduceScatter: this rank's shard of every peer.
        EXPECT_NEAR(hccs(gather)["Transit Size(MB)"].get<double>(), 3 * kShardMb, 1e-9);
        EXPECT_EQ(hccs(gather)["Size Distribution"].size(), 1u);
        EXPECT_TRUE(hccs(gather)["Size Distribution"].contains("1.048576"));
        EXPECT_NEAR(hccs(scatter)["Transit Size(MB)"].get<double>(), 3 * kShardMb, 1e-9);
        // Broadcast: slices of a quarter; the root reads 3, every other rank 4 (its own slice
        // from the root, then the 3 others').
        const json slices = hccs(broadcast)["Size Distribution"];
        ASSERT_TRUE(slices.contains("0.262144")) << slices.dump();
        EXPECT_EQ(slices["0.262144"][0].get<int>(), rank == 0 ? 3 : 4);
        for (const auto& name : {broadcast, gather, scatter})
            EXPECT_GT(ops.at(name)["Communication Time Info"]["Elapse Time(ms)"].get<double>(),
                      0.0);
    }
}

TEST_F(CollectiveKindsRun, BackToBackCollectivesDoNotRunAnIdleDevice) {
    // The broadcast and the allgather follow each other with no kernel between them: the second
    // must not start SystemC with nothing to do (warning W571).
    EXPECT_EQ(sc_core::sc_report_handler::get_count(
                  "no activity or clock movement for sc_start() invocation"),
              0);
}

TEST_F(CollectiveKindsRun, CommunicationMatrixKeysAreTorchNpusTypeNames) {
    const json matrix = readJson(output(1) / "communication_matrix.json");
    std::map<std::string, json> byKey;
    for (const auto& [key, links] : matrix["step0"]["collective"].items())
        byKey[key.substr(0, key.find('@'))] = links;
    for (const char* type : {"broadcast", "allgather", "reduce"})
        for (const char* pick : {"-top1", "-middle", "-bottom1", "-total"})
            EXPECT_TRUE(byKey.contains(std::string(type) + pick)) << type << pick;
    EXPECT_FALSE(byKey.contains("reducescatter-total"));
    EXPECT_FALSE(byKey.contains("allreduce-total"));
    // Rank 1 moves two slices with the root in a broadcast: its own, then the root's.
    EXPECT_NEAR(byKey["broadcast-total"]["1-0"]["Transit Size(MB)"].get<double>(),
                2 * kShardMb / kRanks, 1e-9);
    EXPECT_NEAR(byKey["allgather-total"]["1-0"]["Transit Size(MB)"].get<double>(), kShardMb, 1e-9);
}

TEST_F(CollectiveKindsRun, TraceViewHasAnHcclRowPerOpWithItsKindsOfTasks) {
    const json trace = readJson(output(0) / "trace_view.json");
    const std::int64_t pid = processPid(trace, "HCCL");
    ASSERT_NE(pid, -1);
    std::vector<std::string> opRows;
    std::map<std::string, int> taskTypes;
    for (const auto& e : trace) {
        if (e["ph"] != "X" || e["pid"] != pid) continue;
        if (e["tid"] == 0)
            opRows.push_back(e["name"].get<std::string>());
        else
            taskTypes[e["args"]["task type"].get<std::string>()]++;
    }
    ASSERT_EQ(opRows.size(), 6u);  // 3 ops, 2 steps
    const std::vector<std::string> prefixes{"hcom_broadcast__", "hcom_allGather__",
                                            "hcom_reduceScatter__"};
    for (std::size_t i = 0; i < opRows.size(); ++i)
        EXPECT_EQ(opRows[i].rfind(prefixes[i % 3], 0), 0u) << opRows[i];
    // Per step on the root: the broadcast's copy and 3 reads, the allgather's 2 copies and 3
    // writes, the reducescatter's 2 copies (and its 3 Reduce_Inline).
    EXPECT_EQ(taskTypes["Reduce_Inline"], 2 * 3);
    EXPECT_EQ(taskTypes["Memcpy"], 2 * ((1 + 3) + (2 + 3) + 2));
}

TEST_F(CollectiveKindsRun, KernelDetailsAndApiStatisticHaveEachOpInItsStep) {
    const CsvTable kernels = readCsv(output(2) / "kernel_details.csv");
    std::map<std::string, int> rowsByType;
    for (std::size_t i = 0; i < kernels.rows.size(); ++i) {
        if (kernels.cell(i, "Accelerator Core") != "COMMUNICATION") continue;
        ++rowsByType[kernels.cell(i, "Type")];
        EXPECT_EQ(kernels.cell(i, "Name").rfind(kernels.cell(i, "Type") + "_", 0), 0u);
        // A step that begins with a collective still owns it (the sample's hcom_broadcast__483_0
        // is in step 2).
        EXPECT_NE(kernels.cell(i, "Step Id"), "") << kernels.cell(i, "Name");
    }
    EXPECT_EQ(rowsByType,
              (std::map<std::string, int>{
                  {"hcom_broadcast_", 2}, {"hcom_allGather_", 2}, {"hcom_reduceScatter_", 2}}));
    const CsvTable apis = readCsv(output(2) / "api_statistic.csv");
    std::map<std::string, std::string> countByApi;
    for (std::size_t i = 0; i < apis.rows.size(); ++i)
        countByApi[apis.cell(i, "Level") + "/" + apis.cell(i, "API Name")] = apis.cell(i, "Count");
    EXPECT_EQ(countByApi["acl/hcom_broadcast_"], "2");
    EXPECT_EQ(countByApi["acl/hcom_allGather_"], "2");
    EXPECT_EQ(countByApi["acl/hcom_reduceScatter_"], "2");
    EXPECT_EQ(countByApi["communication/Launch_Ffts"], "6");
}

// The DB export: COMMUNICATION_OP holds each kind of op once per recorded step, in issue order,
// and COMMUNICATION_TASK_INFO holds the HCCL tasks of every one of them.
TEST(CollectiveKindsDb, CommunicationTablesHoldEveryKindPerStep) {
    TempDir out;
    auto options = commandOptions(unitWorkload("collectives.yaml"), out.path());
    options.exportType = "db";
    options.level = "Level1";
    options.rank = 0;
    const auto outcome = runCommand(options);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    const fs::path db = onlyProfilerDir(out.path()) / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db";
    ASSERT_TRUE(fs::exists(db));
    using testing_support::query;
    const auto names = query(db, "SELECT s.value FROM COMMUNICATION_OP c JOIN STRING_IDS s ON s.id = c.opName "
                                 "ORDER BY c.startNs");
    ASSERT_FALSE(names.empty());
    ASSERT_EQ(names.size() % 3, 0u) << "three ops per recorded step";
    for (std::size_t i = 0; i < names.size(); ++i) {
        const char* prefix = i % 3 == 0 ? "hcom_broadcast__" : i % 3 == 1 ? "hcom_allGather__" : "hcom_reduceScatter__";
        EXPECT_EQ(names[i].rfind(prefix, 0), 0u) << names[i];
    }
    EXPECT_EQ(query(db, "SELECT count(DISTINCT opId) FROM COMMUNICATION_TASK_INFO"),
              std::vector<std::string>{std::to_string(names.size())});
}

}  // namespace
}  // namespace ascendsim::e2e
