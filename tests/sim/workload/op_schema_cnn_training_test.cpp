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

TEST(OpSchemaCnnTraining, MaxPoolWithArgmaxGivesYAndTheBitMaskAndItsGradDx) {
    const auto x = tensor("x", {32, 64, 55, 55}, DataType::Fp16);
    const std::map<std::string, AttrValue> window{{"ksize", std::vector<std::int64_t>{3, 3}},
                                                  {"strides", std::vector<std::int64_t>{2, 2}}};
    const auto out = infer("MaxPoolWithArgmaxV1", {x}, window);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].shape, (Shape{32, 64, 27, 27}));
    EXPECT_EQ(out[1].shape, (Shape{32, 4, 9, 47, 16}));  // the 910A sample's argmax
    EXPECT_EQ(out[1].dtype, DataType::Int16);
    const auto dy = tensor("dy", {32, 64, 27, 27}, DataType::Fp16), mask = tensor("m", {32, 4, 9, 47, 16}, DataType::Int16);
    EXPECT_EQ(infer("MaxPoolGradWithArgmaxV1", {x, dy, mask}, window)[0].shape, x.shape);
    EXPECT_EQ(problemField("MaxPoolGradWithArgmaxV1", {x, dy, tensor("m", {32, 4, 9, 46, 16}, DataType::Int16)}, window), "inputs[2]");
    EXPECT_EQ(problemField("MaxPoolGradWithArgmaxV1", {x, tensor("dy", {32, 64, 26, 27}, DataType::Fp16), mask}, window), "inputs[1]");
    EXPECT_EQ(problemField("MaxPoolWithArgmaxV1", {tensor("x", {32, 60, 55, 55}, DataType::Fp16)}, window), "inputs[0]");
    auto padded = window;
    padded["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
    EXPECT_EQ(problemField("MaxPoolWithArgmaxV1", {x}, padded), "attrs.pads");
    EXPECT_EQ(problemField("MaxPoolWithArgmaxV1", {x}), "attrs.ksize");
}

TEST(OpSchemaCnnTraining, DropOutDoMaskNeedsOneMaskBitPerElement) {
    const auto x = tensor("x", {32, 9216}, kF32);
    EXPECT_EQ(infer("DropOutDoMask", {x, tensor("m", {36864}, DataType::Uint8), tensor("p", {1}, kF32)})[0].shape, x.shape);
    EXPECT_EQ(problemField("DropOutDoMask", {x, tensor("m", {36863}, DataType::Uint8)}), "inputs[1]");
    EXPECT_EQ(problemField("DropOutDoMask", {x, tensor("m", {36864}, DataType::Int8)}), "inputs[1]");
    EXPECT_EQ(problemField("DropOutDoMask", {x, tensor("m", {36864}, DataType::Uint8), tensor("p", {2}, kF32)}), "inputs[2]");
}

TEST(OpSchemaCnnTraining, NllLossGivesTwoScalarsAndItsGradDx) {
    const auto x = tensor("x", {32, 1000}, kF32), t = tensor("t", {32}, DataType::Int64), w = tensor("w", {1000}, kF32);
    const auto out = infer("NLLLoss", {x, t, w});
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].shape, (Shape{1}));
    const auto one = tensor("s", {1}, kF32);
    EXPECT_EQ(infer("NLLLossGrad", {x, one, t, w, one})[0].shape, x.shape);
    EXPECT_EQ(problemField("NLLLoss", {x, tensor("t", {31}, DataType::Int64), w}), "inputs[1]");
    EXPECT_EQ(problemField("NLLLoss", {x, tensor("t", {32}, kF32), w}), "inputs[1]");
    EXPECT_EQ(problemField("NLLLoss", {x, t, tensor("w", {999}, kF32)}), "inputs[2]");
    EXPECT_EQ(problemField("NLLLossGrad", {x, tensor("dy", {2}, kF32), t, w, one}), "inputs[1]");
}

TEST(OpSchemaCnnTraining, LogSoftmaxKeepsTheShapeAndItsGradNeedsMatchingOperands) {
    const auto x = tensor("x", {32, 1000}, kF32);
    EXPECT_EQ(infer("LogSoftmaxV2", {x})[0].shape, x.shape);
    EXPECT_EQ(infer("LogSoftmaxGrad", {x, tensor("y", {32, 1000}, kF32)})[0].shape, x.shape);
    EXPECT_EQ(problemField("LogSoftmaxV2", {tensor("i", {32, 1000}, DataType::Int32)}), "inputs[0]");
    EXPECT_EQ(problemField("LogSoftmaxGrad", {x, tensor("y", {32, 999}, kF32)}), "inputs[1]");
}

TEST(OpSchemaCnnTraining, AdaptiveAvgPool3dReplacesTheSpatialDims) {
    const auto x = tensor("x", {32, 1, 6, 6, 256}, kF32);
    EXPECT_EQ(infer("AdaptiveAvgPool3d", {x}, {{"output_size", std::vector<std::int64_t>{1, 3, 3}}})[0].shape, (Shape{32, 1, 3, 3, 256}));
    EXPECT_EQ(infer("AdaptiveAvgPool3dGrad", {tensor("dy", {32, 1, 3, 3, 256}, kF32)}, {{"input_size", std::vector<std::int64_t>{1, 6, 6}}})[0].shape,
              x.shape);
    EXPECT_EQ(problemField("AdaptiveAvgPool3d", {tensor("x", {6, 6, 256}, kF32)}, {{"output_size", std::vector<std::int64_t>{1, 3, 3}}}), "inputs[0]");
    EXPECT_EQ(problemField("AdaptiveAvgPool3d", {x}, {{"output_size", std::vector<std::int64_t>{3, 3}}}), "attrs.output_size");
}

TEST(OpSchemaCnnTraining, TransDataToFractalZKeepsTheElementCountForTheDeclaredOutput) {
    const auto out = infer("TransData", {tensor("w", {256, 384, 3, 3}, kF32)}, {{"dst_format", std::string("FRACTAL_Z")}});
    EXPECT_EQ(out[0].format, TensorFormat::FractalZ);
    EXPECT_TRUE(out[0].elementCountOnly);  // the workload declares [C1·kh·kw, Co/16, 16, C0]
}

}  // namespace
}  // namespace ascendsim
