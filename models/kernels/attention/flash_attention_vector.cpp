// The AIV side of FlashAttention (flash_attention_plan.h): the online softmax over this AIV's q
// rows, block by block, in fp32:
//   m' = max(m, rowmax(s·S)); α = exp(m − m'); P = exp(s·S − m'); l = α·l + rowsum(P)
//   O = α·O + P·V (P·V from the AIC); finally O / l → out.
// Row max and row sum use block reductions (vcgmax/vcgadd, attention_vector_steps.h). Per-row
// values are broadcast along rows by expanding them into one 32 B block per row (vbrcb) and
// reading that block with block stride 0.
#include <algorithm>

#include "models/kernels/attention/attention_vector_steps.h"
#include "models/kernels/attention/flash_attention_plan.h"
#include "models/kernels/program_builder.h"

namespace ascendsim {

namespace {
constexpr std::uint64_t kBlockBytes = 32;    // UB block (hardware.md §2.3)
constexpr std::uint64_t kRepeatBytes = 256;  // vector repeat (hardware.md §2.6)
constexpr std::uint32_t kFloatsPerRepeat = 64;
constexpr std::uint32_t kFloatsPerBlock = 8;
constexpr std::uint32_t kMaxRepeats = 255;

std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// UB layout for up to `rows` rows of `cols` ≤ 128 fp32 columns, placed against bank conflicts as
// the Ascend C guide asks (hardware.md §2.6 [S ASCDEV] "避免UB的bank冲突": a bank read and written in
// the same beat, or a bank group read twice, stalls the vector pipe). CANN's softmax works out of
// place: the scores ping-pong between `s` and `s2`, and α·acc goes through `s2` before O_j is
// added. Every fp32 tile is a whole number of 512 B rows (16 bank groups × 32 B), so:
// - s, s2, acc start in different 64 KiB thirds of the UB, which are the guide's (and the
//   model's, models/core/ub_bank_model.h) banks of each group: a unary op from one to another
//   reads and writes each bank group once per beat, in different banks. (The extra 1536 B offset
//   of s2 and acc dates from the earlier interleaved mapping; it is harmless.)
// - oj starts half a row (256 B = 8 bank groups) off s2, so s2 + oj reads two disjoint sets of
//   8 groups per beat.
// The causal mask is built in `s` (free once the scale has moved the scores to s2).
struct UbLayout {
    static constexpr std::uint64_t kThird = 64 * 1024;        // UB 192 KiB / 3 banks per group
    static constexpr std::uint64_t kBankPeriod = 16 * 3 * 32;  // the earlier model's mapping period, 1536 B
    std::uint64_t s, s2, p, acc, oj, out, scratch, partial, expanded, rowIndex, colIndex;
    std::uint64_t mOld, mNew, mCur, alpha, l, sum;
    std::uint64_t end;
    UbLayout(std::uint64_t rows, std::uint64_t cols) {
        const std::uint64_t tile = alignUp(rows * cols * 4, 2 * kRepeatBytes);
        std::uint64_t next = 0;
        auto take = [&next](std::uint64_t bytes) { const auto at = next; next = alignUp(next + bytes, kRepeatBytes); return at; };
        auto at = [&next](std::uint64_t offset) { next = std::max(next, offset); };
        s = take(tile);
        oj = take(tile + kRepeatBytes) + kRepeatBytes;
        at(kThird + kBankPeriod);
        s2 = take(tile);
        out = take(rows * cols * 2);
        partial = take(rows * kBlockBytes);
        expanded = take(rows * kBlockBytes);
        rowIndex = take(rows * 4);
        colIndex = take(std::max(rows, cols) * 4);
        mOld = take(rows * 4);
        mNew = take(rows * 4);
        mCur = take(rows * 4);
        alpha = take(AttentionProblem::kSlots * alignUp(rows * 4, kRepeatBytes));  // α_j: slot j % 2
        l = take(rows * 4);
        sum = take(rows * 4);
        at(2 * kThird);
        acc = take(tile);
        scratch = take(rows * kRepeatBytes);
        p = take(rows * cols * 2);
        end = next;
    }
};

VectorInstr vec(VectorOp op, DataType dtype, std::uint64_t dst, std::uint64_t src0, std::uint64_t src1 = 0) {
    VectorInstr v;
    v.op = op;
    v.dtype = dtype;
    v.srcType = dtype;
    v.dst = dst;
    v.src0 = src0;
    v.src1 = src1;
    return v;
}

// `op` over `count` contiguous elements of `dtype` (full repeats plus a masked tail).
void emitContiguous(ProgramBuilder& b, VectorInstr v, std::uint64_t count) {
    const bool cast = v.op == VectorOp::Cast;
    const std::size_t widest = std::max(bytesOf(v.dtype), cast ? bytesOf(v.srcType) : 0);
    const std::uint64_t perRepeat = kRepeatBytes / widest;
    const std::uint64_t dstStep = perRepeat * bytesOf(v.dtype);
    const std::uint64_t srcStep = perRepeat * (cast ? bytesOf(v.srcType) : bytesOf(v.dtype));
    v.dstRepeatStride = static_cast<std::uint16_t>(dstStep / kBlockBytes);
    v.src0RepeatStride = static_cast<std::uint16_t>(srcStep / kBlockBytes);
    v.src1RepeatStride = v.src0RepeatStride;
    std::uint64_t done = 0;
    while (done < count) {
        const std::uint64_t repeatIndex = done / perRepeat, remaining = count - done;
        VectorInstr part = v;
        part.dst += repeatIndex * dstStep;
        part.src0 += repeatIndex * srcStep;
        part.src1 += repeatIndex * srcStep;
        if (remaining >= perRepeat) {
            part.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(remaining / perRepeat, kMaxRepeats));
            part.mask = static_cast<std::uint16_t>(perRepeat);
            done += std::uint64_t{part.repeats} * perRepeat;
        } else {
            part.repeats = 1;
            part.mask = static_cast<std::uint16_t>(remaining);
            done = count;
        }
        b.vector(part);
    }
}

class AttentionVectorStream final : public TiledInstructionStream {
public:
    AttentionVectorStream(std::shared_ptr<const AttentionProblem> p, std::uint64_t firstTile, std::uint64_t tiles,
                          std::uint64_t workspace, std::uint32_t subBlock, std::uint32_t aivPerGroup)
        : p_(std::move(p)), firstTile_(firstTile), tiles_(tiles), workspace_(workspace), sub_(subBlock),
          share_((p_->qBlock + aivPerGroup - 1) / aivPerGroup), ub_(share_, std::max<std::uint64_t>(p_->kvBlock, p_->headDim)) {}

protected:
    std::uint64_t tileCount() const override { return tiles_; }

    void emitPrologue(ProgramBuilder& b) override {
        b.scalar(64, 4);
        if (tiles_ == 0) return;
        if (p_->causal) {
            // Column ramp colIndex[j] = j: descending masked Duplicates fill the first block
            // (the last write to element k has mask k+1 and value k), then doubling Adds.
            for (std::uint32_t m = kFloatsPerBlock; m >= 1; --m) {
                VectorInstr dup = vec(VectorOp::Duplicate, DataType::Fp32, ub_.colIndex, 0);
                dup.mask = static_cast<std::uint16_t>(m);
                dup.scalar = static_cast<float>(m - 1);
                b.vector(dup);
            }
            for (std::uint64_t filled = kFloatsPerBlock; filled < rampLength(); filled *= 2) {
                VectorInstr add = vec(VectorOp::Adds, DataType::Fp32, ub_.colIndex + filled * 4, ub_.colIndex);
                add.scalar = static_cast<float>(filled);
                emitContiguous(b, add, std::min<std::uint64_t>(filled, rampLength() - filled));
            }
        }
        b.setFlag(Pipe::Vector, Pipe::Mte2, 0).setFlag(Pipe::Vector, Pipe::Mte2, 1);
        b.setFlag(Pipe::Mte3, Pipe::Vector, 0).setFlag(Pipe::Mte3, Pipe::Vector, 1);
    }

    void emitEpilogue(ProgramBuilder& b) override {
        if (tiles_ == 0) return;
        b.waitFlag(Pipe::Vector, Pipe::Mte2, 0).waitFlag(Pipe::Vector, Pipe::Mte2, 1);
        b.waitFlag(Pipe::Mte3, Pipe::Vector, 0).waitFlag(Pipe::Mte3, Pipe::Vector, 1);
    }

    void emitTile(std::uint64_t localTile, ProgramBuilder& b) override;

private:
    std::uint64_t rampLength() const { return std::max<std::uint64_t>(p_->kvBlock, share_); }
    void emitSoftmax(ProgramBuilder& b, const AttentionTile& t, std::uint64_t row0, std::uint32_t rows, std::uint64_t j);
    void emitAccumulate(ProgramBuilder& b, std::uint64_t row0, std::uint32_t rows, std::uint64_t j);
    std::uint64_t alphaOf(std::uint64_t j) const { return ub_.alpha + j % AttentionProblem::kSlots * alignUp(share_ * 4, kRepeatBytes); }
    void emitCausalMask(ProgramBuilder& b, std::uint64_t row0, std::uint32_t rows, std::uint64_t k0, std::uint32_t len,
                        std::uint64_t strideBytes);

    std::shared_ptr<const AttentionProblem> p_;
    std::uint64_t firstTile_, tiles_, workspace_;
    std::uint32_t sub_;
    std::uint64_t share_;
    UbLayout ub_;
};

void AttentionVectorStream::emitTile(std::uint64_t localTile, ProgramBuilder& b) {
    const AttentionProblem& p = *p_;
    const AttentionTile t = attentionTile(p, firstTile_ + localTile);
    const std::uint64_t first = std::min<std::uint64_t>(t.rows, sub_ * share_);
    const auto rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(t.rows, first + share_) - first);
    const auto d = static_cast<std::uint32_t>(p.headDim);
    b.scalar(kAttentionVectorTileScalarCycles, 2);
    if (rows > 0) {
        VectorInstr init = vec(VectorOp::Duplicate, DataType::Fp32, ub_.mOld, 0);
        init.scalar = kAttentionNegativeLarge;
        emitContiguous(b, init, rows);
        init.dst = ub_.l;
        init.scalar = 0.0f;
        emitContiguous(b, init, rows);
        init.dst = ub_.acc;
        emitContiguous(b, init, std::uint64_t{rows} * d);
    }
    // O_j is folded in only after P_{j+1} is handed over, so the AIC's P_{j+1}·V_{j+1} and the
    // next S overlap this AIV's work (flash_attention_plan.h).
    const std::uint64_t blocks = p.kvBlocksFor(t.q0, t.rows);
    for (std::uint64_t j = 0; j < blocks; ++j) {
        emitSoftmax(b, t, first, rows, j);
        if (j > 0) emitAccumulate(b, first, rows, j - 1);
    }
    if (blocks > 0) emitAccumulate(b, first, rows, blocks - 1);
    if (rows == 0) return;
    // out = O / l, cast to the output type.
    emitContiguous(b, vec(VectorOp::Reciprocal, DataType::Fp32, ub_.sum, ub_.l), rows);
    emitAttentionRowsToBlocks(b, ub_.sum, rows, ub_.expanded);
    emitAttentionRowBroadcast(b, VectorOp::Mul, ub_.acc, rows, d, std::uint64_t{d} * 4, ub_.expanded);
    b.waitFlag(Pipe::Mte3, Pipe::Vector, 1);
    VectorInstr cast = vec(VectorOp::Cast, p.dtype, ub_.out, ub_.acc);
    cast.srcType = DataType::Fp32;
    emitContiguous(b, cast, std::uint64_t{rows} * d);
    b.handoff(Pipe::Vector, Pipe::Mte3, 1);
    const std::uint64_t eb = bytesOf(p.dtype);
    b.copy2d(MemSpace::UB, ub_.out, MemSpace::GM, p.outAddr + p.qRow(t.head, t.q0 + first) * eb, rows,
             static_cast<std::uint32_t>(d * eb), d * eb, p.qStrides.row * eb);
    b.setFlag(Pipe::Mte3, Pipe::Vector, 1);
}

// Softmax of KV block j: S_j (S slot j) → P_j (P slot j), α_j, running max and sum; then flag 1.
void AttentionVectorStream::emitSoftmax(ProgramBuilder& b, const AttentionTile& t, std::uint64_t row0, std::uint32_t rows,
                                        std::uint64_t j) {
    const AttentionProblem& p = *p_;
    const std::uint64_t k0 = j * p.kvBlock;
    const auto len = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.kvBlock, p.kvLen - k0));
    const std::uint64_t sStride = alignUp(len, 16) * 4, pStride = alignUp(len, 16) * 2;
    const std::uint64_t sWork = workspace_ + p.sSlot(j), pWork = workspace_ + p.pSlot(j);
    const std::uint64_t eb = bytesOf(p.dtype);
    const std::uint64_t alpha = alphaOf(j);
    b.crossCoreWait(kFlagScoresReady, kCrossCoreMode);
    if (rows > 0) {
        b.waitFlag(Pipe::Vector, Pipe::Mte2, 0);
        b.copy2d(MemSpace::GM, sWork + row0 * len * 4, MemSpace::UB, ub_.s, rows, len * 4, len * 4, sStride);
        b.handoff(Pipe::Mte2, Pipe::Vector, 0);
        VectorInstr scale = vec(VectorOp::Muls, DataType::Fp32, ub_.s2, ub_.s);
        scale.scalar = p.scale;
        emitContiguous(b, scale, rows * sStride / 4);
        if (p.causal && p.visibleKeys(t.q0 + row0) < k0 + len) emitCausalMask(b, t.q0 + row0, rows, k0, len, sStride);
        emitAttentionRowReduce(b, VectorOp::Max, ub_.s2, rows, len, sStride, ub_.scratch, ub_.partial, ub_.mCur);
        emitContiguous(b, vec(VectorOp::Max, DataType::Fp32, ub_.mNew, ub_.mOld, ub_.mCur), rows);
        emitContiguous(b, vec(VectorOp::Sub, DataType::Fp32, alpha, ub_.mOld, ub_.mNew), rows);
        emitContiguous(b, vec(VectorOp::Exp, DataType::Fp32, alpha, alpha), rows);
        emitAttentionRowsToBlocks(b, ub_.mNew, rows, ub_.expanded);
        emitAttentionRowBroadcast(b, VectorOp::Sub, ub_.s, ub_.s2, rows, len, sStride, ub_.expanded);
        emitContiguous(b, vec(VectorOp::Exp, DataType::Fp32, ub_.s2, ub_.s), rows * sStride / 4);
        emitAttentionRowReduce(b, VectorOp::Add, ub_.s2, rows, len, sStride, ub_.scratch, ub_.partial, ub_.sum);
        emitContiguous(b, vec(VectorOp::Mul, DataType::Fp32, ub_.l, ub_.l, alpha), rows);
        emitContiguous(b, vec(VectorOp::Add, DataType::Fp32, ub_.l, ub_.l, ub_.sum), rows);
        emitContiguous(b, vec(VectorOp::Copy, DataType::Fp32, ub_.mOld, ub_.mNew), rows);
        b.waitFlag(Pipe::Mte3, Pipe::Vector, 0);
        VectorInstr cast = vec(VectorOp::Cast, p.dtype, ub_.p, ub_.s2);
        cast.srcType = DataType::Fp32;
        emitContiguous(b, cast, rows * sStride / 4);
        b.setFlag(Pipe::Vector, Pipe::Mte2, 0);
        b.handoff(Pipe::Vector, Pipe::Mte3, 0);
        b.copy2d(MemSpace::UB, ub_.p, MemSpace::GM, pWork + row0 * len * eb, rows, static_cast<std::uint32_t>(len * eb),
                 pStride, len * eb);
        b.setFlag(Pipe::Mte3, Pipe::Vector, 0);
    }
    b.crossCoreSet(kFlagProbsReady, kCrossCoreMode, Pipe::Mte3);
}

// acc = α_j·acc + O_j once the AIC has written O_j (O slot j).
void AttentionVectorStream::emitAccumulate(ProgramBuilder& b, std::uint64_t row0, std::uint32_t rows, std::uint64_t j) {
    const AttentionProblem& p = *p_;
    const auto d = static_cast<std::uint32_t>(p.headDim);
    b.crossCoreWait(kFlagOutputReady, kCrossCoreMode);
    if (rows == 0) return;
    b.waitFlag(Pipe::Vector, Pipe::Mte2, 1);
    b.copy(MemSpace::GM, workspace_ + p.oSlot(j) + row0 * d * 4, MemSpace::UB, ub_.oj, rows * d * 4);
    b.handoff(Pipe::Mte2, Pipe::Vector, 1);
    // s2 is free between two softmaxes (MTE2 may be filling s with the next S meanwhile).
    emitAttentionRowsToBlocks(b, alphaOf(j), rows, ub_.expanded);
    emitAttentionRowBroadcast(b, VectorOp::Mul, ub_.s2, ub_.acc, rows, d, std::uint64_t{d} * 4, ub_.expanded);
    emitContiguous(b, vec(VectorOp::Add, DataType::Fp32, ub_.acc, ub_.s2, ub_.oj), std::uint64_t{rows} * d);
    b.setFlag(Pipe::Vector, Pipe::Mte2, 1);
}

// Adds −large to the scaled S[i][j] (in s2; the mask is built in s) where key k0+j is not visible to query row firstRow+i: the row's
// visible count minus k0 is expanded per row and compared with the column ramp.
void AttentionVectorStream::emitCausalMask(ProgramBuilder& b, std::uint64_t firstRow, std::uint32_t rows,
                                           std::uint64_t k0, std::uint32_t len, std::uint64_t strideBytes) {
    const AttentionProblem& p = *p_;
    // limit[i] = visibleKeys(firstRow + i) − k0 − 1 = (firstRow + i) + offset − k0; column j masked if j > limit.
    const std::uint64_t offset = p.kvLen >= p.qLen ? p.kvLen - p.qLen : 0;
    const double base = static_cast<double>(firstRow + offset) - static_cast<double>(k0);
    VectorInstr rowRamp = vec(VectorOp::Adds, DataType::Fp32, ub_.rowIndex, ub_.colIndex);
    rowRamp.scalar = static_cast<float>(base);
    emitContiguous(b, rowRamp, rows);
    emitAttentionRowsToBlocks(b, ub_.rowIndex, rows, ub_.expanded);
    for (std::uint32_t c = 0; c < len; c += kFloatsPerRepeat) {
        // mask[i][c..] = colIndex[c..] > limit[i] ? 1 : 0, then S += mask · (−large)
        VectorInstr cmp = vec(VectorOp::CompareGt, DataType::Fp32, ub_.s + c * 4, ub_.colIndex + c * 4, ub_.expanded);
        cmp.repeats = static_cast<std::uint16_t>(rows);
        cmp.mask = static_cast<std::uint16_t>(std::min(kFloatsPerRepeat, len - c));
        cmp.dstRepeatStride = static_cast<std::uint16_t>(strideBytes / kBlockBytes);
        cmp.src0RepeatStride = 0;
        cmp.src1BlockStride = 0;
        cmp.src1RepeatStride = 1;
        b.vector(cmp);
    }
    VectorInstr neg = vec(VectorOp::Muls, DataType::Fp32, ub_.s, ub_.s);
    neg.scalar = kAttentionNegativeLarge;
    emitContiguous(b, neg, rows * strideBytes / 4);
    emitContiguous(b, vec(VectorOp::Add, DataType::Fp32, ub_.s2, ub_.s2, ub_.s), rows * strideBytes / 4);
}
}  // namespace

std::unique_ptr<InstructionStream> makeAttentionVectorStream(std::shared_ptr<const AttentionProblem> problem,
                                                             std::uint64_t firstTile, std::uint64_t tiles,
                                                             std::uint64_t workspace, std::uint32_t subBlock,
                                                             std::uint32_t aivPerGroup) {
    return std::make_unique<AttentionVectorStream>(std::move(problem), firstTile, tiles, workspace, subBlock, aivPerGroup);
}

std::uint64_t attentionVectorUbBytes(const AttentionProblem& problem, std::uint32_t aivPerGroup) {
    const std::uint64_t share = (problem.qBlock + aivPerGroup - 1) / aivPerGroup;
    return UbLayout(share, std::max<std::uint64_t>(problem.kvBlock, problem.headDim)).end;
}

}  // namespace ascendsim
