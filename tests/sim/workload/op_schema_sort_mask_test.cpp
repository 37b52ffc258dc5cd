// The shape rules of Sort, TopKV2, TopKD and StatelessDropOutGenMask (docs/op-catalog.md, "Sort,
// TopK and dropout masks").
#include <gtest/gtest.h>

#include "tests/sim/workload/op_schema_test_support.h"

namespace ascendsim {
namespace {

using namespace schema_test;  // NOLINT

TEST(OpSchemaSortMask, SortGivesValuesAndInt32IndicesOfXsShape) {
    const auto x = tensor("x", {4096}, DataType::Fp32);
    const auto out = infer("Sort", {x});
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].shape, x.shape);
    EXPECT_EQ(out[1].dtype, DataType::Int32);
    EXPECT_EQ(problemField("Sort", {tensor("s", {}, DataType::Fp32)}), "inputs[0]");
}

TEST(OpSchemaSortMask, TopKCutsTheLastAxisToK) {
    const auto x = tensor("x", {32, 1000}, DataType::Fp32);
    const std::map<std::string, AttrValue> k5{{"k", std::int64_t{5}}};
    EXPECT_EQ(infer("TopKV2", {x}, k5)[0].shape, (Shape{32, 5}));
    EXPECT_EQ(problemField("TopKV2", {x}, {{"k", std::int64_t{1001}}}), "attrs.k");
    const auto half = tensor("x", {32, 1000}, DataType::Fp16);
    const auto out = infer("TopKD", {half, tensor("assist", {2048}, DataType::Fp16)}, k5);
    EXPECT_EQ(out[1].shape, (Shape{32, 5}));
    EXPECT_EQ(out[1].dtype, DataType::Int32);
    EXPECT_EQ(problemField("TopKD", {half, tensor("assist", {2, 1024}, DataType::Fp16)}, k5), "inputs[1]");
}

TEST(OpSchemaSortMask, GenMaskWritesWhole128BitGroups) {
    EXPECT_EQ(infer("StatelessDropOutGenMask", {}, {{"elements", std::int64_t{32 * 9216}}})[0].shape, (Shape{36864}));
    EXPECT_EQ(infer("StatelessDropOutGenMask", {}, {{"elements", std::int64_t{129}}})[0].shape, (Shape{32}));
    EXPECT_EQ(problemField("StatelessDropOutGenMask", {}, {{"elements", std::int64_t{0}}}), "attrs.elements");
}

}  // namespace
}  // namespace ascendsim
