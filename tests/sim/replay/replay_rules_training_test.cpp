// Rebuilding the CNN training samples' rows (optimizer list updates, AxpyV2, pooling with argmax,
// dropout, losses) as catalog ops: rows as the 910B2 / 910A AlexNet exports record them.
#include <gtest/gtest.h>

#include "sim/replay/rules/replay_op_rules.h"
#include "tests/sim/replay/real_row.h"

namespace ascendsim {
namespace {

using Shape = std::vector<std::int64_t>;

using test::row;

TEST(ReplayRulesTraining, ForeachListsSplitByTheOutputCountAndScalarIsNotOne) {
    // Two entries (weight, bias) of each list, then the alpha scalar; outputs flattened.
    const OpInstance add = replayOp(row("ForeachAddList", "64,3,11,11;64;64,3,11,11;64;", "FLOAT;FLOAT;FLOAT;FLOAT;FLOAT",
                                        "NCHW;FORMAT_ND;NCHW;FORMAT_ND;FORMAT_ND", "23232;64", "FLOAT;FLOAT", "NCHW;FORMAT_ND"));
    ASSERT_EQ(add.inputs.size(), 4u);
    ASSERT_EQ(add.outputs.size(), 2u);
    EXPECT_EQ(add.inputs[2].shape, (Shape{64, 3, 11, 11}));
    EXPECT_EQ(add.outputs[0].elementCount(), add.inputs[0].elementCount());
    EXPECT_NE(add.floatAttr("alpha", 1.0), 1.0);
    const OpInstance mul = replayOp(row("ForeachMulScalar", "4096,9216;4096;", "FLOAT;FLOAT;FLOAT", "ND;ND;ND",
                                        "37748736;4096", "FLOAT;FLOAT", "ND;ND"));
    EXPECT_EQ(mul.inputs.size(), 2u);
    EXPECT_EQ(mul.outputs.size(), 2u);
    EXPECT_THROW(replayOp(row("ForeachAddList", "64;64;", "FLOAT;FLOAT;FLOAT", "ND;ND;ND", "64;64", "FLOAT;FLOAT", "ND;ND")),
                 UnreplayableKernel);
}

TEST(ReplayRulesTraining, AxpyV2KeepsTheAlphaTensor) {
    const OpInstance op = replayOp(row("AxpyV2", "4096,9216;4096,9216;", "FLOAT;FLOAT;FLOAT", "ND;ND;ND", "4096,9216",
                                       "FLOAT", "ND", 32));
    ASSERT_EQ(op.inputs.size(), 3u);
    EXPECT_EQ(op.inputs[2].shape, (Shape{1}));
    EXPECT_EQ(op.blockDim, 32u);
    EXPECT_EQ(familyOf("AxpyV2"), "optimizer");
}

TEST(ReplayRulesTraining, MaxPoolWithArgmaxWindowFromTheMaskAndShapes) {
    // 910B2: fp32 NC1HWC0 with C0 16, 55 → 27 with a 3×3 stride-2 window.
    const OpInstance op = replayOp(row("MaxPoolWithArgmaxV1", "32,4,55,55,16", "FLOAT", "NC1HWC0:1", "32,4,27,27,16;32,4,9,47,16",
                                       "FLOAT;UINT16", "NC1HWC0:1;NC1HWC0:1", 43));
    EXPECT_EQ(op.inputs[0].shape, (Shape{32, 64, 55, 55}));
    EXPECT_EQ(op.outputs[1].shape, (Shape{32, 4, 9, 47, 16}));
    EXPECT_EQ(op.outputs[1].dtype, DataType::Int16);
    EXPECT_EQ(op.intsAttr("ksize", {}), (Shape{3, 3}));
    EXPECT_EQ(op.intsAttr("strides", {}), (Shape{2, 2}));
    EXPECT_EQ(familyOf("MaxPoolWithArgmaxV1"), "pooling");
    // The grad's 910B2 argmax extent is not what the kernel reads: rebuilt as the forward's.
    const OpInstance grad = replayOp(row("MaxPoolGradWithArgmaxV1", "32,4,55,55,16;32,4,27,27,16;32,64,9,9,47,16",
                                         "FLOAT;FLOAT;UINT16", "NC1HWC0:1;NC1HWC0:1;NC1HWC0", "32,4,55,55,16", "FLOAT",
                                         "NC1HWC0:1", 256));
    ASSERT_EQ(grad.inputs.size(), 3u);
    EXPECT_EQ(grad.inputs[2].shape, (Shape{32, 4, 9, 47, 16}));
    EXPECT_EQ(grad.intsAttr("strides", {}), (Shape{2, 2}));
    EXPECT_EQ(grad.blockDim, 256u);
    EXPECT_THROW(replayOp(row("MaxPoolWithArgmaxV1", "32,4,55,55,16", "FLOAT16", "NC1HWC0", "32,4,27,27,16;32,4,8,47,16",
                              "FLOAT16;UINT16", "NC1HWC0;NC1HWC0")),
                 UnreplayableKernel);  // 8 taps: no square window
}

TEST(ReplayRulesTraining, TransDataToAndFromFractalZKeepsTheRecordedFractalShape) {
    const OpInstance to = replayOp(row("TransData", "256,384,3,3", "FLOAT", "NCHW", "432,16,16,8", "FLOAT", "FRACTAL_Z", 43));
    EXPECT_EQ(to.stringAttr("dst_format", ""), "FRACTAL_Z");
    EXPECT_EQ(to.outputs[0].shape, (Shape{432, 16, 16, 8}));
    const OpInstance from = replayOp(row("TransData", "432,16,16,8", "FLOAT", "FRACTAL_Z", "256,384,3,3", "FLOAT", "NCHW", 43));
    EXPECT_EQ(from.inputs[0].format, TensorFormat::FractalZ);
    EXPECT_EQ(from.stringAttr("dst_format", ""), "NCHW");
}

}  // namespace
}  // namespace ascendsim
