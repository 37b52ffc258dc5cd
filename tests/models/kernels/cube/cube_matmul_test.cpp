// MatMul / BatchMatMul lowered programs, executed on the FunctionalMachine, match a naive
// reference: exactly for int8, within fp32-accumulation tolerance for fp16/bf16/hf32.
#include <gtest/gtest.h>

#include <set>

#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

struct MatmulCase {
    std::int64_t m, k, n;
    bool transA, transB, bias;
    DataType dtype;
};

// y[b] = op(a[b]) · op(b[b]) + bias, from GM values (already rounded to the dtype).
std::vector<double> referenceMatmul(const std::vector<float>& a, const std::vector<float>& b,
                                    const std::vector<float>* bias, std::int64_t batch, std::int64_t m,
                                    std::int64_t k, std::int64_t n, bool transA, bool transB, bool broadcastB) {
    std::vector<double> y(static_cast<std::size_t>(batch * m * n), 0.0);
    for (std::int64_t t = 0; t < batch; ++t) {
        const float* at = a.data() + t * m * k;
        const float* bt = b.data() + (broadcastB ? 0 : t * k * n);
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                double acc = bias ? (*bias)[static_cast<std::size_t>(j)] : 0.0;
                for (std::int64_t p = 0; p < k; ++p) {
                    const double av = transA ? at[p * m + i] : at[i * k + p];
                    const double bv = transB ? bt[j * k + p] : bt[p * n + j];
                    acc += av * bv;
                }
                y[static_cast<std::size_t>((t * m + i) * n + j)] = acc;
            }
    }
    return y;
}

void runMatmulCase(const ChipConfig& chip, const MatmulCase& c, std::optional<std::uint32_t> blockDim) {
    CubeOpHarness h(chip);
    const bool int8 = c.dtype == DataType::Int8;
    auto a = h.tensor("a", c.transA ? std::vector<std::int64_t>{c.k, c.m} : std::vector<std::int64_t>{c.m, c.k}, c.dtype);
    auto b = h.tensor("b", c.transB ? std::vector<std::int64_t>{c.n, c.k} : std::vector<std::int64_t>{c.k, c.n}, c.dtype);
    const DataType outType = int8 ? DataType::Int32 : (c.dtype == DataType::Fp32 ? DataType::Fp32 : DataType::Fp16);
    auto y = h.tensor("y", {c.m, c.n}, outType);
    std::vector<TensorInfo> inputs{a, b};
    const auto av = int8 ? h.fillRandom(a, -128, 127) : h.fillRandom(a);
    const auto bv = int8 ? h.fillRandom(b, -128, 127) : h.fillRandom(b);
    std::vector<float> biasValues;
    if (c.bias) {
        auto bias = h.tensor("bias", {c.n}, int8 ? DataType::Int32 : c.dtype);
        biasValues = int8 ? h.fillRandom(bias, -1000, 1000) : h.fillRandom(bias);
        inputs.push_back(bias);
    }
    h.fill(y, 12345.0f);  // stale output must be overwritten everywhere
    auto op = makeOp("MatMul", inputs, {y});
    op.attrs["transpose_a"] = c.transA;
    op.attrs["transpose_b"] = c.transB;
    op.blockDim = blockDim;
    h.run(op);
    const auto expected = referenceMatmul(av, bv, c.bias ? &biasValues : nullptr, 1, c.m, c.k, c.n, c.transA, c.transB, false);
    const std::string what = "MatMul " + std::to_string(c.m) + "x" + std::to_string(c.k) + "x" + std::to_string(c.n) +
                             " " + std::string(dataTypeName(c.dtype)) + (c.transA ? " tA" : "") + (c.transB ? " tB" : "") +
                             (c.bias ? " bias" : "") + " blockDim " + (blockDim ? std::to_string(*blockDim) : "default");
    if (int8)
        expectNear(h.read(y), expected, 0.0, 0.0, what);
    else if (c.dtype == DataType::Fp32)
        expectNear(h.read(y), expected, 1e-4, 1e-5, what);  // true fp32 mmad (no hf32 rounding of the inputs)
    else
        expectNear(h.read(y), expected, 2e-2, 2e-3, what);  // fp32 accumulation, fp16/bf16 output rounding
}

TEST(CubeMatMul, Fp16AllTransposesMatchReferenceForEveryBlockDim) {
    const auto chip = ascend910B1();
    for (bool transA : {false, true})
        for (bool transB : {false, true})
            for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{},
                                                          std::optional<std::uint32_t>{5}})
                runMatmulCase(chip, {200, 300, 260, transA, transB, false, DataType::Fp16}, blockDim);
}

// Several n-tiles per block: A rows stay resident in L1 across them and are reloaded when the
// block reaches the next m-tile (one K chunk and several).
TEST(CubeMatMul, ResidentARowsAcrossNTilesMatchReference) {
    const auto chip = ascend910B1();
    for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{3}}) {
        runMatmulCase(chip, {256, 64, 1024, false, true, false, DataType::Fp16}, blockDim);
        runMatmulCase(chip, {256, 700, 1024, true, false, true, DataType::Fp16}, blockDim);
    }
}

// CANN's base blocks with a chunk depth per operand (A 512 / B 256 deep for 128×256, A 256 / B 512
// for 256×128; docs/fidelity.md §38): on a 2-core 910B1 a 256 × 512 output is 4 such blocks, two
// per core, so the next tile's chunks are preloaded into the other operand slots. K = 1100 ends
// each tile with a short B chunk and an A chunk that spans only it and one more.
TEST(CubeMatMul, OwnChunkDepthPerOperandMatchesReference) {
    auto chip = ascend910B1();
    chip.aiCoreCount = 2;
    for (bool transA : {false, true})
        for (bool transB : {false, true}) {
            runMatmulCase(chip, {256, 1100, 512, transA, transB, false, DataType::Bf16}, std::nullopt);
            runMatmulCase(chip, {512, 1100, 256, transA, transB, true, DataType::Fp16}, std::nullopt);
        }
}

TEST(CubeMatMul, BiasIsAddedOncePerOutputElement) {
    const auto chip = ascend910B1();
    runMatmulCase(chip, {70, 520, 300, false, true, true, DataType::Fp16}, std::nullopt);
    runMatmulCase(chip, {70, 520, 300, true, false, true, DataType::Bf16}, 3u);
    // One block runs 3 x 3 tiles of 4 K chunks each: the next tile's first chunk is preloaded while
    // the bias of the current tile is still in the bias table.
    runMatmulCase(chip, {300, 1100, 600, false, false, true, DataType::Fp16}, 1u);
}

TEST(CubeMatMul, Int8IsExactWithInt32Output) {
    const auto chip = ascend910B1();
    runMatmulCase(chip, {150, 700, 140, false, false, false, DataType::Int8}, std::nullopt);
    runMatmulCase(chip, {33, 129, 47, true, true, true, DataType::Int8}, 2u);
}

TEST(CubeMatMul, Fp32InputsMatchReference) {
    const auto chip = ascend910B1();
    runMatmulCase(chip, {64, 100, 96, false, false, false, DataType::Fp32}, std::nullopt);
}

TEST(CubeMatMul, CoupledChipRunsTheSameLoweringOnItsAiCores) {
    const auto chip = coupledChip();
    runMatmulCase(chip, {130, 200, 150, false, true, true, DataType::Fp16}, std::nullopt);
}

TEST(CubeBatchMatMul, BatchesAndBroadcastRhsMatchReference) {
    const auto chip = ascend910B1();
    for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{},
                                                  std::optional<std::uint32_t>{7}}) {
        for (bool broadcast : {false, true}) {
            CubeOpHarness h(chip);
            const std::int64_t batch = 3, m = 40, k = 72, n = 150;
            auto a = h.tensor("a", {batch, m, k}, DataType::Fp16);
            auto b = h.tensor("b", broadcast ? std::vector<std::int64_t>{n, k} : std::vector<std::int64_t>{batch, n, k},
                              DataType::Fp16);
            auto y = h.tensor("y", {batch, m, n}, DataType::Fp16);
            const auto av = h.fillRandom(a), bv = h.fillRandom(b);
            auto op = makeOp("BatchMatMul", {a, b}, {y});
            op.attrs["transpose_b"] = true;
            op.blockDim = blockDim;
            h.run(op);
            expectNear(h.read(y), referenceMatmul(av, bv, nullptr, batch, m, k, n, false, true, broadcast), 2e-2, 2e-3,
                       "BatchMatMul broadcast=" + std::to_string(broadcast));
        }
    }
}

TEST(CubeMatMul, DefaultBlockDimSpreadsTilesButNeverExceedsThem) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto small = makeOp("MatMul", {h.tensor("a", {128, 64}, DataType::Fp16), h.tensor("b", {64, 256}, DataType::Fp16)},
                        {h.tensor("y", {128, 256}, DataType::Fp16)});
    EXPECT_EQ(h.lower(small).at(0).blockDim, 2u);  // 1 x 2 base tiles of 128x128, not one of 128x256
    auto big = makeOp("MatMul", {h.tensor("a", {4096, 64}, DataType::Fp16), h.tensor("b", {64, 4096}, DataType::Fp16)},
                      {h.tensor("y", {4096, 4096}, DataType::Fp16)});
    EXPECT_EQ(h.lower(big).at(0).blockDim, chip.aiCoreCount);
}

TEST(CubeMatMul, BlockDimOverrideOutsideLaunchLimitsIsALoweringError) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("MatMul", {h.tensor("a", {64, 64}, DataType::Fp16), h.tensor("b", {64, 64}, DataType::Fp16)},
                     {h.tensor("y", {64, 64}, DataType::Fp16)});
    op.blockDim = 0;
    EXPECT_THROW(h.lower(op), LoweringError);
    op.blockDim = 65536;
    EXPECT_THROW(h.lower(op), LoweringError);
    op.blockDim = 100;  // more blocks than cores and tiles is legal: extra blocks idle
    EXPECT_EQ(h.lower(op).at(0).blockDim, 100u);
}

TEST(CubeMatMul, MismatchedShapesAndDtypesAreLoweringErrors) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto y = h.tensor("y", {64, 64}, DataType::Fp16);
    EXPECT_THROW(h.lower(makeOp("MatMul", {h.tensor("a", {64, 32}, DataType::Fp16), h.tensor("b", {64, 64}, DataType::Fp16)}, {y})),
                 LoweringError);
    EXPECT_THROW(h.lower(makeOp("MatMul", {h.tensor("a", {64, 64}, DataType::Fp16), h.tensor("b", {64, 64}, DataType::Int8)}, {y})),
                 LoweringError);
    EXPECT_THROW(h.lower(makeOp("MatMul", {h.tensor("a", {64, 64}, DataType::Int32), h.tensor("b", {64, 64}, DataType::Int32)}, {y})),
                 LoweringError);
}

TEST(CubeMatMul, InstructionCountScalesWithShapeAndBlockDim) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto makeMatmul = [&](std::int64_t m, std::int64_t k, std::int64_t n, std::uint32_t blockDim) {
        auto op = makeOp("MatMul", {h.tensor("a", {m, k}, DataType::Fp16), h.tensor("b", {k, n}, DataType::Fp16)},
                         {h.tensor("y", {m, n}, DataType::Fp16)});
        op.blockDim = blockDim;
        return h.lower(op).at(0);
    };
    auto total = [](const LoweredKernel& kernel) {
        ProgramCounts sum;
        for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
            const auto c = countProgram(kernel, {block, CoreKind::Cube, 0});
            sum.total += c.total;
            sum.mmads += c.mmads;
        }
        return sum;
    };
    const auto base = total(makeMatmul(512, 512, 512, 1));
    EXPECT_EQ(base.mmads, 4u * 2u * 8u);  // 8 base blocks of 128x256 x (512 / 64) K steps
    const auto doubledK = total(makeMatmul(512, 1024, 512, 1));
    EXPECT_EQ(doubledK.mmads, 2 * base.mmads);
    EXPECT_GT(doubledK.total, base.total * 3 / 2);
    // Spreading over 8 blocks keeps the work and adds only per-block prologues.
    const auto spread = total(makeMatmul(512, 512, 512, 8));
    EXPECT_EQ(spread.mmads, base.mmads);
    EXPECT_LT(spread.total, base.total + 8 * 40);
    // One block's program is yielded a tile at a time.
    EXPECT_EQ(countProgram(makeMatmul(512, 512, 512, 1), {0, CoreKind::Cube, 0}).chunks, 8u);
}


bool isGmToL1(const Instruction& i) {
    if (i.opcode != Opcode::DataMove) return false;
    const auto& m = std::get<DataMove>(i.operands);
    return m.src == MemSpace::GM && m.dst == MemSpace::L1;
}

TEST(CubeMatMul, LargeGemmUses128x256BaseBlocksAndL1ChunksOfAtLeast64KiBPerOperand) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    auto op = makeOp("MatMul", {h.tensor("a", {4096, 4096}, DataType::Fp16), h.tensor("b", {4096, 4096}, DataType::Fp16)},
                     {h.tensor("y", {4096, 4096}, DataType::Fp16)});
    const auto kernel = h.lower(op).at(0);
    EXPECT_EQ(kernel.blockDim, chip.aiCoreCount);
    std::uint64_t mmads = 0, loads = 0;
    for (const auto& i : blockProgram(kernel, 0)) {
        if (i.opcode == Opcode::Mmad) {
            const auto& m = std::get<Mmad>(i.operands);
            EXPECT_EQ(m.m, 128u);
            EXPECT_EQ(m.n, 256u);
            EXPECT_EQ(m.k, 64u);
            ++mmads;
        }
        if (isGmToL1(i)) {
            EXPECT_GE(std::get<DataMove>(i.operands).totalBytes(), 64u << 10);
            ++loads;
        }
    }
    // Block 0 runs 512 / 24 = 21 tiles of 4096 / 64 K steps; each K chunk loads A then B.
    EXPECT_EQ(mmads, 21u * 64u);
    EXPECT_LE(loads, 21u * 2u * 4096u / 256u);  // chunks deeper than 4 steps
}

// A chip whose FixPipe quantises fp32 → fp16 at 22 B/cycle (paths[L0C->GM].dtype_conversion_bytes_per_cycle):
// a 128×256 fp32 tile (all of L0C) then takes ~6000 cycles to store, as long as most of its mmads.
// Outside CANN's large-GEMM rule (here 4 × 4 blocks of 128×256 for 24 cores: its small-shape path)
// the ranking picks 128×128 blocks whose two L0C slots let FixPipe drain one tile while the cube
// fills the other, and deepens baseK to fill two L0A/L0B slots (64 KiB / (2 × 128 × 2 B)).
// The 910B1 with a FixPipe that converts fp32 → fp16/bf16 at only 22 B/cycle.
ChipConfig withSlowConvertingFixPipe() {
    auto chip = ascend910B1();
    PathTiming fixpipe;
    fixpipe.src = MemSpace::L0C;
    fixpipe.dst = MemSpace::GM;
    fixpipe.peakBytesPerCycle = 117.4;
    fixpipe.dtypeConversionBytesPerCycle = 22.0;
    chip.paths.push_back(fixpipe);
    return chip;
}

TEST(CubeMatMul, SlowConvertingFixPipeGetsTwoL0CSlotsAndDeeperSteps) {
    const auto chip = withSlowConvertingFixPipe();
    CubeOpHarness h(chip, 1 << 20);  // only lowering (the harness keeps a reference to the chip)
    const auto lowerWith = [&h](DataType out) {
        auto op = makeOp("MatMul", {h.tensor("a", {512, 1024}, DataType::Fp16), h.tensor("b", {1024, 1024}, DataType::Fp16)},
                         {h.tensor("y", {512, 1024}, out)});
        op.blockDim = 8;  // four 128×128 tiles per block
        return blockProgram(h.lower(op).at(0), 0);
    };
    std::set<std::uint64_t> l0cSlots;
    for (const auto& i : lowerWith(DataType::Fp16)) {
        if (i.opcode != Opcode::Mmad) continue;
        const auto& m = std::get<Mmad>(i.operands);
        EXPECT_EQ(m.m, 128u);
        EXPECT_EQ(m.n, 128u);
        EXPECT_EQ(m.k, 128u);
        l0cSlots.insert(m.l0cAddr);
    }
    EXPECT_EQ(l0cSlots.size(), 2u);
    // fp32 out converts nothing: the store runs at the FixPipe curve and 128×256 stays best.
    for (const auto& i : lowerWith(DataType::Fp32)) {
        if (i.opcode != Opcode::Mmad) continue;
        EXPECT_EQ(std::get<Mmad>(i.operands).n, 256u);
    }
}

// CANN's MatMulV3 base block (docs/fidelity.md §34) for GEMMs with at least one 128×256 block per
// core, whatever the FixPipe costs: 128×256 with neither operand transposed, 256×128 with both; with
// B transposed, 256×128 when only M is large (≥ 24 / 2 × 256 rows on the 910B1), 128×256 when only
// N is. The mmads of block 0 show the block (one L0C slot: a 128×256 fp32 tile fills L0C).
TEST(CubeMatMul, LargeGemmTakesCannsBaseBlockOrientation) {
    const auto chip = withSlowConvertingFixPipe();  // the store that favours 128×128 in the ranking
    CubeOpHarness h(chip, 1 << 20);
    const auto block = [&h](std::int64_t m, std::int64_t n, bool transA, bool transB) {
        const std::int64_t k = 1024;
        auto a = transA ? h.tensor("a", {k, m}, DataType::Bf16) : h.tensor("a", {m, k}, DataType::Bf16);
        auto b = transB ? h.tensor("b", {n, k}, DataType::Bf16) : h.tensor("b", {k, n}, DataType::Bf16);
        auto op = makeOp("MatMul", {a, b}, {h.tensor("y", {m, n}, DataType::Bf16)});
        op.attrs["transpose_a"] = transA;
        op.attrs["transpose_b"] = transB;
        std::set<std::pair<std::uint32_t, std::uint32_t>> shapes;
        std::set<std::uint64_t> l0c;
        for (const auto& i : blockProgram(h.lower(op).at(0), 0)) {
            if (i.opcode != Opcode::Mmad) continue;
            const auto& mm = std::get<Mmad>(i.operands);
            shapes.insert({mm.m, mm.n});
            l0c.insert(mm.l0cAddr);
        }
        EXPECT_EQ(l0c.size(), 1u);
        return shapes;
    };
    using Shapes = std::set<std::pair<std::uint32_t, std::uint32_t>>;
    EXPECT_EQ(block(4096, 4096, false, false), (Shapes{{128, 256}}));
    EXPECT_EQ(block(4096, 4096, true, true), (Shapes{{256, 128}}));
    EXPECT_EQ(block(4096, 1024, false, true), (Shapes{{256, 128}}));
    EXPECT_EQ(block(1024, 4096, false, true), (Shapes{{128, 256}}));
}

// A B shared by every batch folds the batch into M: 512 products [16,16]·[16,16] are one 8192-row
// GEMM of 128-row base blocks, not 512 tiles of one fractal each.
TEST(CubeBatchMatMul, BroadcastRhsFoldsTheBatchIntoFullBaseBlocks) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    const auto mmadRows = [&h](std::vector<std::int64_t> bShape) {
        auto op = makeOp("BatchMatMul", {h.tensor("a", {512, 16, 16}, DataType::Fp16), h.tensor("b", bShape, DataType::Fp16)},
                         {h.tensor("y", {512, 16, 16}, DataType::Fp16)});
        op.blockDim = 1;
        std::set<std::uint32_t> rows;
        std::uint64_t mmads = 0;
        for (const auto& i : blockProgram(h.lower(op).at(0), 0)) {
            if (i.opcode != Opcode::Mmad) continue;
            rows.insert(std::get<Mmad>(i.operands).m);
            ++mmads;
        }
        return std::make_pair(rows, mmads);
    };
    const auto [foldedRows, foldedMmads] = mmadRows({16, 16});
    EXPECT_EQ(foldedRows, std::set<std::uint32_t>{128});
    EXPECT_EQ(foldedMmads, 8192u / 128u);
    // Batched B: every batch has its own product.
    const auto [batchedRows, batchedMmads] = mmadRows({512, 16, 16});
    EXPECT_EQ(batchedRows, std::set<std::uint32_t>{16});
    EXPECT_EQ(batchedMmads, 512u);
}

// A FRACTAL_NZ operand is already in the layout the cube reads: its GM→L1 loads are plain copies,
// an ND operand's are ND2NZ.
TEST(CubeMatMul, FractalNzOperandsLoadWithoutNd2Nz) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    // GM→L1 bytes of A and of B, each split into (plain, ND2NZ).
    struct Loads {
        std::uint64_t plain = 0, converted = 0;
    };
    const auto loads = [&h](TensorFormat bFormat) {
        auto a = h.tensor("a", {256, 512}, DataType::Fp16);
        auto b = h.tensor("b", {512, 256}, DataType::Fp16);
        b.format = bFormat;
        auto op = makeOp("MatMul", {a, b}, {h.tensor("y", {256, 256}, DataType::Fp16)});
        op.blockDim = 1;
        Loads l;
        for (const auto& i : blockProgram(h.lower(op).at(0), 0)) {
            if (!isGmToL1(i)) continue;
            const auto& m = std::get<DataMove>(i.operands);
            (m.conversion == LayoutConversion::None ? l.plain : l.converted) += m.totalBytes();
        }
        return l;
    };
    const Loads nd = loads(TensorFormat::ND), nz = loads(TensorFormat::FractalNz);
    EXPECT_EQ(nd.plain, 0u);
    EXPECT_GT(nz.plain, 0u);   // B's loads
    EXPECT_GT(nz.converted, 0u);  // A's loads
    EXPECT_EQ(nz.plain + nz.converted, nd.converted);  // same bytes, fewer conversions
}

TEST(CubeMatMul, NextChunkIsLoadedBeforeTheCubeStepsOfThisOne) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);
    auto op = makeOp("MatMul", {h.tensor("a", {256, 2048}, DataType::Fp16), h.tensor("b", {2048, 256}, DataType::Fp16)},
                     {h.tensor("y", {256, 256}, DataType::Fp16)});
    op.blockDim = 1;
    const auto program = blockProgram(h.lower(op).at(0), 0);
    // MTE2 preload: chunk 1 (the 3rd and 4th GM->L1 loads) is issued before chunk 0's first mmad,
    // so the scalar unit never holds the next load behind a full MTE1/cube queue.
    std::vector<std::size_t> loadAt;
    std::size_t firstMmad = program.size();
    for (std::size_t i = 0; i < program.size(); ++i) {
        if (isGmToL1(program[i])) loadAt.push_back(i);
        if (program[i].opcode == Opcode::Mmad) firstMmad = std::min(firstMmad, i);
    }
    ASSERT_GE(loadAt.size(), 4u) << "needs at least two K chunks";
    EXPECT_LT(loadAt[3], firstMmad);
}

// fp32 MatMul keeps its precision (f32f32f32 mmad, torch_npu's matmul.allow_hf32 default) and
// runs hf32 only when the op allows it; an hf32 input is hf32 mode already.
TEST(CubeMatMul, Fp32MmadUnlessHf32IsAllowed) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    const auto mmadTypes = [&h](DataType in, bool allowHf32) {
        auto op = makeOp("MatMul", {h.tensor("a", {32, 512}, in), h.tensor("b", {512, 256}, in)},
                         {h.tensor("y", {32, 256}, DataType::Fp32)});
        if (allowHf32) op.attrs["allow_hf32"] = true;
        std::set<DataType> types;
        for (const auto& i : blockProgram(h.lower(op).at(0), 0))
            if (i.opcode == Opcode::Mmad) types.insert(std::get<Mmad>(i.operands).dtype);
        return types;
    };
    EXPECT_EQ(mmadTypes(DataType::Fp32, false), std::set<DataType>{DataType::Fp32});
    EXPECT_EQ(mmadTypes(DataType::Fp32, true), std::set<DataType>{DataType::Hf32});
    EXPECT_EQ(mmadTypes(DataType::Hf32, false), std::set<DataType>{DataType::Hf32});
}

// hf32 inputs are rounded to 10 mantissa bits in the cube: far from an fp32 reference.
TEST(CubeMatMul, AllowedHf32RoundsTheInputs) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto a = h.tensor("a", {16, 64}, DataType::Fp32);
    auto b = h.tensor("b", {64, 16}, DataType::Fp32);
    auto y = h.tensor("y", {16, 16}, DataType::Fp32);
    h.fill(a, 1.0f + 1.0f / 4096.0f);  // 2^-12 is below hf32's 10-bit mantissa
    h.fill(b, 1.0f);
    auto op = makeOp("MatMul", {a, b}, {y});
    op.attrs["allow_hf32"] = true;
    h.run(op);
    EXPECT_FLOAT_EQ(h.read(y).at(0), 64.0f);
    op.attrs["allow_hf32"] = false;
    h.run(op);
    EXPECT_FLOAT_EQ(h.read(y).at(0), 64.0f + 64.0f / 4096.0f);
}

}  // namespace
}  // namespace ascendsim::test
