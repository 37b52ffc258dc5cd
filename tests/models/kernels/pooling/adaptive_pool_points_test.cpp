// AdaptiveAvgPool3d and its grad as CANN's Ascend C kernels run them (docs/fidelity.md §47, §165):
// the grad one target point at a time, the forward (its MULTI_W tiling mode) one output row's
// windows a pass; one buffer; each point's window bounds worked out on the scalar unit. The
// functional results are covered by vector_cnn_training_ops_test.cpp.
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

TEST(VectorAdaptivePoolPoints, TheGradTakesATargetATileTheForwardAnOutputRowAPass) {
    // The AlexNet head: 6×6 → 6×6 over 256 channels (one source row per target), and a 6×6 → 3×3
    // pool whose windows hold 4 rows; the grads spread them back.
    struct Case {
        std::int64_t in, out;
    };
    const ChipConfig chip = ascend910B1();
    for (const Case c : {Case{6, 6}, Case{6, 3}}) {
        CubeOpHarness h(chip, 64ull << 20);
        const auto x = h.tensor("x", {1, 1, c.in, c.in, 256}, DataType::Fp32);
        const auto y = h.tensor("y", {1, 1, c.out, c.out, 256}, DataType::Fp32);
        // One block: its passes are the rows (≤ 64 targets, one index buffer's worth; a block that
        // starts mid-row or passes entry 64 cuts a row into two passes, as CANN's loop does).
        auto forward = makeOp("AdaptiveAvgPool3d", {x}, {y});
        forward.blockDim = 1u;
        const auto fwd = h.lower(forward);
        const auto back = h.lower(makeOp("AdaptiveAvgPool3dGrad", {y}, {x}));
        ASSERT_EQ(fwd.size(), 1u);
        ASSERT_EQ(back.size(), 1u);
        const BlockMoveCounts f = inspectPool(fwd[0]), g = inspectPool(back[0]);
        const std::uint64_t outPoints = c.out * c.out, inPoints = c.in * c.in, outRows = c.out;
        const std::uint64_t windowRows = static_cast<std::uint64_t>(c.in / c.out);
        const std::string name = std::to_string(c.in) + " → " + std::to_string(c.out);
        // The grad: one target per tile, a store per input point, a load per source row.
        EXPECT_EQ(g.stores, inPoints) << name;
        EXPECT_EQ(g.loads, inPoints) << name;
        // The forward: a pass per output row (windowWNum ≥ the 3 or 6 outputs of a row), its
        // windows' W span loaded once per input row of their windows, its rows stored at once.
        EXPECT_EQ(f.stores, outRows) << name;
        EXPECT_EQ(f.loads, outRows * windowRows) << name;
        // One buffer: every load hands on with the same event.
        EXPECT_EQ(f.loadEvents, 1u) << name;
        EXPECT_EQ(g.loadEvents, 1u) << name;
        // The window bounds on the scalar unit, far above a tile's plain bookkeeping: the grad's
        // 18 divisions at each of its tiles; the forward's 19 a point for all of a block's points
        // at its first pass (the index buffer's 64 entries hold them; one block: all outPoints
        // when there are at most 64).
        ASSERT_EQ(g.tileScalarCycles.size(), inPoints) << name;
        const std::uint32_t gradTile = g.tileScalarCycles.front();
        EXPECT_GT(gradTile, 10 * kScalarCyclesPerTile) << name;
        EXPECT_EQ((gradTile - kScalarCyclesPerTile) % 18, 0u) << name;
        const std::uint64_t division = (gradTile - kScalarCyclesPerTile) / 18;
        std::uint64_t forwardDivisionCycles = 0;
        for (const std::uint32_t cycles : f.tileScalarCycles) forwardDivisionCycles += cycles - kScalarCyclesPerTile;
        EXPECT_EQ(f.tileScalarCycles.size(), 1u) << name;
        EXPECT_EQ(forwardDivisionCycles, outPoints * 19 * division) << name;
    }
}

// The forward's row of windows moves as CANN's MULTI_W pass does: the whole W span of a 6 → 6 row
// (six 1 KiB channel rows) in one load and one store, where a target a tile moved 1 KiB each. The
// AlexNet head's split: 32 × 36 targets over 48 blocks, 24 a block, whole rows.
TEST(VectorAdaptivePoolPoints, TheForwardMovesAnOutputRowsChannelRowsInOneLoadAndOneStore) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 64ull << 20);
    const auto x = h.tensor("x", {32, 1, 6, 6, 256}, DataType::Fp32), y = h.tensor("y", {32, 1, 6, 6, 256}, DataType::Fp32);
    auto op = makeOp("AdaptiveAvgPool3d", {x}, {y});
    op.blockDim = 48u;
    const auto fwd = h.lower(op);
    ASSERT_EQ(fwd.size(), 1u);
    std::uint64_t loads = 0, stores = 0;
    forEachBlockInstruction(fwd[0], CoreKind::Vector, [&](const Instruction& instruction) {
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (move == nullptr || (move->src != MemSpace::GM && move->dst != MemSpace::GM)) return;
        EXPECT_EQ(move->burstCount * move->burstBytes, 6u * 1024u);
        ++(move->src == MemSpace::GM ? loads : stores);
    });
    EXPECT_EQ(loads, 32u * 6u);
    EXPECT_EQ(stores, 32u * 6u);
}

}  // namespace
}  // namespace ascendsim::test
