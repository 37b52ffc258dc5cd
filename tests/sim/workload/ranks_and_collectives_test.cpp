// `ranks` (the data-parallel world size) and the HcomAllReduce op type (docs/workload-format.md).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ascendsim
