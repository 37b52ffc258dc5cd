// The max pool backward's argmax is the mask its forward wrote (input/argmax_mask_cells.h): the
// 910B2 export's [N, C, T, T, W, C0] cell becomes the forward's [N, C1, T, W, C0] and its format,
// so the L2 timeline reads a few MiB where the recorded extent streamed past L2 and emptied it.
#include <gtest/gtest.h>

#include "sim/replay/input/argmax_mask_cells.h"
#include "sim/replay/rules/replay_op_rules.h"
#include "sim/replay/run/l2_timeline.h"
#include "tests/sim/replay/real_row.h"

namespace ascendsim {
namespace {

using test::row;
using Shape = std::vector<std::int64_t>;
using Indices = std::vector<std::size_t>;

// AlexNet's 13 × 13 → 6 × 6 pool (e5a31957 text, kernel_details rows 32 and 101).
RealKernel forwardPool() {
    return row("MaxPoolWithArgmaxV1", "32,16,13,13,16", "FLOAT", "NC1HWC0:1", "32,16,6,6,16;32,16,9,4,16", "FLOAT;UINT16",
               "NC1HWC0:1;NC1HWC0:1", 47);
}
RealKernel backwardPool(const std::string& maskShape) {
    return row("MaxPoolGradWithArgmaxV1", "32,16,13,13,16;32,16,6,6,16;" + maskShape, "FLOAT;FLOAT;UINT16",
               "NC1HWC0:1;NC1HWC0:1;NC1HWC0", "32,16,13,13,16", "FLOAT", "NC1HWC0:1", 32);
}

TEST(ArgmaxMaskCells, TheBackwardReadsTheMaskItsForwardWrote) {
    std::vector<RealKernel> rows{forwardPool(), backwardPool("32,256,9,9,4,16")};
    restoreArgmaxMaskCells(rows);
    EXPECT_EQ(rows[1].inputShapes, "32,16,13,13,16;32,16,6,6,16;32,16,9,4,16");
    EXPECT_EQ(rows[1].inputFormats, "NC1HWC0:1;NC1HWC0:1;NC1HWC0:1");
    EXPECT_EQ(rows[1].inputDtypes, "FLOAT;FLOAT;UINT16");
    EXPECT_EQ(rows[0].outputShapes, forwardPool().outputShapes);  // the forward row is not touched
    // The kernel's own rule rebuilt the same operand from the recorded cell: it reads the same bytes.
    const OpInstance restored = replayOp(rows[1]);
    const OpInstance recorded = replayOp(backwardPool("32,256,9,9,4,16"));
    ASSERT_EQ(restored.inputs.size(), 3u);
    EXPECT_EQ(restored.inputs[2].shape, (Shape{32, 16, 9, 4, 16}));
    EXPECT_EQ(restored.inputs[2].shape, recorded.inputs[2].shape);
}

TEST(ArgmaxMaskCells, OtherCellsStayAsRecorded) {
    // The 910A records the forward's shape; a 6-D cell whose channels are no multiple of C0 is no such mask.
    std::vector<RealKernel> rows{backwardPool("32,16,9,4,16"), backwardPool("32,250,9,9,4,16"), forwardPool()};
    restoreArgmaxMaskCells(rows);
    EXPECT_EQ(rows[0].inputShapes, backwardPool("32,16,9,4,16").inputShapes);
    EXPECT_EQ(rows[1].inputShapes, backwardPool("32,250,9,9,4,16").inputShapes);
    // No forward row wrote the restored mask: its shape is restored, its format cell kept.
    std::vector<RealKernel> alone{backwardPool("32,64,9,9,47,16")};
    restoreArgmaxMaskCells(alone);
    EXPECT_EQ(alone[0].inputShapes, "32,16,13,13,16;32,16,6,6,16;32,4,9,47,16");
    EXPECT_EQ(alone[0].inputFormats, "NC1HWC0:1;NC1HWC0:1;NC1HWC0");
}

// In a 64 MiB L2, the recorded 81 MiB mask streams past L2 and the [1024, 1024] fp32 tensor written
// before the backward is gone when the next kernel reads it; the forward's 0.59 MB mask leaves it held.
TEST(ArgmaxMaskCells, TheRestoredMaskNoLongerEmptiesL2) {
    const RealKernel writer = row("Cast", "1024,1024", "FLOAT16", "ND", "1024,1024", "FLOAT", "ND", 8);
    const RealKernel reader = row("Mul", "1024,1024", "FLOAT", "ND", "1024,1024", "FLOAT16", "ND", 8);
    RealProfile profile;
    profile.kernels = {forwardPool(), writer, backwardPool("32,256,9,9,4,16"), reader};
    constexpr std::uint64_t kL2 = 64ull << 20;
    const L2Timeline recorded = l2Timeline(profile, kL2, TimelineStart::Empty);
    EXPECT_TRUE(recorded.residentInputs[3].empty());
    restoreArgmaxMaskCells(profile.kernels);
    const L2Timeline restored = l2Timeline(profile, kL2, TimelineStart::Empty);
    EXPECT_EQ(restored.residentInputs[3], (Indices{0}));
}

}  // namespace
}  // namespace ascendsim
