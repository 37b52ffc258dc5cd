#include "models/kernels/tiling/vector_tiling.h"

#include <algorithm>
#include <limits>

namespace ascendsim {

VectorPlacement vectorPlacement(const ChipConfig& chip) {
    VectorPlacement placement;
    placement.ubBytes = chip.bufferCapacity(MemSpace::UB);
    if (chip.organisation == CoreOrganisation::Split) {
        placement.taskType = TaskType::AiVectorCore;
        placement.coreKind = CoreKind::Vector;
        placement.coreCount = std::max<std::uint32_t>(chip.vectorCoreCount, 1);
    } else {
        placement.taskType = TaskType::AiCore;
        placement.coreKind = CoreKind::Coupled;
        placement.coreCount = std::max<std::uint32_t>(chip.aiCoreCount, 1);
    }
    return placement;
}

std::uint32_t chooseVectorBlockDim(const OpInstance& op, const VectorPlacement& placement,
                                   std::uint64_t workBytes, std::uint64_t maxUsefulBlocks) {
    if (op.blockDim) {
        if (*op.blockDim == 0 || *op.blockDim > kMaxBlockDim)
            throwLoweringError(op, "block_dim " + std::to_string(*op.blockDim) + " is outside 1.." +
                                       std::to_string(kMaxBlockDim));
        return *op.blockDim;
    }
    std::uint64_t blocks = std::max<std::uint64_t>(1, ceilDiv(workBytes, kMinBytesPerBlock));
    blocks = std::min<std::uint64_t>(blocks, std::max<std::uint64_t>(maxUsefulBlocks, 1));
    blocks = std::min<std::uint64_t>(blocks, placement.coreCount);
    return static_cast<std::uint32_t>(blocks);
}

UnitRange blockShare(std::uint64_t units, std::uint32_t blockDim, std::uint32_t blockIdx) {
    const std::uint64_t base = units / blockDim;
    const std::uint64_t extra = units % blockDim;
    const std::uint64_t begin = blockIdx * base + std::min<std::uint64_t>(blockIdx, extra);
    return {begin, begin + base + (blockIdx < extra ? 1 : 0)};
}

UnitRange blockFactorShare(std::uint64_t units, std::uint64_t factor, std::uint32_t blockIdx) {
    const std::uint64_t begin = std::min(units, blockIdx * factor);
    return {begin, std::min(units, begin + factor)};
}

std::uint64_t alignUp(std::uint64_t value, std::uint64_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}
std::uint32_t elementsPerBlock(DataType dtype) {
    return static_cast<std::uint32_t>(kUbBlockBytes / bytesOf(dtype));
}
std::uint32_t elementsPerRepeat(DataType dtype) {
    return static_cast<std::uint32_t>(kVectorRepeatBytes / bytesOf(dtype));
}

std::uint64_t UbAllocator::allocate(std::uint64_t bytes, const char* purpose) {
    const std::uint64_t addr = next_;
    const std::uint64_t end = addr + alignUp(std::max<std::uint64_t>(bytes, 1), kUbBlockBytes);
    if (end > capacity_)
        throw LoweringError("op '" + opName_ + "': UB of " + std::to_string(capacity_) +
                            " bytes cannot hold " + purpose + " (" + std::to_string(bytes) +
                            " bytes at offset " + std::to_string(addr) + ")");
    next_ = end;
    return addr;
}

void emitVectorRange(std::vector<Instruction>& out, VectorOp op, DataType dtype, const VectorRange& r,
                     std::uint64_t count, float scalar, DataType srcType) {
    const bool isCast = op == VectorOp::Cast;
    const std::uint64_t dstBytes = bytesOf(dtype);
    const std::uint64_t src0Bytes = isCast ? bytesOf(srcType) : dstBytes;
    const std::uint64_t src1Bytes = op == VectorOp::Gather ? 4 : dstBytes;
    const std::uint64_t perRepeat = kVectorRepeatBytes / (isCast ? std::max(dstBytes, src0Bytes) : dstBytes);
    auto strideBlocks = [&](std::uint64_t elementBytes) {
        return static_cast<std::uint16_t>(perRepeat * elementBytes / kUbBlockBytes);
    };
    VectorInstr v;
    v.op = op;
    v.dtype = dtype;
    v.srcType = isCast ? srcType : dtype;
    v.scalar = scalar;
    v.scalarUbAddr = r.scalarUbAddr;
    v.dstRepeatStride = strideBlocks(dstBytes);
    v.src0RepeatStride = r.src0IsBlock ? 0 : strideBlocks(src0Bytes);
    v.src1RepeatStride = r.src1IsBlock ? 0 : strideBlocks(src1Bytes);
    v.src0BlockStride = r.src0IsBlock ? 0 : 1;
    v.src1BlockStride = r.src1IsBlock ? 0 : 1;

    std::uint64_t done = 0;
    while (done < count) {
        const std::uint64_t left = count - done;
        const std::uint64_t repeats = left >= perRepeat ? std::min<std::uint64_t>(left / perRepeat, kMaxVectorRepeats) : 1;
        const std::uint64_t mask = left >= perRepeat ? perRepeat : left;
        v.repeats = static_cast<std::uint16_t>(repeats);
        v.mask = static_cast<std::uint16_t>(mask);
        v.dst = r.dst + done * dstBytes;
        // Gather offsets are relative to a fixed src0 base.
        v.src0 = r.src0IsBlock || op == VectorOp::Gather ? r.src0 : r.src0 + done * src0Bytes;
        v.src1 = r.src1IsBlock ? r.src1 : r.src1 + done * src1Bytes;
        out.push_back(Instruction::vector(v));
        done += repeats * mask;
    }
}

namespace {
// Repeats per reduction instruction: ≤255 and a whole number of blocks of results, so the next
// instruction's results start 32 B aligned.
std::uint64_t maxReduceRepeats(DataType dtype) {
    const std::uint64_t perBlock = elementsPerBlock(dtype);
    return kMaxVectorRepeats / perBlock * perBlock;
}

// The neutral element of a reduction, written into the gaps between partials.
float reductionIdentity(VectorOp op) {
    if (op == VectorOp::ReduceMax) return -std::numeric_limits<float>::infinity();
    if (op == VectorOp::ReduceMin) return std::numeric_limits<float>::infinity();
    return 0.0f;
}

// Partials one level of reduction leaves per row: the full repeats' results, then the tail's
// at the next block boundary (32 B aligned destinations), the gap filled with the identity.
std::uint64_t partialsPerRow(DataType dtype, std::uint64_t length) {
    const std::uint64_t perRepeat = elementsPerRepeat(dtype);
    const std::uint64_t full = length / perRepeat;
    return alignUp(full, elementsPerBlock(dtype)) + (length % perRepeat ? 1 : 0);
}

// Block-reduction levels (vcgadd / vcgmax) that take a dense fp32 row of `length` elements to at
// most one repeat: each level collapses every 32 B block to one element, and the row must stay
// whole repeats so the next level's (and the final vcadd's) rows start on a block. 0 when the
// row cannot get there that way (then rows are reduced one by one).
std::uint32_t blockReduceLevels(VectorOp op, DataType dtype, std::uint64_t length) {
    if (dtype != DataType::Fp32 || (op != VectorOp::ReduceSum && op != VectorOp::ReduceMax)) return 0;
    const std::uint64_t perRepeat = elementsPerRepeat(dtype);
    std::uint32_t levels = 0;
    for (; length > perRepeat; ++levels) {
        if (length % perRepeat != 0) return 0;
        length /= kVectorBlocksPerRepeat;
    }
    return levels;
}

// Dense rows (stride = length) reduced by vcgadd/vcgmax over all rows at once: vcgadd/vcgmax run
// at the unary rate on fp32 (hardware.md §2.6 [S MSKPP]) against 7 cycles per repeat for vcadd,
// and one instruction covers 255 repeats of any rows instead of one instruction per row. The
// first level writes `scratch`, later levels work in place (repeat r writes elements [8r, 8r+8),
// which repeats ≤ r have already read). Returns the rows' remaining length (≤ one repeat).
std::uint64_t emitBlockReduceLevels(std::vector<Instruction>& out, VectorOp op, DataType dtype, std::uint64_t src,
                                    std::uint32_t rows, std::uint64_t length, std::uint64_t scratch) {
    const VectorOp blockOp = op == VectorOp::ReduceMax ? VectorOp::BlockReduceMax : VectorOp::BlockReduceSum;
    const std::uint64_t perRepeat = elementsPerRepeat(dtype), bytes = bytesOf(dtype);
    for (std::uint32_t level = blockReduceLevels(op, dtype, length); level > 0; --level) {
        const std::uint64_t repeats = rows * length / perRepeat;
        for (std::uint64_t done = 0; done < repeats;) {
            VectorInstr v{.op = blockOp, .dtype = dtype, .srcType = dtype};
            v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, repeats - done));
            v.mask = static_cast<std::uint16_t>(perRepeat);
            v.src0 = src + done * perRepeat * bytes;
            v.dst = scratch + done * kVectorBlocksPerRepeat * bytes;
            out.push_back(Instruction::vector(v));
            done += v.repeats;
        }
        src = scratch;
        length /= kVectorBlocksPerRepeat;
    }
    return length;
}
}  // namespace

void emitReduceRows(std::vector<Instruction>& out, VectorOp op, DataType dtype, std::uint64_t src,
                    std::uint32_t rows, std::uint64_t length, std::uint64_t rowStrideBytes,
                    std::uint64_t scratch, std::uint64_t dst) {
    const std::uint64_t bytes = bytesOf(dtype);
    const std::uint64_t perRepeat = elementsPerRepeat(dtype);
    const std::uint64_t halfScratch = reduceRowsScratchBytes(dtype, rows, length) / 2;
    std::uint64_t current = src, currentLength = length, currentStride = rowStrideBytes;
    if (rowStrideBytes == length * bytes && blockReduceLevels(op, dtype, length) > 0) {
        currentLength = emitBlockReduceLevels(out, op, dtype, src, rows, length, scratch);
        current = scratch;
        currentStride = currentLength * bytes;
    }
    // Rows longer than a repeat: reduce each row to one partial per repeat, into scratch rows
    // padded to whole blocks, until a row fits one repeat. Levels alternate between the two
    // halves of scratch so a level never overwrites its own source.
    for (std::uint32_t level = 0; currentLength > perRepeat; ++level) {
        const std::uint64_t partials = partialsPerRow(dtype, currentLength);
        const std::uint64_t partialStride = alignUp(partials, elementsPerBlock(dtype)) * bytes;
        const std::uint64_t target = scratch + (level % 2) * halfScratch;
        emitVectorRange(out, VectorOp::Duplicate, dtype, {.dst = target}, rows * partialStride / bytes,
                        reductionIdentity(op));
        const std::uint64_t full = currentLength / perRepeat;
        for (std::uint32_t row = 0; row < rows; ++row) {
            const std::uint64_t rowSrc = current + row * currentStride, rowDst = target + row * partialStride;
            for (std::uint64_t done = 0; done < full;) {
                VectorInstr v{.op = op, .dtype = dtype, .srcType = dtype};
                v.repeats = static_cast<std::uint16_t>(std::min(full - done, maxReduceRepeats(dtype)));
                v.mask = static_cast<std::uint16_t>(perRepeat);
                v.src0 = rowSrc + done * perRepeat * bytes;
                v.dst = rowDst + done * bytes;
                out.push_back(Instruction::vector(v));
                done += v.repeats;
            }
            if (currentLength % perRepeat) {
                VectorInstr v{.op = op, .dtype = dtype, .srcType = dtype};
                v.mask = static_cast<std::uint16_t>(currentLength % perRepeat);
                v.src0 = rowSrc + full * perRepeat * bytes;
                v.dst = rowDst + alignUp(full, elementsPerBlock(dtype)) * bytes;
                out.push_back(Instruction::vector(v));
            }
        }
        current = target;
        currentLength = partials;
        currentStride = partialStride;
    }
    // One repeat per row: the repeat stride walks the rows; results land contiguously.
    const std::uint64_t chunk = maxReduceRepeats(dtype);
    for (std::uint64_t first = 0; first < rows; first += chunk) {
        VectorInstr v{.op = op, .dtype = dtype, .srcType = dtype};
        v.src0 = current + first * currentStride;
        v.dst = dst + first * bytes;
        v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(chunk, rows - first));
        v.mask = static_cast<std::uint16_t>(currentLength);
        v.src0RepeatStride = static_cast<std::uint16_t>(currentStride / kUbBlockBytes);
        out.push_back(Instruction::vector(v));
    }
}

void emitReduceAll(std::vector<Instruction>& out, VectorOp op, DataType dtype, std::uint64_t src,
                   std::uint64_t count, std::uint64_t scratch, std::uint64_t dst) {
    emitReduceRows(out, op, dtype, src, 1, count, alignUp(count * bytesOf(dtype), kUbBlockBytes), scratch, dst);
}

std::uint64_t reduceRowsScratchBytes(DataType dtype, std::uint32_t rows, std::uint64_t length) {
    if (length <= elementsPerRepeat(dtype)) return kUbBlockBytes;
    if (blockReduceLevels(VectorOp::ReduceSum, dtype, length) > 0)  // dense rows: the first block level's output
        return std::uint64_t{rows} * length / kVectorBlocksPerRepeat * bytesOf(dtype);
    const std::uint64_t partials = partialsPerRow(dtype, length);
    return 2 * rows * alignUp(partials, elementsPerBlock(dtype)) * bytesOf(dtype);
}

std::uint64_t blockOffsetTableBytes(DataType dtype, std::uint64_t values) {
    return values * elementsPerBlock(dtype) * 4;
}

void emitBlockOffsetTable(std::vector<Instruction>& out, DataType dtype, std::uint64_t table,
                          std::uint64_t entries) {
    const std::uint64_t perBlock = elementsPerBlock(dtype);
    const std::uint64_t valueBytes = bytesOf(dtype);
    VectorInstr zero{.op = VectorOp::Duplicate, .dtype = DataType::Int32, .srcType = DataType::Int32,
                     .dst = table};
    zero.mask = static_cast<std::uint16_t>(perBlock);
    zero.scalar = 0.0f;
    out.push_back(Instruction::vector(zero));
    // T[s + i] = T[i] + (s / E)·bytes: doubles the filled prefix each step. s is a multiple of E
    // and E int32 entries are ≥ 32 B, so every step starts aligned.
    for (std::uint64_t filled = perBlock; filled < entries; filled *= 2) {
        const std::uint64_t count = std::min(filled, entries - filled);
        emitVectorRange(out, VectorOp::Adds, DataType::Int32, {.dst = table + filled * 4, .src0 = table},
                        count, static_cast<float>(filled / perBlock * valueBytes));
    }
}

void emitExpandToBlocks(std::vector<Instruction>& out, DataType dtype, std::uint64_t dst, std::uint64_t src,
                        std::uint64_t count, std::uint64_t table) {
    emitVectorRange(out, VectorOp::Gather, dtype, {.dst = dst, .src0 = src, .src1 = table},
                    count * elementsPerBlock(dtype));
}

Instruction moveRowsToUb(std::uint64_t gmAddr, std::uint64_t ubAddr, std::uint32_t rows,
                         std::uint64_t rowBytes, std::uint64_t ubRowStrideBytes) {
    DataMove m{.src = MemSpace::GM, .dst = MemSpace::UB, .srcAddr = gmAddr, .dstAddr = ubAddr};
    const bool dense = ubRowStrideBytes == rowBytes;
    m.burstCount = dense ? 1 : rows;
    m.burstBytes = static_cast<std::uint32_t>(dense ? rowBytes * rows : rowBytes);
    m.dstGapBytes = static_cast<std::uint32_t>(dense ? 0 : ubRowStrideBytes - rowBytes);
    return Instruction::move(m);
}

Instruction moveStridedRowsToUb(std::uint64_t gmAddr, std::uint64_t ubAddr, std::uint32_t rows, std::uint64_t rowBytes,
                                std::uint64_t gmRowStrideBytes, std::uint64_t ubRowStrideBytes) {
    DataMove m{.src = MemSpace::GM, .dst = MemSpace::UB, .srcAddr = gmAddr, .dstAddr = ubAddr};
    m.burstCount = rows;
    m.burstBytes = static_cast<std::uint32_t>(rowBytes);
    m.srcGapBytes = static_cast<std::uint32_t>(gmRowStrideBytes - rowBytes);
    m.dstGapBytes = static_cast<std::uint32_t>(ubRowStrideBytes - rowBytes);
    return Instruction::move(m);
}

Instruction moveRowsToGm(std::uint64_t ubAddr, std::uint64_t gmAddr, std::uint32_t rows,
                         std::uint64_t rowBytes, std::uint64_t ubRowStrideBytes) {
    DataMove m{.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = ubAddr, .dstAddr = gmAddr};
    const bool dense = ubRowStrideBytes == rowBytes;
    m.burstCount = dense ? 1 : rows;
    m.burstBytes = static_cast<std::uint32_t>(dense ? rowBytes * rows : rowBytes);
    m.srcGapBytes = static_cast<std::uint32_t>(dense ? 0 : ubRowStrideBytes - rowBytes);
    return Instruction::move(m);
}


}  // namespace ascendsim
