// CANN's single-core split-K MatMulV3 kernel (docs/fidelity.md §82): a 16-bit GEMM on a split chip
// takes it from K = SPLIT_K_THRES (27392) on, as a MIX launch; its AIVs convert A ND → NZ first
// only when A's inner axis K exceeds the ND2NZ DMA's 65535; each core's region is stored slice by
// slice (the first slice written, later ones added atomically), and the program still computes
// the product (FunctionalMachine: conversion, atomic fp32 partials, the AIVs' cast).
#include <gtest/gtest.h>

#include "models/kernels/cube/matmul/matmul_single_core_split_k.h"
#include "models/kernels/cube/matmul/matmul_vector_nd2nz.h"
#include "models/kernels/kernel_registry.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

OpInstance gemm(CubeOpHarness& h, std::int64_t m, std::int64_t k, std::int64_t n) {
    auto a = h.tensor("a", {m, k}, DataType::Bf16);
    auto b = h.tensor("b", {k, n}, DataType::Bf16);
    auto y = h.tensor("y", {m, n}, DataType::Bf16);
    return makeOp("MatMul", {a, b}, {y});
}

struct SplitKCounts {
    std::uint64_t stores = 0, atomicStores = 0;  // AIC block 0: L0C → GM
    std::uint64_t nzStores = 0;                   // AIV 0: UB → GM in the NZ layout (the conversion)
    std::uint64_t groupWaits = 0;                 // AIV 0: waits on its AIC (a row block's or all sums)
    std::uint64_t allAivWaits = 0;                // AIV 0: all-AIV barriers (SyncAll)
};

SplitKCounts countBlockZero(const LoweredKernel& kernel) {
    SplitKCounts counts;
    forEachProgramInstruction(kernel, CoreKind::Cube, [&](const Instruction& i) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move == nullptr || move->src != MemSpace::L0C || move->dst != MemSpace::GM) return;
        ++counts.stores;
        counts.atomicStores += move->atomicAdd;
    });
    forEachProgramInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        if (const auto* move = std::get_if<DataMove>(&i.operands))
            counts.nzStores += move->src == MemSpace::UB && move->dst == MemSpace::GM && move->gmNz.present();
        if (i.opcode != Opcode::CrossCoreWait) return;
        const auto& flag = std::get<CrossCoreFlag>(i.operands);
        ++(flag.mode == 0 ? counts.allAivWaits : counts.groupWaits);
    });
    return counts;
}

TEST(CubeMatMulSingleCoreSplitK, TakenFromSplitKThresAsAMixLaunch) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto below = h.lower(gemm(h, 64, kSingleCoreSplitKThreshold - 1, 128));
    ASSERT_EQ(below.size(), 1u);
    EXPECT_EQ(below[0].type, TaskType::AiCore);
    const auto at = h.lower(gemm(h, 64, kSingleCoreSplitKThreshold, 128));
    ASSERT_EQ(at.size(), 1u);
    EXPECT_EQ(at[0].type, TaskType::MixAic);
    // 64 rows over 24 cores: regions of 16 rows (⌈64 ÷ 24⌉ aligned to 16), 4 of them.
    EXPECT_EQ(at[0].blockDim, 4u);
    EXPECT_EQ(at[0].mixBlockDim, 8u);
    // Wider than one 3072-column L2 tile, or A transposed: not the case modelled.
    EXPECT_EQ(h.lower(gemm(h, 64, kSingleCoreSplitKThreshold, 4096))[0].type, TaskType::AiCore);
    auto transposed = gemm(h, 64, kSingleCoreSplitKThreshold, 128);
    transposed.inputs[0].shape = {kSingleCoreSplitKThreshold, 64};
    transposed.attrs["transpose_a"] = true;
    EXPECT_EQ(h.lower(transposed)[0].type, TaskType::AiCore);
    // The coupled chips have no such kernel.
    const auto coupled = coupledChip();
    CubeOpHarness hc(coupled);
    EXPECT_EQ(hc.lower(gemm(hc, 64, kSingleCoreSplitKThreshold, 128))[0].type, TaskType::AiCore);
}

TEST(CubeMatMulSingleCoreSplitK, StoresFollowTheSlicesAndTheConversionTheLimit) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    // K = 65535: 128 slices of 512 (the last 511 deep); one row block of one n tile a region.
    const SplitKCounts onTheFly = countBlockZero(h.lower(gemm(h, 64, kNd2NzOnTheFlyLimit, 128)).at(0));
    EXPECT_EQ(onTheFly.stores, 128u);
    EXPECT_EQ(onTheFly.atomicStores, 127u);
    EXPECT_EQ(onTheFly.nzStores, 0u);       // the ND2NZ DMA reads A as it is
    EXPECT_EQ(onTheFly.groupWaits, 1u);
    EXPECT_EQ(onTheFly.allAivWaits, 0u);
    // K = 65536: A converted by the AIVs; 128 slices, 2 n tiles of 128 each → 256 stores.
    const SplitKCounts converted = countBlockZero(h.lower(gemm(h, 64, kNd2NzOnTheFlyLimit + 1, 256)).at(0));
    EXPECT_EQ(converted.stores, 256u);
    EXPECT_EQ(converted.atomicStores, 254u);
    EXPECT_GT(converted.nzStores, 0u);
    // CANN's unaligned kernel: one wait on the AIC's end, a SyncAll after the conversion and one before the cast.
    EXPECT_EQ(converted.groupWaits, 1u);
    EXPECT_EQ(converted.allAivWaits, 2u);
    // M = 4160 over 24 cores: regions of 176 rows (⌈4160 ÷ 24⌉ = 174 aligned to 16), two row blocks (128 + 48),
    // each its own run of slices and, without a conversion, its own wait on the AIV side.
    const SplitKCounts twoBlocks = countBlockZero(h.lower(gemm(h, 4160, kSingleCoreSplitKThreshold, 128)).at(0));
    EXPECT_EQ(twoBlocks.stores, 2u * 54u);
    EXPECT_EQ(twoBlocks.atomicStores, 2u * 53u);
    EXPECT_EQ(twoBlocks.groupWaits, 2u);
}

TEST(CubeMatMulSingleCoreSplitK, RegionRowsUpToTwoBaseBlocksAreOneIterateAllWithItsOwnA) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    // M = 24 × 208 over 24 cores: regions of 208 rows, N = 384: stepM 2 (SetBasicBlockOf24), so a
    // region is one row block of 208 rows. Per (slice, n tile) one 208-row store and one load of
    // A's 208 × 512 slice (CANN's IterateAll reloads it; one L1 buffer), B's 512 × 128 slice once.
    const std::uint64_t slices = cube::ceilDiv(kSingleCoreSplitKThreshold, 512), nTiles = 3;
    const auto kernel = h.lower(gemm(h, 24 * 208, kSingleCoreSplitKThreshold, 384)).at(0);
    ASSERT_EQ(kernel.blockDim, 24u);
    std::uint64_t stores = 0, storedRows = 0, aLoads = 0, bLoads = 0;
    forEachProgramInstruction(kernel, CoreKind::Cube, [&](const Instruction& i) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move == nullptr) return;
        if (move->src == MemSpace::L0C && move->dst == MemSpace::GM) {
            ++stores;
            storedRows = move->burstCount;
        }
        if (move->src == MemSpace::GM && move->dst == MemSpace::L1) ++(move->burstCount == 208 ? aLoads : bLoads);
    });
    EXPECT_EQ(stores, slices * nTiles);
    EXPECT_EQ(storedRows, 208u);
    EXPECT_EQ(aLoads, slices * nTiles);
    EXPECT_EQ(bLoads, slices * nTiles);
    // The aligned kernel's AIVs cast once per row block: one wait on the AIC.
    EXPECT_EQ(countBlockZero(kernel).groupWaits, 1u);
}

TEST(CubeMatMulSingleCoreSplitK, VectorNd2NzBlockIsCannsTiling) {
    // q2's LM-head gradient A [4096, 151936] bf16 over 40 AIVs: 3072-wide blocks (50 of them) take
    // 16 rows, already the fewest, and are not cut further; 2048-wide ones (75, the last 384) from
    // the 24 rows half of UB holds down until the block count is a multiple of the cores: 19 rows
    // (216 × 75 = 16200 = 405 × 40). The same when UB is 256 B short of 192 KiB.
    for (const std::uint64_t ub : {std::uint64_t{196608}, std::uint64_t{196352}}) {
        const VectorNd2NzBlock lmHead = cannVectorNd2NzBlock(4096, 151936, 2, 40, ub);
        EXPECT_EQ(lmHead.columns, 2048u);
        EXPECT_EQ(lmHead.rows, 19u);
    }
    // Rows of at most 2 KiB: one block wide, the padded rows shared evenly over the cores.
    const VectorNd2NzBlock shortRows = cannVectorNd2NzBlock(100000, 1000, 2, 40, 196608);
    EXPECT_EQ(shortRows.columns, 1008u);
    EXPECT_EQ(shortRows.rows, 48u);
}

TEST(CubeMatMulSingleCoreSplitK, ConversionBlocksGoToEveryAivInTurn) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    // M = 64 over 24 cores: 4 regions, 8 AIVs. A [64, 65536] in CANN's blocks (24 rows × 2048
    // columns: 3 × 32 = 96 of them), 12 a AIV; AIV 0 stores each as one NZ move.
    const auto kernel = h.lower(gemm(h, 64, kNd2NzOnTheFlyLimit + 1, 128)).at(0);
    const VectorNd2NzBlock block = cannVectorNd2NzBlock(64, kNd2NzOnTheFlyLimit + 1, 2, 8, chip.bufferCapacity(MemSpace::UB));
    const std::uint64_t blocks = cube::ceilDiv(64, block.rows) * cube::ceilDiv(kNd2NzOnTheFlyLimit + 1, block.columns);
    std::uint64_t nzStores = 0, bursts = 0;
    forEachProgramInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (move == nullptr || move->src != MemSpace::UB || move->dst != MemSpace::GM || !move->gmNz.present()) return;
        ++nzStores;
        bursts = move->burstCount;
    });
    EXPECT_EQ(nzStores, cube::ceilDiv(blocks, 8));  // AIV 0's share, the first ones one longer
    EXPECT_EQ(bursts, std::min<std::uint64_t>(64, block.rows));  // one ND row a burst in UB
}

TEST(CubeMatMulSingleCoreSplitK, ComputesTheProductThroughConversionPartialsAndCast) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    // 40 rows: regions of 16, 16 and 8; K past the limit: A converted; 130 slices, the last 256 deep.
    const std::int64_t m = 40, k = 66304, n = 32;
    auto op = gemm(h, m, k, n);
    const auto av = h.fillRandom(op.inputs[0]), bv = h.fillRandom(op.inputs[1]);
    const auto kernels = h.run(op);
    ASSERT_EQ(kernels.at(0).type, TaskType::MixAic);
    std::vector<double> expected(static_cast<std::size_t>(m * n), 0.0);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t p = 0; p < k; ++p)
            for (std::int64_t j = 0; j < n; ++j)
                expected[static_cast<std::size_t>(i * n + j)] +=
                    double(av[static_cast<std::size_t>(i * k + p)]) * bv[static_cast<std::size_t>(p * n + j)];
    expectNear(h.read(op.outputs[0]), expected, 0.05, 1e-2, "split-K product");
}

TEST(CubeMatMulSingleCoreSplitK, TwoBaseBlockRowBlocksAndAWholeMatrixConversionComputeTheProduct) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    // q2's LM-head gradient's structure at a size the functional model runs (the kernel is taken
    // from K = 27392 on, so the tiling is set by hand): regions of 208 rows, each one IterateAll
    // tile of 208 rows stepping 64 deep in one L0C slot, A reloaded every tile; A converted in
    // CANN's blocks of the whole matrix over the 4 AIVs; two 512-deep slices, 3 n tiles.
    const std::int64_t m = 416, k = 1024, n = 384;
    auto op = gemm(h, m, k, n);
    const auto av = h.fillRandom(op.inputs[0]), bv = h.fillRandom(op.inputs[1]);
    MatmulProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.inputType = p.mmadType = p.outputType = DataType::Bf16;
    p.accType = DataType::Fp32;
    p.aAddr = op.inputs[0].deviceAddr;
    p.bAddr = op.inputs[1].deviceAddr;
    p.yAddr = op.outputs[0].deviceAddr;
    SingleCoreSplitKTiling tiling;
    tiling.regionRows = 208;
    tiling.regions = 2;
    tiling.rowBlockRows = 256;
    tiling.baseK = 64;
    tiling.convertA = true;
    const LoweredKernel kernel = singleCoreSplitKKernel(op, chip, p, tiling);
    const auto workspace = h.tensor("workspace", {static_cast<std::int64_t>(kernel.workspaceBytes)}, DataType::Int8);
    KernelTask task = kernelTaskOf(kernel);
    task.workspaceAddr = workspace.deviceAddr;
    h.machine().runKernel(task);
    std::vector<double> expected(static_cast<std::size_t>(m * n), 0.0);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t q = 0; q < k; ++q)
            for (std::int64_t j = 0; j < n; ++j)
                expected[static_cast<std::size_t>(i * n + j)] +=
                    double(av[static_cast<std::size_t>(i * k + q)]) * bv[static_cast<std::size_t>(q * n + j)];
    expectNear(h.read(op.outputs[0]), expected, 0.05, 1e-2, "two-base-block split-K product");
}

}  // namespace
}  // namespace ascendsim::test
