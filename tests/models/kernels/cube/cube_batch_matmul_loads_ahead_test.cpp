// A batched GEMM of one-chunk tiles on a chip whose MTE2 keeps its loads in flight goes round more
// than two L1 slots, its loads issued several tiles ahead of the cube, enough to cover the read
// latency at the loads' issue rate (the 910A's TBE BatchMatMul, docs/fidelity.md §67). The
// program still orders every access (hazard checking) and computes the product.
#include <gtest/gtest.h>

#include "models/kernels/tiling/cube_tiling.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

ChipConfig loadsInFlightChip(std::uint32_t readLatencyCycles) {
    ChipConfig chip = coupledChip();
    chip.mte2LoadIssueCycles = 55;
    chip.hbm.readLatencyCycles = readLatencyCycles;
    return chip;
}

// GM → L1 loads block 0's program issues before its first mmad: A and B of every tile with a slot
// (the prologue's tiles and the one the first tile issues before its steps).
std::uint32_t loadsBeforeFirstMmad(const ChipConfig& chip, const std::vector<std::int64_t>& aShape,
                                   const std::vector<std::int64_t>& bShape) {
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    auto op = makeOp("BatchMatMul", {h.tensor("a", aShape, DataType::Fp16), h.tensor("b", bShape, DataType::Fp16)},
                     {h.tensor("y", {64, 16, 16}, DataType::Fp16)});
    op.blockDim = 4;
    std::uint32_t loads = 0;
    bool mmadSeen = false;
    forEachProgramInstruction(h.lower(op).at(0), CoreKind::Coupled, [&](const Instruction& i) {
        if (std::holds_alternative<Mmad>(i.operands)) mmadSeen = true;
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (!mmadSeen && move != nullptr && move->src == MemSpace::GM && move->dst == MemSpace::L1) ++loads;
    });
    return loads;
}

TEST(CubeBatchMatMulLoadsAhead, SlotsCoverTheReadLatencyAtTheLoadsIssueRate) {
    const std::vector<std::int64_t> batched{64, 16, 16};
    // 310 cycles of latency, two 55-cycle loads a tile: 1 + ceil(310 / 110) = 4 slots.
    EXPECT_EQ(loadsBeforeFirstMmad(loadsInFlightChip(310), batched, batched), 2u * 4);
    // A latency one tile's loads cover: the two slots of ping-pong.
    EXPECT_EQ(loadsBeforeFirstMmad(loadsInFlightChip(100), batched, batched), 2u * 2);
    // A long latency takes the most slots the event ids allow.
    EXPECT_EQ(loadsBeforeFirstMmad(loadsInFlightChip(5000), batched, batched), 2u * kMaxL1Slots);
    // A chip whose loads hold MTE2 to their data keeps ping-pong.
    ChipConfig holding = loadsInFlightChip(310);
    holding.mte2LoadIssueCycles = 0;
    EXPECT_EQ(loadsBeforeFirstMmad(holding, batched, batched), 2u * 2);
}

TEST(CubeBatchMatMulLoadsAhead, ProgramWithLoadsAheadComputesEveryBatch) {
    const ChipConfig chip = loadsInFlightChip(310);
    CubeOpHarness h(chip);
    constexpr std::size_t kBatches = 64, kEdge = 16;
    auto a = h.tensor("a", {kBatches, kEdge, kEdge}, DataType::Fp16);
    auto b = h.tensor("b", {kBatches, kEdge, kEdge}, DataType::Fp16);
    auto y = h.tensor("y", {kBatches, kEdge, kEdge}, DataType::Fp16);
    const auto av = h.fillRandom(a), bv = h.fillRandom(b);
    auto op = makeOp("BatchMatMul", {a, b}, {y});
    op.blockDim = 4;  // 16 batches a block: the slots go round four times
    h.run(op);
    const auto expected = batchedSquareProducts(av, bv, kBatches, kEdge, false);
    expectNear(h.read(y), expected, 3e-2, 3e-3, "batches with loads ahead");
}

}  // namespace
}  // namespace ascendsim::test
