// The AIV side of FlashAttentionScoreGrad (flash_attention_grad_plan.h), in fp32 over this AIV's
// share of each tile's q rows:
//   tile start: max, sum rows (the forward saved them 8-wide: one ready 32 B broadcast block per
//               row), D = rowsum(dO∘O) expanded into blocks;
//   per block:  P = exp(scale·S [+ causal mask] − max) / sum;  dS = scale·P∘(dP − D);
//               P, dS cast to the q dtype → workspace.
// Before the tiles the AIV zeroes its share of the fp32 dQ/dK/dV workspaces; after them it
// casts its share to the outputs (flag protocol in the plan header).
#include <algorithm>

#include "models/kernels/attention/attention_vector_steps.h"
#include "models/kernels/attention/flash_attention_grad_plan.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kFloatsPerRepeat = 64;
constexpr std::uint32_t kStatsWidth = 8;  // softmax_max/sum rows: 8 fp32 copies (one 32 B block)
constexpr DataType kF32 = DataType::Fp32;

struct GradUb {
    std::uint64_t s, dp, p, ds, mask, scratch, maxBlocks, sumBlocks, dValues, dBlocks, table, end;
    GradUb(std::uint64_t rows, std::uint64_t cols) {
        std::uint64_t next = 0;
        auto take = [&next](std::uint64_t bytes) { const auto at = next; next = alignUp(next + bytes, kVectorRepeatBytes); return at; };
        s = take(rows * cols * 4);
        dp = take(rows * cols * 4);
        p = take(rows * cols * 2);
        ds = take(rows * cols * 2);
        mask = take(rows * cols * 4);
        scratch = take(reduceRowsScratchBytes(kF32, static_cast<std::uint32_t>(rows), cols));
        maxBlocks = take(rows * kUbBlockBytes);
        sumBlocks = take(rows * kUbBlockBytes);
        dValues = take(rows * 4);
        dBlocks = take(rows * kUbBlockBytes);
        table = take(blockOffsetTableBytes(kF32, rows));
        end = next;
    }
};

class AttentionGradVectorStream final : public TiledInstructionStream {
public:
    AttentionGradVectorStream(std::shared_ptr<const AttentionGradProblem> p, std::uint32_t group, std::uint32_t sub,
                              std::uint64_t firstTile, std::uint64_t tiles)
        : p_(std::move(p)), group_(group), sub_(sub), firstTile_(firstTile), tiles_(tiles),
          share_((p_->qBlock + p_->aivPerGroup - 1) / p_->aivPerGroup), ub_(share_, p_->kvBlock) {}

protected:
    std::uint64_t tileCount() const override { return tiles_; }
    void emitPrologue(ProgramBuilder& b) override;
    void emitTile(std::uint64_t localTile, ProgramBuilder& b) override;
    void emitEpilogue(ProgramBuilder& b) override;

private:
    std::uint32_t aivIndex() const { return group_ * p_->aivPerGroup + sub_; }
    std::uint32_t aivCount() const { return p_->blockDim * p_->aivPerGroup; }
    // This AIV's share of `elements` (whole 64-element repeats).
    UnitRange shareOf(std::uint64_t elements) const {
        const UnitRange units = blockShare(ceilDiv(elements, kFloatsPerRepeat), aivCount(), aivIndex());
        return {std::min(elements, units.begin * kFloatsPerRepeat), std::min(elements, units.end * kFloatsPerRepeat)};
    }
    void emitBlock(ProgramBuilder& b, const AttentionGradTile& t, std::uint64_t row0, std::uint32_t rows, std::uint64_t k0,
                   std::uint32_t len);
    void emitZero(ProgramBuilder& b, std::uint64_t gm, std::uint64_t elements);
    void emitCastOut(ProgramBuilder& b, std::uint64_t ws, std::uint64_t out, std::uint64_t elements);

    std::shared_ptr<const AttentionGradProblem> p_;
    std::uint32_t group_, sub_;
    std::uint64_t firstTile_, tiles_, share_;
    std::uint64_t step_ = 0;  // KV block steps so far (workspace slot set step_ % kSlotSets)
    GradUb ub_;
};

void AttentionGradVectorStream::emitPrologue(ProgramBuilder& b) {
    const AttentionGradProblem& p = *p_;
    b.scalar(64, 4);
    emitBlockOffsetTable(b.out(), kF32, ub_.table, share_ * elementsPerBlock(kF32));
    if (p.causal) {
        // Diagonal-block mask of this AIV's rows: row i (tile row sub·share + i) sees columns
        // 0..sub·share + i; the others get −large.
        const std::uint64_t cols = p.kvBlock;
        emitVectorRange(b.out(), VectorOp::Duplicate, kF32, {.dst = ub_.mask}, share_ * cols, kAttentionNegativeLarge);
        for (std::uint64_t i = 0; i < share_; ++i) {
            const std::uint64_t visible = std::min<std::uint64_t>(cols, sub_ * share_ + i + 1);
            emitVectorRange(b.out(), VectorOp::Duplicate, kF32, {.dst = ub_.mask + i * cols * 4}, visible, 0.0f);
        }
    }
    // Zero this AIV's share of the fp32 accumulators, then wait for every AIV's share.
    emitVectorRange(b.out(), VectorOp::Duplicate, kF32, {.dst = ub_.s}, share_ * p.kvBlock, 0.0f);
    b.handoff(Pipe::Vector, Pipe::Mte3, 0);
    emitZero(b, p.dqWorkspace(), p.dqElements());
    emitZero(b, p.dkWorkspace(), p.dkvElements());
    emitZero(b, p.dvWorkspace(), p.dkvElements());
    b.crossCoreSet(kGradFlagZeroed, kGradAllAivMode, Pipe::Mte3);
    b.crossCoreWait(kGradFlagZeroed, kGradAllAivMode);
    b.handoff(Pipe::Mte3, Pipe::Vector, 0);
}

void AttentionGradVectorStream::emitZero(ProgramBuilder& b, std::uint64_t gm, std::uint64_t elements) {
    const UnitRange mine = shareOf(elements);
    const std::uint64_t chunk = share_ * p_->kvBlock;
    for (std::uint64_t e = mine.begin; e < mine.end; e += chunk) {
        const std::uint64_t n = std::min(chunk, mine.end - e);
        b.copy(MemSpace::UB, ub_.s, MemSpace::GM, gm + e * 4, static_cast<std::uint32_t>(n * 4));
    }
}

void AttentionGradVectorStream::emitTile(std::uint64_t localTile, ProgramBuilder& b) {
    const AttentionGradProblem& p = *p_;
    const AttentionGradTile t = attentionGradTile(p, firstTile_ + localTile);
    const std::uint64_t first = std::min<std::uint64_t>(t.rows, sub_ * share_);
    const auto rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(t.rows, first + share_) - first);
    const auto d = static_cast<std::uint32_t>(p.headDim);
    const std::uint64_t eb = bytesOf(p.dtype);
    b.scalar(kAttentionVectorTileScalarCycles, 2);
    if (rows > 0) {
        const std::uint64_t row = t.head * p.qLen + t.q0 + first;
        // Statistics rows and D = rowsum(dO∘O): dO into P's buffer, O into dS's, cast into S and dP.
        b.copy(MemSpace::GM, p.maxAddr + row * kStatsWidth * 4, MemSpace::UB, ub_.maxBlocks, rows * kUbBlockBytes);
        b.copy(MemSpace::GM, p.sumAddr + row * kStatsWidth * 4, MemSpace::UB, ub_.sumBlocks, rows * kUbBlockBytes);
        const auto rowBytes = static_cast<std::uint32_t>(std::uint64_t{rows} * d * eb);
        b.copy(MemSpace::GM, p.dyAddr + row * d * eb, MemSpace::UB, ub_.p, rowBytes);
        b.copy(MemSpace::GM, p.outAddr + row * d * eb, MemSpace::UB, ub_.ds, rowBytes);
        b.handoff(Pipe::Mte2, Pipe::Vector, 1);
        emitVectorRange(b.out(), VectorOp::Cast, kF32, {.dst = ub_.s, .src0 = ub_.p}, std::uint64_t{rows} * d, 0.0f, p.dtype);
        emitVectorRange(b.out(), VectorOp::Cast, kF32, {.dst = ub_.dp, .src0 = ub_.ds}, std::uint64_t{rows} * d, 0.0f, p.dtype);
        emitVectorRange(b.out(), VectorOp::Mul, kF32, {.dst = ub_.s, .src0 = ub_.s, .src1 = ub_.dp}, std::uint64_t{rows} * d);
        emitReduceRows(b.out(), VectorOp::ReduceSum, kF32, ub_.s, rows, d, std::uint64_t{d} * 4, ub_.scratch, ub_.dValues);
        emitExpandToBlocks(b.out(), kF32, ub_.dBlocks, ub_.dValues, rows, ub_.table);
        b.handoff(Pipe::Vector, Pipe::Mte2, 1);
    }
    const std::uint64_t blocks = p.kvBlocksFor(t.q0, t.rows);
    for (std::uint64_t j = 0; j < blocks; ++j) {
        const std::uint64_t k0 = j * p.kvBlock;
        emitBlock(b, t, first, rows, k0, static_cast<std::uint32_t>(std::min<std::uint64_t>(p.kvBlock, p.kvLen - k0)));
    }
}

void AttentionGradVectorStream::emitBlock(ProgramBuilder& b, const AttentionGradTile& t, std::uint64_t row0,
                                          std::uint32_t rows, std::uint64_t k0, std::uint32_t len) {
    const AttentionGradProblem& p = *p_;
    const std::uint64_t step = step_++;
    const AttentionGradProblem::SlotSet slots = p.slotSet(group_, step);
    const std::uint64_t ws = slots.s, wsDp = slots.dp, wsP = slots.p, wsDs = slots.ds;
    const std::uint64_t eb = bytesOf(p.dtype);
    const std::uint64_t count = std::uint64_t{rows} * len;
    b.crossCoreWait(kGradFlagScores, kGradGroupMode);
    if (rows > 0) {
        b.copy(MemSpace::GM, ws + row0 * len * 4, MemSpace::UB, ub_.s, static_cast<std::uint32_t>(count * 4));
        b.copy(MemSpace::GM, wsDp + row0 * len * 4, MemSpace::UB, ub_.dp, static_cast<std::uint32_t>(count * 4));
        b.handoff(Pipe::Mte2, Pipe::Vector, 0);
        emitVectorRange(b.out(), VectorOp::Muls, kF32, {.dst = ub_.s, .src0 = ub_.s}, count, p.scale);
        if (p.causal && k0 == t.q0) {  // the diagonal block (qBlock = kvBlock, qLen = kvLen)
            if (len != p.kvBlock) {
                for (std::uint32_t i = 0; i < rows; ++i)
                    emitVectorRange(b.out(), VectorOp::Add, kF32,
                                    {.dst = ub_.s + i * len * 4, .src0 = ub_.s + i * len * 4, .src1 = ub_.mask + i * p.kvBlock * 4}, len);
            } else {
                emitVectorRange(b.out(), VectorOp::Add, kF32, {.dst = ub_.s, .src0 = ub_.s, .src1 = ub_.mask}, count);
            }
        }
        emitAttentionRowBroadcast(b, VectorOp::Sub, ub_.s, rows, len, std::uint64_t{len} * 4, ub_.maxBlocks);
        emitVectorRange(b.out(), VectorOp::Exp, kF32, {.dst = ub_.s, .src0 = ub_.s}, count);
        emitAttentionRowBroadcast(b, VectorOp::Div, ub_.s, rows, len, std::uint64_t{len} * 4, ub_.sumBlocks);
        // dS = scale · P ∘ (dP − D)
        emitAttentionRowBroadcast(b, VectorOp::Sub, ub_.dp, rows, len, std::uint64_t{len} * 4, ub_.dBlocks);
        emitVectorRange(b.out(), VectorOp::Mul, kF32, {.dst = ub_.dp, .src0 = ub_.dp, .src1 = ub_.s}, count);
        emitVectorRange(b.out(), VectorOp::Muls, kF32, {.dst = ub_.dp, .src0 = ub_.dp}, count, p.scale);
        emitVectorRange(b.out(), VectorOp::Cast, p.dtype, {.dst = ub_.p, .src0 = ub_.s}, count, 0.0f, kF32);
        emitVectorRange(b.out(), VectorOp::Cast, p.dtype, {.dst = ub_.ds, .src0 = ub_.dp}, count, 0.0f, kF32);
        b.handoff(Pipe::Vector, Pipe::Mte3, 0);
        b.copy(MemSpace::UB, ub_.p, MemSpace::GM, wsP + row0 * len * eb, static_cast<std::uint32_t>(count * eb));
        b.copy(MemSpace::UB, ub_.ds, MemSpace::GM, wsDs + row0 * len * eb, static_cast<std::uint32_t>(count * eb));
    }
    b.crossCoreSet(gradFlagProbs(step), kGradGroupMode, Pipe::Mte3);
    if (rows == 0) return;
    // S, dP, P, dS free for the next block: MTE3 has read P, dS; MTE2 may refill S, dP.
    b.handoff(Pipe::Mte3, Pipe::Vector, 0);
    b.handoff(Pipe::Vector, Pipe::Mte2, 0);
}

void AttentionGradVectorStream::emitEpilogue(ProgramBuilder& b) {
    const AttentionGradProblem& p = *p_;
    b.crossCoreWait(kGradFlagCubeDone, kGradGroupMode);
    b.crossCoreSet(kGradFlagAccumulated, kGradAllAivMode, Pipe::Vector);
    b.crossCoreWait(kGradFlagAccumulated, kGradAllAivMode);
    emitCastOut(b, p.dqWorkspace(), p.dqAddr, p.dqElements());
    emitCastOut(b, p.dkWorkspace(), p.dkAddr, p.dkvElements());
    emitCastOut(b, p.dvWorkspace(), p.dvAddr, p.dkvElements());
}

// fp32 workspace → output dtype, this AIV's share, a UB tile at a time (S in, P out).
void AttentionGradVectorStream::emitCastOut(ProgramBuilder& b, std::uint64_t ws, std::uint64_t out, std::uint64_t elements) {
    const UnitRange mine = shareOf(elements);
    const std::uint64_t chunk = share_ * p_->kvBlock, eb = bytesOf(p_->dtype);
    for (std::uint64_t e = mine.begin; e < mine.end; e += chunk) {
        const std::uint64_t n = std::min(chunk, mine.end - e);
        b.scalar(kAttentionVectorTileScalarCycles);
        b.copy(MemSpace::GM, ws + e * 4, MemSpace::UB, ub_.s, static_cast<std::uint32_t>(n * 4));
        b.handoff(Pipe::Mte2, Pipe::Vector, 0);
        emitVectorRange(b.out(), VectorOp::Cast, p_->dtype, {.dst = ub_.p, .src0 = ub_.s}, n, 0.0f, kF32);
        b.handoff(Pipe::Vector, Pipe::Mte3, 0);
        b.copy(MemSpace::UB, ub_.p, MemSpace::GM, out + e * eb, static_cast<std::uint32_t>(n * eb));
        b.handoff(Pipe::Mte3, Pipe::Mte2, 0);
    }
}
}  // namespace

std::unique_ptr<InstructionStream> makeAttentionGradVectorStream(std::shared_ptr<const AttentionGradProblem> problem,
                                                                 std::uint32_t group, std::uint32_t subBlock,
                                                                 std::uint64_t firstTile, std::uint64_t tiles) {
    return std::make_unique<AttentionGradVectorStream>(std::move(problem), group, subBlock, firstTile, tiles);
}

std::uint64_t attentionGradVectorUbBytes(const AttentionGradProblem& problem) {
    const std::uint64_t share = (problem.qBlock + problem.aivPerGroup - 1) / problem.aivPerGroup;
    return GradUb(share, problem.kvBlock).end;
}

}  // namespace ascendsim
