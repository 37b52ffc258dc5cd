// A MatMul that accumulates into its zeroed fp32 output atomically (the 910A's atomic clean before
// it, docs/fidelity.md §46) splits K over the blocks its output tiles leave idle or unevenly loaded:
// every block multiplies one K slice and adds its partial C. The program still computes the product
// (FunctionalMachine, coupled output path through UB) and each slice's store is an atomic add.
#include <gtest/gtest.h>

#include <set>

#include "models/kernels/cube/matmul/matmul_split_k.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

TEST(CubeMatMulSplitK, SlicesLeaveTheBusiestBlockTheFewestSteps) {
    // a0 MatMul35 [32,4096]·[4096,1008] at 30 blocks: 8 tiles of 128 columns, 32 steps of 128.
    // 11 slices of 3 steps: 88 tiles, 3 a block = 9 steps (no split: 32; 15 slices of 3 steps do
    // not exist, 16 of 2 give 5 a block = 10).
    const KSlices narrow = leastWorkKSlices(8, 30, 4096, 128);
    EXPECT_EQ(narrow.splits, 11u);
    EXPECT_EQ(narrow.sliceK, 384u);
    // a0 MatMul68 [32,4096]·[4096,9216]: 72 tiles on 32 blocks run 3 rounds; 4 slices of 8 steps
    // spread 288 tiles 9 a block = 72 steps, the perfect share (2 slices: 5 × 16 = 80).
    const KSlices uneven = leastWorkKSlices(72, 32, 4096, 128);
    EXPECT_EQ(uneven.splits, 4u);
    EXPECT_EQ(uneven.sliceK, 1024u);
    // As many tiles as blocks, or a single K step: nothing to gain.
    EXPECT_EQ(leastWorkKSlices(32, 32, 9216, 128).splits, 1u);
    EXPECT_EQ(leastWorkKSlices(2, 32, 128, 128).splits, 1u);
    EXPECT_EQ(leastWorkKSlices(2, 32, 128, 128).sliceK, 128u);
}

struct SplitRun {
    std::set<std::uint32_t> blocksLoading;  // blocks whose program loads operands
    std::uint64_t stores = 0, atomicStores = 0;
};

SplitRun runSplit(bool accumulatesAtomically) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip);
    // [32 × 1024] · [1024 × 256] → fp32: 2 tiles of 32 × 128 for 8 blocks.
    auto a = h.tensor("a", {32, 1024}, DataType::Fp16);
    auto b = h.tensor("b", {1024, 256}, DataType::Fp16);
    auto y = h.tensor("y", {32, 256}, DataType::Fp32);
    const auto av = h.fillRandom(a), bv = h.fillRandom(b);
    h.fill(y, 0.0f);  // the atomic clean
    auto op = makeOp("MatMul", {a, b}, {y});
    op.blockDim = 8;
    if (accumulatesAtomically) op.attrs[kAccumulatesAtomicallyAttr] = true;
    h.run(op);
    std::vector<double> expected(32 * 256, 0.0);
    for (std::size_t i = 0; i < 32; ++i)
        for (std::size_t j = 0; j < 256; ++j)
            for (std::size_t p = 0; p < 1024; ++p) expected[i * 256 + j] += double(av[i * 1024 + p]) * bv[p * 256 + j];
    expectNear(h.read(y), expected, 3e-2, 3e-3, accumulatesAtomically ? "split K" : "whole K");

    SplitRun run;
    const LoweredKernel kernel = h.lower(op).at(0);
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        BlockProgramRequest request;
        request.blockIdx = block;
        request.coreKind = CoreKind::Coupled;
        auto stream = kernel.program(request);
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                const auto* move = std::get_if<DataMove>(&instruction.operands);
                if (move == nullptr) continue;
                if (move->src == MemSpace::GM && move->dst == MemSpace::L1) run.blocksLoading.insert(block);
                if (move->src == MemSpace::UB && move->dst == MemSpace::GM) {
                    ++run.stores;
                    run.atomicStores += move->atomicAdd;
                }
            }
            chunk.clear();
        }
    }
    return run;
}

TEST(CubeMatMulSplitK, AtomicAccumulatorSplitsKOverIdleBlocksAndStillComputesTheProduct) {
    const SplitRun whole = runSplit(false);
    EXPECT_EQ(whole.blocksLoading.size(), 2u);  // one block per output tile
    EXPECT_EQ(whole.atomicStores, 0u);
    const SplitRun split = runSplit(true);
    EXPECT_EQ(split.blocksLoading.size(), 8u);  // 4 slices of each tile
    EXPECT_EQ(split.stores, 8u);
    EXPECT_EQ(split.atomicStores, split.stores);
}

// A bias would be added once per slice: such an op keeps the whole K in one block.
TEST(CubeMatMulSplitK, OpWithABiasKeepsTheWholeK) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    auto op = makeOp("MatMul", {h.tensor("a", {32, 1024}, DataType::Fp16), h.tensor("b", {1024, 256}, DataType::Fp16),
                                h.tensor("bias", {256}, DataType::Fp32)},
                     {h.tensor("y", {32, 256}, DataType::Fp32)});
    op.blockDim = 8;
    op.attrs[kAccumulatesAtomicallyAttr] = true;
    std::uint64_t atomicStores = 0;
    forEachBlockInstruction(h.lower(op).at(0), CoreKind::Coupled, [&](const Instruction& i) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move != nullptr && move->dst == MemSpace::GM) atomicStores += move->atomicAdd;
    });
    EXPECT_EQ(atomicStores, 0u);
}

}  // namespace
}  // namespace ascendsim::test
