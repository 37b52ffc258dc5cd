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

}  // namespace
}  // namespace ascendsim
