// Replay rules of the ops added for coverage in session 10: Sort, TopKV2, TopKD, Fill and the AI
// CPU dropout mask generator, whose row records no tensor until the consumer pass gives it the
// mask its DropOutDoMask reads (input/dropout_mask_owner.h).
#include <gtest/gtest.h>

#include "sim/replay/input/dropout_mask_owner.h"
#include "sim/replay/rules/replay_op_rules.h"
#include "tests/sim/replay/real_row.h"

namespace ascendsim {
namespace {

using test::row;
using Shape = std::vector<std::int64_t>;

TEST(ReplayRulesSortMask, SortAndTopKKeepTheScoresAndBothOutputs) {
    const OpInstance sort = replayOp(row("Sort", "4096", "FLOAT", "ND", "4096;4096", "FLOAT;INT32", "ND;ND", 1));
    EXPECT_EQ(sort.type, "Sort");
    ASSERT_EQ(sort.inputs.size(), 1u);
    ASSERT_EQ(sort.outputs.size(), 2u);
    EXPECT_EQ(sort.outputs[1].dtype, DataType::Int32);
    EXPECT_EQ(familyOf("Sort"), "sort");
    // TopKV2's k is a host scalar (an empty shape): dropped, k is the outputs' last dim.
    const OpInstance v2 = replayOp(row("TopKV2", "32,1000;", "FLOAT;INT32", "FORMAT_ND;FORMAT_ND", "32,5;32,5",
                                       "FLOAT;INT32", "FORMAT_ND;FORMAT_ND", 16));
    ASSERT_EQ(v2.inputs.size(), 1u);
    EXPECT_EQ(v2.inputs[0].shape, (Shape{32, 1000}));
    EXPECT_EQ(v2.outputs[0].shape, (Shape{32, 5}));
    EXPECT_EQ(v2.blockDim, 16u);
    // TopKD keeps its assist tensor (the index halves its proposals read).
    const OpInstance d = replayOp(row("TopKD", "32,1000;2048", "FLOAT16;FLOAT16", "FORMAT_ND;FORMAT_ND", "32,5;32,5",
                                      "FLOAT16;INT32", "FORMAT_ND;FORMAT_ND", 1));
    ASSERT_EQ(d.inputs.size(), 2u);
    EXPECT_EQ(d.inputs[1].shape, (Shape{2048}));
    EXPECT_THROW(replayOp(row("TopKV2", "32,1000", "FLOAT", "ND", "32,5", "FLOAT", "ND")), UnreplayableKernel);
}

TEST(ReplayRulesSortMask, FillWritesItsOutputOnly) {
    const OpInstance fill = replayOp(row("Fill", "1;", "INT64;FLOAT", "ND;ND", "1", "FLOAT", "ND", 1));
    EXPECT_EQ(fill.type, "Fill");
    EXPECT_TRUE(fill.inputs.empty());
    ASSERT_EQ(fill.outputs.size(), 1u);
    EXPECT_EQ(fill.outputs[0].dtype, DataType::Fp32);
}

TEST(ReplayRulesSortMask, GenMaskTakesTheMaskItsDropOutDoMaskReads) {
    RealKernel generator = row("StatelessDropOutGenMask", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", 0);
    generator.acceleratorCore = "AI_CPU";
    const RealKernel memset = row("MemSet", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", 11);
    const RealKernel doMask = row("DropOutDoMask", "32,9216;36864;", "FLOAT;UINT8;FLOAT", "ND;ND;ND", "32,9216", "FLOAT",
                                  "ND", 32);
    RealKernel lonely = generator;
    std::vector<RealKernel> rows{generator, memset, doMask, lonely};
    attributeDropoutMaskTensors(rows);
    EXPECT_EQ(rows[0].outputShapes, "36864");
    EXPECT_EQ(rows[0].outputDtypes, "UINT8");
    const OpInstance op = replayOp(rows[0]);
    EXPECT_EQ(op.type, "StatelessDropOutGenMask");
    ASSERT_EQ(op.outputs.size(), 1u);
    EXPECT_EQ(op.outputs[0].shape, (Shape{36864}));
    EXPECT_EQ(op.outputs[0].dtype, DataType::Uint8);
    EXPECT_EQ(familyOf("StatelessDropOutGenMask"), "dropout mask");
    // No consumer within reach: the row keeps N/A and is not expressible.
    EXPECT_EQ(rows[3].outputShapes, "N/A");
    EXPECT_THROW(replayOp(rows[3]), UnreplayableKernel);
}

}  // namespace
}  // namespace ascendsim
