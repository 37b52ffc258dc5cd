#include "models/kernels/attention/attention_vector_steps.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kMaxRepeatsPerInstruction = 255;  // 8-bit repeat field (hardware.md §2.6)
}  // namespace

void emitAttentionRowBroadcast(ProgramBuilder& b, VectorOp op, std::uint64_t base, std::uint32_t rows, std::uint32_t cols,
                               std::uint64_t strideBytes, std::uint64_t blocks) {
    emitAttentionRowBroadcast(b, op, base, base, rows, cols, strideBytes, blocks);
}

void emitAttentionRowBroadcast(ProgramBuilder& b, VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint32_t rows,
                               std::uint32_t cols, std::uint64_t strideBytes, std::uint64_t blocks) {
    const std::uint32_t perRepeat = elementsPerRepeat(DataType::Fp32);
    for (std::uint32_t c = 0; c < cols; c += perRepeat) {
        VectorInstr v;
        v.op = op;
        v.dtype = v.srcType = DataType::Fp32;
        v.dst = dst + c * 4;
        v.src0 = src + c * 4;
        v.src1 = blocks;
        v.repeats = static_cast<std::uint16_t>(rows);
        v.mask = static_cast<std::uint16_t>(std::min(perRepeat, cols - c));
        v.dstRepeatStride = v.src0RepeatStride = static_cast<std::uint16_t>(strideBytes / kUbBlockBytes);
        v.src1BlockStride = 0;
        v.src1RepeatStride = 1;
        b.vector(v);
    }
}

void emitAttentionRowsToBlocks(ProgramBuilder& b, std::uint64_t values, std::uint32_t rows, std::uint64_t blocks) {
    VectorInstr v;
    v.op = VectorOp::BlockBroadcast;
    v.dtype = v.srcType = DataType::Fp32;
    v.dst = blocks;
    v.src0 = values;
    v.mask = static_cast<std::uint16_t>(elementsPerRepeat(DataType::Fp32));
    v.dstBlockStride = 1;
    v.dstRepeatStride = kVectorBlocksPerRepeat;
    for (std::uint32_t done = 0; done < rows;) {
        const std::uint32_t count = std::min<std::uint32_t>(rows - done, kMaxRepeatsPerInstruction * kVectorBlocksPerRepeat);
        VectorInstr part = v;
        part.src0 += std::uint64_t{done} * 4;
        part.dst += std::uint64_t{done} * kUbBlockBytes;
        part.repeats = static_cast<std::uint16_t>((count + kVectorBlocksPerRepeat - 1) / kVectorBlocksPerRepeat);
        b.vector(part);
        done += count;
    }
}

void emitAttentionRowReduce(ProgramBuilder& b, VectorOp fold, std::uint64_t base, std::uint32_t rows, std::uint32_t cols,
                            std::uint64_t strideBytes, std::uint64_t scratch, std::uint64_t partial, std::uint64_t dst) {
    const std::uint32_t perRepeat = elementsPerRepeat(DataType::Fp32);
    const auto rowStride = static_cast<std::uint16_t>(strideBytes / kUbBlockBytes);
    const auto repeatBlocks = static_cast<std::uint16_t>(kVectorBlocksPerRepeat);
    auto rowOp = [&](VectorOp op, std::uint64_t d, std::uint64_t s0, std::uint64_t s1, std::uint32_t mask) {
        VectorInstr v;
        v.op = op;
        v.dtype = v.srcType = DataType::Fp32;
        v.dst = d;
        v.src0 = s0;
        v.src1 = s1;
        v.repeats = static_cast<std::uint16_t>(rows);
        v.mask = static_cast<std::uint16_t>(mask);
        return v;
    };
    std::uint64_t src = base;
    std::uint16_t srcStride = rowStride;
    if (cols > perRepeat) {
        // scratch = fold of the row's 64-column chunks; a partial first fold needs the copy first.
        std::uint32_t c = perRepeat;
        VectorInstr first = rowOp(VectorOp::Copy, scratch, base, 0, perRepeat);
        if (cols >= 2 * perRepeat) {
            first = rowOp(fold, scratch, base, base + perRepeat * 4, perRepeat);
            first.src1RepeatStride = rowStride;
            c = 2 * perRepeat;
        }
        first.src0RepeatStride = rowStride;
        first.dstRepeatStride = repeatBlocks;
        b.vector(first);
        for (; c < cols; c += perRepeat) {
            VectorInstr f = rowOp(fold, scratch, scratch, base + c * 4, std::min(perRepeat, cols - c));
            f.dstRepeatStride = f.src0RepeatStride = repeatBlocks;
            f.src1RepeatStride = rowStride;
            b.vector(f);
        }
        src = scratch;
        srcStride = repeatBlocks;
    }
    const bool max = fold == VectorOp::Max;
    if (std::min(cols, perRepeat) != perRepeat) {  // fewer than 64 columns: one whole-row reduction each
        VectorInstr r = rowOp(max ? VectorOp::ReduceMax : VectorOp::ReduceSum, dst, src, 0, cols);
        r.src0RepeatStride = srcStride;
        b.vector(r);
        return;
    }
    const VectorOp blockOp = max ? VectorOp::BlockReduceMax : VectorOp::BlockReduceSum;
    VectorInstr perRow = rowOp(blockOp, partial, src, 0, perRepeat);
    perRow.src0RepeatStride = srcStride;
    b.vector(perRow);
    // 8 partials per row, 8 rows per repeat: one value per block = one per row.
    const std::uint64_t partials = std::uint64_t{rows} * kVectorBlocksPerRepeat;
    for (std::uint64_t done = 0; done < partials;) {
        const std::uint64_t count = std::min<std::uint64_t>(partials - done, std::uint64_t{kMaxRepeatsPerInstruction} * perRepeat);
        VectorInstr v = rowOp(blockOp, dst + done / kVectorBlocksPerRepeat * 4, partial + done * 4, 0, perRepeat);
        v.repeats = static_cast<std::uint16_t>((count + perRepeat - 1) / perRepeat);
        if (count % perRepeat != 0 && v.repeats == 1) v.mask = static_cast<std::uint16_t>(count);
        b.vector(v);
        done += count;
    }
}

}  // namespace ascendsim
