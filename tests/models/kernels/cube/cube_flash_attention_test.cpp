// FlashAttentionScore / IncreFlashAttention as MIX_AIC kernels: the AIC and AIV programs run
// interleaved at their cross-core flags on the FunctionalMachine and match a softmax(QKᵀ·s)·V
// reference, causal or not, for several block dims.
#include <gtest/gtest.h>

#include <cmath>

#include "models/core/ub_bank_model.h"
#include "models/timing/transfer_timing.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

std::vector<double> referenceAttention(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                                       std::int64_t heads, std::int64_t sq, std::int64_t kvStored, std::int64_t kvLen,
                                       std::int64_t d, double scale, bool causal) {
    std::vector<double> out(static_cast<std::size_t>(heads * sq * d), 0.0);
    const std::int64_t offset = kvLen >= sq ? kvLen - sq : 0;
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < sq; ++i) {
            const std::int64_t visible = causal ? std::min(kvLen, i + offset + 1) : kvLen;
            std::vector<double> s(static_cast<std::size_t>(visible));
            double m = -1e300;
            for (std::int64_t j = 0; j < visible; ++j) {
                double acc = 0;
                for (std::int64_t t = 0; t < d; ++t)
                    acc += double(q[static_cast<std::size_t>((h * sq + i) * d + t)]) * k[static_cast<std::size_t>((h * kvStored + j) * d + t)];
                s[static_cast<std::size_t>(j)] = acc * scale;
                m = std::max(m, s[static_cast<std::size_t>(j)]);
            }
            double sum = 0;
            for (auto& x : s) sum += (x = std::exp(x - m));
            for (std::int64_t j = 0; j < visible; ++j)
                for (std::int64_t t = 0; t < d; ++t)
                    out[static_cast<std::size_t>((h * sq + i) * d + t)] +=
                        s[static_cast<std::size_t>(j)] / sum * v[static_cast<std::size_t>((h * kvStored + j) * d + t)];
        }
    return out;
}

void runFlashAttention(std::int64_t b, std::int64_t n, std::int64_t s, std::int64_t skv, std::int64_t d, bool causal,
                       std::optional<std::uint32_t> blockDim) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto q = h.tensor("q", {b, n, s, d}, DataType::Fp16);
    auto k = h.tensor("k", {b, n, skv, d}, DataType::Fp16);
    auto v = h.tensor("v", {b, n, skv, d}, DataType::Fp16);
    auto out = h.tensor("out", {b, n, s, d}, DataType::Fp16);
    const auto qv = h.fillRandom(q, -2, 2), kv = h.fillRandom(k, -2, 2), vv = h.fillRandom(v);
    h.fill(out, 99.0f);
    auto op = makeOp("FlashAttentionScore", {q, k, v}, {out});
    op.attrs["causal"] = causal;
    op.blockDim = blockDim;
    const auto kernels = h.run(op);
    ASSERT_EQ(kernels.at(0).type, TaskType::MixAic);
    EXPECT_EQ(kernels.at(0).mixBlockDim, 2 * kernels.at(0).blockDim);
    expectNear(h.read(out), referenceAttention(qv, kv, vv, b * n, s, skv, skv, d, 1.0 / std::sqrt(double(d)), causal),
               3e-3, 3e-3, "FlashAttentionScore s" + std::to_string(s) + " skv" + std::to_string(skv) +
                               (causal ? " causal" : "") + " blockDim " + (blockDim ? std::to_string(*blockDim) : "default"));
}

TEST(CubeFlashAttention, PrefillMatchesSoftmaxReferenceForEveryBlockDim) {
    for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{},
                                                  std::optional<std::uint32_t>{3}})
        runFlashAttention(1, 2, 160, 300, 64, false, blockDim);
}

TEST(CubeFlashAttention, CausalPrefillMasksFutureKeys) {
    runFlashAttention(2, 1, 200, 200, 32, true, std::nullopt);
}

TEST(CubeFlashAttention, IncrementalDecodeReadsOnlyKvLenRowsOfTheCache) {
    const auto chip = ascend910B1();
    for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{},
                                                  std::optional<std::uint32_t>{5}}) {
        CubeOpHarness h(chip);
        const std::int64_t b = 2, n = 4, smax = 400, kvLen = 333, d = 128;
        auto q = h.tensor("q", {b, n, 1, d}, DataType::Fp16);
        auto k = h.tensor("k_cache", {b, n, smax, d}, DataType::Fp16);
        auto v = h.tensor("v_cache", {b, n, smax, d}, DataType::Fp16);
        auto out = h.tensor("out", {b, n, 1, d}, DataType::Fp16);
        const auto qv = h.fillRandom(q), kv = h.fillRandom(k), vv = h.fillRandom(v);
        auto op = makeOp("IncreFlashAttention", {q, k, v}, {out});
        op.attrs["kv_len"] = kvLen;
        op.blockDim = blockDim;
        h.run(op);
        expectNear(h.read(out), referenceAttention(qv, kv, vv, b * n, 1, smax, kvLen, d, 1.0 / std::sqrt(double(d)), false),
                   3e-3, 3e-3, "IncreFlashAttention");
    }
}

TEST(CubeFlashAttention, MixBlockDimBeyondTheCoresOrCoupledChipIsALoweringError) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto q = h.tensor("q", {1, 32, 128, 64}, DataType::Fp16);
    auto op = makeOp("FlashAttentionScore", {q, h.tensor("k", {1, 32, 128, 64}, DataType::Fp16),
                                             h.tensor("v", {1, 32, 128, 64}, DataType::Fp16)},
                     {h.tensor("out", {1, 32, 128, 64}, DataType::Fp16)});
    EXPECT_EQ(h.lower(op).at(0).blockDim, 24u);
    op.blockDim = 25;
    EXPECT_THROW(h.lower(op), LoweringError);
    op.blockDim = std::nullopt;
    const auto coupled = coupledChip();
    EXPECT_THROW(KernelRegistry::instance().lower(op, coupled), LoweringError);
    auto decode = makeOp("IncreFlashAttention", op.inputs, op.outputs);
    EXPECT_THROW(h.lower(decode), LoweringError);  // q has 128 rows and no kv_len
}


TEST(CubeFlashAttention, GqaInSbhLayoutSharesEachKvHeadAcrossItsQueryHeads) {
    // The Qwen3 sample's form: q [S,B,N·D], k/v [S,B,Nkv·D], input_layout SBH, head_num N, and
    // N / Nkv query heads reading one KV head (here 4 on 2). Rows of a head are D elements every
    // B·H, so every load and store is a strided 2-D move.
    const std::int64_t b = 2, n = 4, nkv = 2, s = 150, d = 32, group = n / nkv;
    const auto chip = ascend910B1();
    for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{}}) {
        CubeOpHarness h(chip);
        auto q = h.tensor("q", {s, b, n * d}, DataType::Fp16);
        auto k = h.tensor("k", {s, b, nkv * d}, DataType::Fp16);
        auto v = h.tensor("v", {s, b, nkv * d}, DataType::Fp16);
        auto out = h.tensor("out", {s, b, n * d}, DataType::Fp16);
        const auto qv = h.fillRandom(q, -2, 2), kv = h.fillRandom(k, -2, 2), vv = h.fillRandom(v);
        h.fill(out, 99.0f);
        auto op = makeOp("FlashAttentionScore", {q, k, v}, {out});
        op.attrs["causal"] = true;
        op.attrs["input_layout"] = std::string("SBH");
        op.attrs["head_num"] = n;
        op.blockDim = blockDim;
        h.run(op);
        // The reference in BNSD, each query head with its KV head's rows.
        auto at = [](std::int64_t row, std::int64_t batch, std::int64_t head, std::int64_t t, std::int64_t heads) {
            return static_cast<std::size_t>(((row * b + batch) * heads + head) * d + t);
        };
        std::vector<float> qb, kb, vb;
        for (std::int64_t bi = 0; bi < b; ++bi)
            for (std::int64_t hi = 0; hi < n; ++hi)
                for (std::int64_t r = 0; r < s; ++r)
                    for (std::int64_t t = 0; t < d; ++t) {
                        qb.push_back(qv[at(r, bi, hi, t, n)]);
                        kb.push_back(kv[at(r, bi, hi / group, t, nkv)]);
                        vb.push_back(vv[at(r, bi, hi / group, t, nkv)]);
                    }
        const auto ref = referenceAttention(qb, kb, vb, b * n, s, s, s, d, 1.0 / std::sqrt(double(d)), true);
        std::vector<double> expected(ref.size());
        for (std::int64_t bi = 0; bi < b; ++bi)
            for (std::int64_t hi = 0; hi < n; ++hi)
                for (std::int64_t r = 0; r < s; ++r)
                    for (std::int64_t t = 0; t < d; ++t)
                        expected[at(r, bi, hi, t, n)] = ref[static_cast<std::size_t>(((bi * n + hi) * s + r) * d + t)];
        expectNear(h.read(out), expected, 3e-3, 3e-3,
                   std::string("SBH GQA blockDim ") + (blockDim ? std::to_string(*blockDim) : "default"));
    }
}

// One 128-row query tile (D 64) over three 128-row KV blocks on one block.
OpInstance threeKvBlockOp(CubeOpHarness& h) {
    auto op = makeOp("FlashAttentionScore", {h.tensor("q", {1, 1, 128, 64}, DataType::Fp16),
                                             h.tensor("k", {1, 1, 384, 64}, DataType::Fp16),
                                             h.tensor("v", {1, 1, 384, 64}, DataType::Fp16)},
                     {h.tensor("out", {1, 1, 128, 64}, DataType::Fp16)});
    op.blockDim = 1;
    return op;
}

// CANN's FA kernel pipelines the two sides: the AIC computes S_{j+1} before it waits for P_j, and
// the AIVs hand over P_{j+1} before they fold O_j in, with two workspace slots per S, P, O.
TEST(CubeFlashAttention, AicRunsOneKvBlockAheadOfTheSoftmax) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const OpInstance op = threeKvBlockOp(h);
    const LoweredKernel kernel = h.lower(op).at(0);
    // Three KV blocks: S0 S1 | P0? O0 | S2 | P1? O1 | P2? O2.
    EXPECT_EQ(crossCoreEvents(kernel, CoreKind::Cube), (std::vector<int>{0, 0, -2, 2, 0, -2, 2, -2, 2}));
    // The AIV: S0? P0 | S1? P1 O0? | S2? P2 O1? | O2?.
    EXPECT_EQ(crossCoreEvents(kernel, CoreKind::Vector), (std::vector<int>{-1, 1, -1, 1, -3, -1, 1, -3, -3}));
    const std::uint64_t slotSet = 128 * 128 * 4 + 128 * 128 * 2 + 128 * 64 * 4;
    EXPECT_EQ(kernel.workspaceBytes, 2 * slotSet);
}

// CANN's kernel gives its two matmuls ND operands in GM (Q, K, V and the AIVs' P rows), so each
// GM→L1 load converts them to the cube's fractal layout (ND2NZ): one tile over three KV blocks
// loads Q once and K, P, V per block, every one converted.
TEST(CubeFlashAttention, AicConvertsItsNdOperandsOnTheWayToL1) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const OpInstance op = threeKvBlockOp(h);
    EXPECT_EQ(gmToL1Conversions(h.lower(op).at(0)), std::vector<LayoutConversion>(10, LayoutConversion::Nd2Nz));
}

// CANN's AIC runs the KFC matmul server, which polls its message queue for the AIVs' requests on
// the scalar unit (docs/fidelity.md §45): each of its waits for P polls; the AIVs' waits block.
TEST(CubeFlashAttention, AicPollsForTheAivsAndTheAivsBlock) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    const LoweredKernel kernel = h.lower(threeKvBlockOp(h)).at(0);
    EXPECT_EQ(crossCoreWaitsPolled(kernel, CoreKind::Cube), std::vector<bool>(3, true));
    EXPECT_EQ(crossCoreWaitsPolled(kernel, CoreKind::Vector), std::vector<bool>(6, false));
}

// One 128-row bf16 tile (D 128) over `kvBlocks` KV blocks on one AIC group.
LoweredKernel oneTileBf16Attention(const ChipConfig& chip, std::uint64_t kvBlocks) {
    CubeOpHarness h(chip);
    const auto kv = static_cast<std::int64_t>(128 * kvBlocks);
    auto op = makeOp("FlashAttentionScore", {h.tensor("q", {1, 1, 128, 128}, DataType::Bf16),
                                             h.tensor("k", {1, 1, kv, 128}, DataType::Bf16),
                                             h.tensor("v", {1, 1, kv, 128}, DataType::Bf16)},
                     {h.tensor("out", {1, 1, 128, 128}, DataType::Bf16)});
    op.blockDim = 1;
    return h.lower(op).at(0);
}

// The softmax of one 64 × 128 fp32 half-block as CANN issues it (hardware.md §2.6 costs, repeats
// of 64 fp32): scale 128, row max (fold 2·64 + vcgmax 64 + 8), broadcast Sub 2·2·64, Exp 2·128,
// row sum (as the max), cast 128, then α·O (broadcast Mul 2·2·64) + O_j (2·128): 1688 cycles of
// repeats, plus start-ups and the 64-row updates. The r0 sample's AIV does 1810 cycles per
// half-block (docs/fidelity.md §12); whole-row vcmax/vcadd (7 cycles per row) and Gather
// expansions (27 + 12 per repeat) would put it near 2900.
TEST(CubeFlashAttention, SoftmaxVectorCyclesPerKvBlockMatchTheBlockReductionCount) {
    ChipConfig chip = ascend910B1();
    const VectorClassTiming unary{1, 3, 0}, binary{2, 3, 0};
    auto set = [&chip](VectorClass c, VectorClassTiming t) { chip.vector.byClass[static_cast<std::size_t>(c)] = t; };
    set(VectorClass::Unary, unary);
    set(VectorClass::Binary, binary);
    set(VectorClass::Conversion, unary);
    set(VectorClass::Transcendental, {4, 4, 2});
    set(VectorClass::FusedMultiplyAdd, {4, 4, 0});
    set(VectorClass::Reduction, {7, 7, 0});
    set(VectorClass::Gather, {24, 27, 12});
    set(VectorClass::Sort, {16, 22, 0});
    const std::uint64_t kvBlocks = 8;
    const LoweredKernel kernel = oneTileBf16Attention(chip, kvBlocks);
    const VectorTimingModel timing(chip);
    BlockProgramRequest request;
    request.coreKind = CoreKind::Vector;
    auto stream = kernel.program(request);
    std::vector<Instruction> chunk;
    std::uint64_t cycles = 0, wholeRowReductions = 0, blockReductions = 0, gathers = 0;
    while (stream->next(chunk)) {
        for (const Instruction& i : chunk) {
            const auto* v = std::get_if<VectorInstr>(&i.operands);
            if (v == nullptr) continue;
            cycles += timing.cycles(*v);
            wholeRowReductions += vectorClassOf(v->op) == VectorClass::Reduction;
            blockReductions += isBlockReduction(v->op);
            gathers += v->op == VectorOp::Gather;
        }
        chunk.clear();
    }
    EXPECT_EQ(wholeRowReductions, 0u);
    EXPECT_EQ(blockReductions, kvBlocks * 2 * 2);  // max and sum, two steps each
    EXPECT_EQ(gathers, 0u);
    const double perBlock = static_cast<double>(cycles) / static_cast<double>(kvBlocks);
    EXPECT_GT(perBlock, 1688.0);
    EXPECT_LT(perBlock, 2000.0);
}

// The softmax works out of place with its tiles placed against UB bank conflicts (hardware.md
// §2.6 [S ASCDEV]): the in-place scale / Sub / Exp / α·acc and the acc + O_j over one bank group
// set cost ≈ 1500 stall cycles per 64 × 128 half-block before (docs/fidelity.md §12); what is left
// is the broadcast block sharing a group with the row it is applied to, and the fold / cast
// writes.
TEST(CubeFlashAttention, SoftmaxTilesAvoidUbBankConflicts) {
    const ChipConfig chip = ascend910B1();
    const std::uint64_t kvBlocks = 8;
    const LoweredKernel kernel = oneTileBf16Attention(chip, kvBlocks);
    UbBankModel banks(chip.ub);
    std::uint64_t stalls = 0, inPlaceFullTiles = 0;
    forEachProgramInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        const auto* v = std::get_if<VectorInstr>(&i.operands);
        if (v == nullptr) return;
        stalls += banks.conflicts(*v).totalStallCycles();
        inPlaceFullTiles += v->dst == v->src0 && v->repeats >= 64 && v->op != VectorOp::Duplicate;
    });
    const double perBlock = static_cast<double>(stalls) / static_cast<double>(kvBlocks);
    EXPECT_LT(perBlock, 400.0);
    EXPECT_LE(inPlaceFullTiles, 2u);  // only the final O / l of the tile (two 64-column chunks)
}

// P (bf16) is cast out of the fp32 scores into another third of the UB than the scores' s2, and
// the final O (bf16) out of the accumulator's third: every such cast reads and writes different
// banks (hardware.md §2.6 rule a), so none of them stalls in the UB bank model (docs/fidelity.md §52).
TEST(CubeFlashAttention, CastsToBf16ReadAndWriteDifferentBanks) {
    const ChipConfig chip = ascend910B1();
    const LoweredKernel kernel = oneTileBf16Attention(chip, 4);
    UbBankModel banks(chip.ub);
    std::uint64_t casts = 0, castStalls = 0;
    forEachProgramInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        const auto* v = std::get_if<VectorInstr>(&i.operands);
        if (v == nullptr || v->op != VectorOp::Cast || v->repeats < 64) return;
        ++casts;
        castStalls += banks.conflicts(*v).totalStallCycles();
    });
    EXPECT_EQ(casts, 4u + 1u);  // one P per KV block, the final O
    EXPECT_EQ(castStalls, 0u);
}

}  // namespace
}  // namespace ascendsim::test
