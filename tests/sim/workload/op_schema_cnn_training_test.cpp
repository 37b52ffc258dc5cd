// The shape rules of the CNN-training-sample ops (docs/op-catalog.md, "Ops of the CNN training
// samples").
#include <gtest/gtest.h>

#include "tests/sim/workload/op_schema_test_support.h"

namespace ascendsim {
namespace {

using namespace schema_test;  // NOLINT

const DataType kF32 = DataType::Fp32;

TEST(OpSchemaCnnTraining, AxpyV2BroadcastsAndTakesAOneElementAlpha) {
    const auto w = tensor("w", {4096, 9216}, kF32), g = tensor("g", {4096, 9216}, kF32);
    EXPECT_EQ(infer("AxpyV2", {w, g, tensor("alpha", {1}, kF32)})[0].shape, w.shape);
    EXPECT_EQ(infer("AxpyV2", {w, tensor("b", {9216}, kF32)})[0].shape, w.shape);
    EXPECT_EQ(problemField("AxpyV2", {w, g, tensor("alpha", {2}, kF32)}), "inputs[2]");
    EXPECT_EQ(problemField("AxpyV2", {w, tensor("g", {4096, 9216}, DataType::Fp16)}), "inputs[1]");
    EXPECT_EQ(problemField("AxpyV2", {w, tensor("g", {4096, 9215}, kF32)}), "inputs[1]");
    EXPECT_EQ(problemField("AxpyV2", {tensor("i", {8}, DataType::Int32), tensor("j", {8}, DataType::Int32)}), "inputs[0]");
}

}  // namespace
}  // namespace ascendsim
