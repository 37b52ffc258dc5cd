#include "models/kernels/vector_tiling.h"

#include <algorithm>

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

std::uint64_t alignUp(std::uint64_t value, std::uint64_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}
std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }
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
        v.src0 = r.src0IsBlock ? r.src0 : r.src0 + done * src0Bytes;
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
}  // namespace

void emitReduceAll(std::vector<Instruction>& out, VectorOp op, DataType dtype, std::uint64_t src,
                   std::uint64_t count, std::uint64_t scratch, std::uint64_t dst) {
    const std::uint64_t perRepeat = elementsPerRepeat(dtype);
    const std::uint64_t bytes = bytesOf(dtype);
    std::uint64_t current = src;
    while (count > perRepeat) {
        // One partial per repeat, written contiguously into scratch (in place is safe: repeat r
        // writes element r after reading elements [r·perRepeat, (r+1)·perRepeat)).
        std::uint64_t done = 0, partials = 0;
        while (done < count) {
            const std::uint64_t left = count - done;
            VectorInstr v{.op = op, .dtype = dtype, .srcType = dtype};
            v.src0 = current + done * bytes;
            v.dst = scratch + partials * bytes;
            v.repeats = static_cast<std::uint16_t>(
                left >= perRepeat ? std::min(left / perRepeat, maxReduceRepeats(dtype)) : 1);
            v.mask = static_cast<std::uint16_t>(std::min(left, perRepeat));
            out.push_back(Instruction::vector(v));
            done += std::uint64_t{v.repeats} * v.mask;
            partials += v.repeats;
        }
        current = scratch;
        count = partials;
    }
    VectorInstr v{.op = op, .dtype = dtype, .srcType = dtype};
    v.src0 = current;
    v.dst = dst;
    v.repeats = 1;
    v.mask = static_cast<std::uint16_t>(count);
    out.push_back(Instruction::vector(v));
}

void emitReduceRows(std::vector<Instruction>& out, VectorOp op, DataType dtype, std::uint64_t src,
                    std::uint32_t rows, std::uint64_t length, std::uint64_t rowStrideBytes,
                    std::uint64_t scratch, std::uint64_t dst) {
    const std::uint64_t bytes = bytesOf(dtype);
    if (length > elementsPerRepeat(dtype)) {
        for (std::uint32_t row = 0; row < rows; ++row)
            emitReduceAll(out, op, dtype, src + row * rowStrideBytes, length, scratch, dst + row * bytes);
        return;
    }
    // One repeat per row: the repeat stride walks the rows.
    const std::uint64_t chunk = maxReduceRepeats(dtype);
    for (std::uint64_t first = 0; first < rows; first += chunk) {
        VectorInstr v{.op = op, .dtype = dtype, .srcType = dtype};
        v.src0 = src + first * rowStrideBytes;
        v.dst = dst + first * bytes;
        v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(chunk, rows - first));
        v.mask = static_cast<std::uint16_t>(length);
        v.src0RepeatStride = static_cast<std::uint16_t>(rowStrideBytes / kUbBlockBytes);
        out.push_back(Instruction::vector(v));
    }
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

Instruction moveRowsToGm(std::uint64_t ubAddr, std::uint64_t gmAddr, std::uint32_t rows,
                         std::uint64_t rowBytes, std::uint64_t ubRowStrideBytes) {
    DataMove m{.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = ubAddr, .dstAddr = gmAddr};
    const bool dense = ubRowStrideBytes == rowBytes;
    m.burstCount = dense ? 1 : rows;
    m.burstBytes = static_cast<std::uint32_t>(dense ? rowBytes * rows : rowBytes);
    m.srcGapBytes = static_cast<std::uint32_t>(dense ? 0 : ubRowStrideBytes - rowBytes);
    return Instruction::move(m);
}

void throwLoweringError(const OpInstance& op, const std::string& reason) {
    throw LoweringError("op '" + op.name + "' (" + op.type + "): " + reason);
}

}  // namespace ascendsim
