// A batch of FRACTAL_NZ products sharing one B keeps its batch loop, as TBE's BatchMatMul does on
// the 910A, with B resident in L1: each block loads B once and each batch only its A, the A loads
// going round as many slots as one load a tile needs to cover the read latency (docs/fidelity.md
// §85). Only on a chip that posts its stores (pipes.mte3_store_issue_cycles); ND operands, and NZ
// ones where stores hold MTE3, fold the batch into M (cube_matmul_test.cpp).
#include <gtest/gtest.h>

#include "models/kernels/tiling/cube_tiling.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

constexpr std::int64_t kSharedBBatches = 64, kSharedBEdge = 16;

TensorInfo nzSharedBOperand(CubeOpHarness& h, const std::string& name, std::vector<std::int64_t> shape) {
    TensorInfo t = h.tensor(name, std::move(shape), DataType::Fp16);
    t.format = TensorFormat::FractalNz;
    return t;
}

struct SharedBBlockZero {
    std::uint32_t mmads = 0, mmadRows = 0;
    std::uint32_t bLoads = 0, aLoadsBeforeFirstMmad = 0;
};

SharedBBlockZero sharedBBlockZero(const ChipConfig& chip, TensorFormat aFormat) {
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    TensorInfo a = nzSharedBOperand(h, "a", {kSharedBBatches, kSharedBEdge, kSharedBEdge});
    a.format = aFormat;
    const TensorInfo b = nzSharedBOperand(h, "b", {kSharedBEdge, kSharedBEdge});
    auto op = makeOp("BatchMatMul", {a, b}, {nzSharedBOperand(h, "y", {kSharedBBatches, kSharedBEdge, kSharedBEdge})});
    op.blockDim = 4;
    SharedBBlockZero seen;
    const std::uint64_t bEnd = b.deviceAddr + static_cast<std::uint64_t>(b.bytes());
    forEachProgramInstruction(h.lower(op).at(0), CoreKind::Coupled, [&](const Instruction& i) {
        if (const auto* mmad = std::get_if<Mmad>(&i.operands)) {
            ++seen.mmads;
            seen.mmadRows = mmad->m;
        }
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move == nullptr || move->src != MemSpace::GM || move->dst != MemSpace::L1) return;
        if (move->srcAddr >= b.deviceAddr && move->srcAddr < bEnd)
            ++seen.bLoads;
        else if (seen.mmads == 0)
            ++seen.aLoadsBeforeFirstMmad;
    });
    return seen;
}

TEST(CubeBatchMatMulResidentB, NzBatchesSharingBLoadBOnceABlock) {
    const SharedBBlockZero seen = sharedBBlockZero(streamingCoupledChip(), TensorFormat::FractalNz);
    // 16 batches a block, one 16-row product each (not folded into 128-row tiles).
    EXPECT_EQ(seen.mmads, kSharedBBatches / 4);
    EXPECT_EQ(seen.mmadRows, kSharedBEdge);
    EXPECT_EQ(seen.bLoads, 1u);
    // One 55-cycle load a tile against 310 cycles of latency: 1 + ceil(310 / 55) = 7 slots, capped
    // at the 6 the event ids allow; the prologue's 5 tiles and the one tile 0 issues ahead.
    EXPECT_EQ(seen.aLoadsBeforeFirstMmad, kMaxL1Slots);
}

// ND batches fold into one GEMM of batch·M rows on any chip; NZ batches too where each store
// holds MTE3 to its write (the fold stands in for the store stream that chip cannot time).
TEST(CubeBatchMatMulResidentB, NdBatchesAndNzBatchesWithHeldStoresFold) {
    const SharedBBlockZero nd = sharedBBlockZero(streamingCoupledChip(), TensorFormat::ND);
    EXPECT_EQ(nd.mmadRows, 128u);  // one 1024-row GEMM in 128-row base blocks, 2 a block
    EXPECT_EQ(nd.mmads, 2u);
    ChipConfig heldStores = streamingCoupledChip();
    heldStores.mte3StoreIssueCycles = 0;
    const SharedBBlockZero nz = sharedBBlockZero(heldStores, TensorFormat::FractalNz);
    EXPECT_EQ(nz.mmadRows, 128u);
    EXPECT_EQ(nz.mmads, 2u);
}

TEST(CubeBatchMatMulResidentB, ResidentBComputesEveryBatch) {
    const ChipConfig chip = streamingCoupledChip();
    CubeOpHarness h(chip);
    auto a = nzSharedBOperand(h, "a", {kSharedBBatches, kSharedBEdge, kSharedBEdge});
    auto b = nzSharedBOperand(h, "b", {kSharedBEdge, kSharedBEdge});
    auto y = nzSharedBOperand(h, "y", {kSharedBBatches, kSharedBEdge, kSharedBEdge});
    const auto av = h.fillRandom(a), bv = h.fillRandom(b);
    auto op = makeOp("BatchMatMul", {a, b}, {y});
    op.blockDim = 4;  // 16 batches a block: the A slots go round almost three times
    h.run(op);
    const auto expected = batchedSquareProducts(av, bv, std::size_t{kSharedBBatches}, std::size_t{kSharedBEdge}, true);
    expectNear(h.read(y), expected, 3e-2, 3e-3, "batches with a resident B");
}

}  // namespace
}  // namespace ascendsim::test
