// AdaptiveAvgPool3d and its grad as CANN's Ascend C kernels run them (docs/fidelity.md §47): one
// target point at a time with one buffer, each point's window bounds worked out on the scalar unit
// before its rows move. The functional results are covered by vector_cnn_training_ops_test.cpp.
#include <gtest/gtest.h>

#include <variant>

#include "models/kernels/tiling/vector_tiling.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

BlockMoveCounts inspectPool(const LoweredKernel& kernel) {
    BlockMoveCounts p;
    forEachBlockInstruction(kernel, CoreKind::Vector, [&](const Instruction& instruction) { p.count(instruction); });
    return p;
}

TEST(VectorAdaptivePoolPoints, EachTargetIsATileWithItsWindowBoundsOnTheScalarUnit) {
    // The AlexNet head: 6×6 → 6×6 over 256 channels (one source row per target), and a 6×6 → 3×3
    // pool whose windows hold 4 rows; the grads spread them back.
    struct Case {
        std::int64_t in, out;
    };
    const ChipConfig chip = ascend910B1();
    for (const Case c : {Case{6, 6}, Case{6, 3}}) {
        CubeOpHarness h(chip, 64ull << 20);
        const auto x = h.tensor("x", {4, 1, c.in, c.in, 256}, DataType::Fp32);
        const auto y = h.tensor("y", {4, 1, c.out, c.out, 256}, DataType::Fp32);
        const auto fwd = h.lower(makeOp("AdaptiveAvgPool3d", {x}, {y}));
        const auto back = h.lower(makeOp("AdaptiveAvgPool3dGrad", {y}, {x}));
        ASSERT_EQ(fwd.size(), 1u);
        ASSERT_EQ(back.size(), 1u);
        const BlockMoveCounts f = inspectPool(fwd[0]), g = inspectPool(back[0]);
        const std::uint64_t outPoints = 4 * c.out * c.out, inPoints = 4 * c.in * c.in;
        const std::uint64_t window = static_cast<std::uint64_t>((c.in / c.out) * (c.in / c.out));
        const std::string name = std::to_string(c.in) + " → " + std::to_string(c.out);
        // One target per tile: a store per output point (forward) or input point (grad), a load
        // per source row.
        EXPECT_EQ(f.stores, outPoints) << name;
        EXPECT_EQ(f.loads, outPoints * window) << name;
        EXPECT_EQ(g.stores, inPoints) << name;
        EXPECT_EQ(g.loads, inPoints) << name;
        // One buffer: every load hands on with the same event.
        EXPECT_EQ(f.loadEvents, 1u) << name;
        EXPECT_EQ(g.loadEvents, 1u) << name;
        // Every tile opens with its window-bound divisions, far above a tile's plain bookkeeping,
        // and the forward's (19 divisions) exceed the grad's (18) by one division.
        ASSERT_EQ(f.tileScalarCycles.size(), outPoints) << name;
        ASSERT_EQ(g.tileScalarCycles.size(), inPoints) << name;
        const std::uint32_t forwardTile = f.tileScalarCycles.front(), gradTile = g.tileScalarCycles.front();
        EXPECT_GT(forwardTile, 10 * kScalarCyclesPerTile) << name;
        EXPECT_GT(forwardTile, gradTile) << name;
        EXPECT_EQ((forwardTile - kScalarCyclesPerTile) % 19, 0u) << name;
        EXPECT_EQ((gradTile - kScalarCyclesPerTile) % 18, 0u) << name;
        EXPECT_EQ((forwardTile - kScalarCyclesPerTile) / 19, (gradTile - kScalarCyclesPerTile) / 18) << name;
    }
}

}  // namespace
}  // namespace ascendsim::test
