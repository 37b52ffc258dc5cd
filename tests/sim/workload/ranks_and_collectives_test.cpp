// `ranks` (the data-parallel world size) and the collective op types HcomAllReduce,
// HcomAllGather, HcomReduceScatter, HcomBroadcast (docs/workload-format.md §9).
#include <gtest/gtest.h>

#include <set>

#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::writeTempYaml;

constexpr const char* kAllReduceYaml =
    "name: t\nparameters: {n: 1024}\nranks: 2*2\n"
    "tensors: [{name: g, shape: [$n], dtype: fp32, kind: state}]\n"
    "ops: [{name: ar, type: HcomAllReduce, inputs: [g], outputs: [g]}]\n";

TEST(Ranks, DefaultOneAnExpressionInTheFileAndASetOverride) {
    const std::string path = writeTempYaml("ranks.yaml", kAllReduceYaml);
    EXPECT_EQ(loadWorkload(path).ranks, 4u);
    EXPECT_EQ(loadWorkload(path, WorkloadOverrides{{"ranks=8"}}).ranks, 8u);
    const std::string single =
        writeTempYaml("single.yaml",
                      "name: t\ntensors: [{name: a, shape: [2], kind: input}]\n"
                      "ops: [{name: r, type: Relu, inputs: [a], outputs: [b]}]\n");
    EXPECT_EQ(loadWorkload(single).ranks, 1u);
}

TEST(Ranks, ZeroOrTextIsAnErrorNamingTheField) {
    const std::string path = writeTempYaml("ranks.yaml", kAllReduceYaml);
    try {
        loadWorkload(path, WorkloadOverrides{{"ranks=0"}});
        FAIL() << "ranks=0 accepted";
    } catch (const WorkloadError& e) {
        EXPECT_EQ(e.field(), "--set ranks");
    }
    EXPECT_THROW(loadWorkload(path, WorkloadOverrides{{"ranks=two"}}), WorkloadError);
}

TEST(HcomAllReduce, ReducesInPlaceWithASumByDefault) {
    const Workload w = loadWorkload(writeTempYaml("ar.yaml", kAllReduceYaml));
    const WorkloadOp* op = w.findOp("ar");
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(std::get<std::string>(op->attrs.at("reduction")), "sum");
    EXPECT_EQ(w.findTensor("g")->info.shape, (std::vector<std::int64_t>{1024}));
    const std::string bad = writeTempYaml(
        "bad.yaml",
        "name: t\nranks: 2\ntensors: [{name: g, shape: [4], dtype: fp32, kind: state}]\n"
        "ops: [{name: ar, type: HcomAllReduce, inputs: [g], outputs: [g], attrs: {reduction: "
        "mean}}]\n");
    EXPECT_THROW(loadWorkload(bad), WorkloadError);
}

// One op of `type` on an input g [rows, 8], its output y inferred, over `ranks` ranks.
std::string shardYaml(const std::string& type, int rows, int ranks) {
    return "name: t\nranks: " + std::to_string(ranks) +
           "\ntensors: [{name: g, shape: [" + std::to_string(rows) +
           ", 8], dtype: fp16, kind: state}]\n"
           "ops:\n  - {name: c, type: " + type + ", inputs: [g], outputs: [y]}\n";
}

TEST(HcomAllGather, OutputIsDimZeroTimesRanks) {
    const Workload w =
        loadWorkload(writeTempYaml("ag.yaml", shardYaml("HcomAllGather", 6, 4)));
    EXPECT_EQ(w.findTensor("y")->info.shape, (std::vector<std::int64_t>{24, 8}));
    EXPECT_EQ(w.findTensor("y")->info.dtype, DataType::Fp16);
    const Workload two = loadWorkload(writeTempYaml("ag.yaml", shardYaml("HcomAllGather", 6, 4)),
                                      WorkloadOverrides{{"ranks=2"}});
    EXPECT_EQ(two.findTensor("y")->info.shape, (std::vector<std::int64_t>{12, 8}));
}

TEST(HcomReduceScatter, OutputIsDimZeroOverRanksAndSumsByDefault) {
    const Workload w =
        loadWorkload(writeTempYaml("rs.yaml", shardYaml("HcomReduceScatter", 24, 8)));
    EXPECT_EQ(w.findTensor("y")->info.shape, (std::vector<std::int64_t>{3, 8}));
    EXPECT_EQ(std::get<std::string>(w.findOp("c")->attrs.at("reduction")), "sum");
}

TEST(HcomReduceScatter, DimZeroNotDividingByRanksIsAnErrorNamingFileLineAndField) {
    const std::string path = writeTempYaml("rs_bad.yaml", shardYaml("HcomReduceScatter", 10, 4));
    try {
        loadWorkload(path);
        FAIL() << "10 rows over 4 ranks accepted";
    } catch (const WorkloadError& e) {
        EXPECT_EQ(e.field(), "ops[0].inputs[0]");
        EXPECT_EQ(e.where().file, path);
        EXPECT_EQ(e.where().line, 5);  // the op's line
        EXPECT_NE(e.problem().find("dim 0 (10) must divide by ranks (4)"), std::string::npos)
            << e.problem();
    }
}

TEST(HcomBroadcast, WritesInPlaceWithTheInputsShape) {
    const Workload w = loadWorkload(writeTempYaml(
        "bc.yaml", "name: t\nranks: 4\ntensors: [{name: g, shape: [5, 3], dtype: fp32, kind: "
                   "state}]\nops: [{name: b, type: HcomBroadcast, inputs: [g], outputs: [g]}]\n"));
    EXPECT_EQ(w.findTensor("g")->info.shape, (std::vector<std::int64_t>{5, 3}));
    EXPECT_EQ(w.findOp("b")->attrs.count("reduction"), 0u) << "a broadcast reduces nothing";
    // Its attributes are the root (group rank 0 by default) and the group it spans (the world).
    EXPECT_EQ(w.findOp("b")->attrs.size(), 2u);
    EXPECT_EQ(w.findOp("b")->attrs.count("root"), 1u);
    EXPECT_EQ(std::get<std::string>(w.findOp("b")->attrs.at("group")), "world");
}

TEST(ParallelBlock, SetsTheRanksAndEachCollectiveSpansItsGroup) {
    const Workload w = loadWorkload(writeTempYaml(
        "par.yaml", "name: t\nparallel: {tp: 2, dp: 4}\ntensors: [{name: g, shape: [8, 3], dtype: fp32, kind: "
                    "state}]\nops: [{name: ag, type: HcomAllGather, inputs: [g], outputs: [h], attrs: {group: tp}},"
                    " {name: rs, type: HcomReduceScatter, inputs: [g], outputs: [s], attrs: {group: dp}}]\n"));
    EXPECT_EQ(w.ranks, 8u);
    EXPECT_EQ(w.findTensor("h")->info.shape, (std::vector<std::int64_t>{16, 3}));  // x tp
    EXPECT_EQ(w.findTensor("s")->info.shape, (std::vector<std::int64_t>{2, 3}));   // / dp
}

TEST(ParallelBlock, BadSizesAndDisagreeingRanksNameTheField) {
    const auto fails = [](const std::string& yaml, const std::string& field) {
        try {
            loadWorkload(writeTempYaml("bad.yaml", yaml));
        } catch (const WorkloadError& e) {
            EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
            return;
        }
        ADD_FAILURE() << "no error for " << yaml;
    };
    const std::string ops = "ops: [{name: a, type: Relu, inputs: [x], outputs: [y]}]\n"
                            "tensors: [{name: x, shape: [4], dtype: fp32, kind: input}]\n";
    fails("name: t\nparallel: {tp: 0}\n" + ops, "parallel.tp");
    fails("name: t\nparallel: {dp: 4, ep: 3}\n" + ops, "parallel.ep");
    fails("name: t\nparallel: {dp: 4, sp: 2}\n" + ops, "parallel");
    fails("name: t\nranks: 3\nparallel: {dp: 4}\n" + ops, "ranks");
    try {
        loadWorkload(writeTempYaml("slow.yaml", "name: t\nranks: 2\n" + ops), WorkloadOverrides{{"slow_rank=5:1.2"}});
        ADD_FAILURE() << "slow_rank outside the world accepted";
    } catch (const WorkloadError& e) {
        EXPECT_NE(std::string(e.what()).find("slow_rank"), std::string::npos) << e.what();
    }
}

TEST(Collectives, TheShippedUnitWorkloadLoadsWithEveryKindAndAnyRankCount) {
    const std::string path = testing::sourcePath("workloads/unit/collectives.yaml");
    for (const char* ranks : {"ranks=2", "ranks=4", "ranks=8"}) {
        const Workload w = loadWorkload(path, WorkloadOverrides{{ranks}});
        std::set<std::string> types;
        for (const auto& op : w.ops) types.insert(op.type);
        EXPECT_TRUE(types.contains("HcomBroadcast"));
        EXPECT_TRUE(types.contains("HcomAllGather"));
        EXPECT_TRUE(types.contains("HcomReduceScatter"));
        EXPECT_EQ(w.findTensor("g_shard")->info.shape, w.findTensor("w_shard")->info.shape);
        EXPECT_EQ(w.findTensor("w_full")->info.shape[0],
                  w.findTensor("w_shard")->info.shape[0] * w.ranks);
    }
}

}  // namespace
}  // namespace ascendsim
