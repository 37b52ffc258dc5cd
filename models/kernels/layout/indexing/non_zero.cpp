// NonZero (aclnnNonzero, docs/op-catalog.md): y [n, rank] int64, the coordinates of x's non-zero
// elements in row-major order. The output offset of a block's indices depends on how many
// non-zeros every earlier block has, so CANN's kernel runs in two passes around an all-core
// barrier (the sample's rows are MIX_AIV launches, like RmsNormGrad's SyncAll):
//   1. each block loads its share of x, converts it to fp16, compares with 0 and sums the mask
//      (the count), and writes the count to its workspace slot;
//   2. after the barrier (cross-core flag mode 0) it reads every block's count, the scalar unit
//      adds up those of the blocks before it (its output offset), and it builds its elements'
//      flat positions (lane numbers plus its first element), keeps those of the non-zeros
//      (GatherMask), splits them into coordinates (a multiply and subtract per dim), widens them
//      to int64 word pairs and stores them at its offset.
// The timing model has no data: every element is taken as non-zero (the upper bound of the work),
// its coordinates stored at its own slot, as far as y's recorded bytes reach. A share larger than
// UB is reloaded for the second pass.
#include <algorithm>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

constexpr std::uint8_t kCountsWritten = 7;  // cross-core flag of the all-AIV barrier
constexpr DataType kMask = DataType::Fp16;

struct NonZeroLayout {
    std::uint64_t elements = 0, rank = 1, chunk = 0, xBytes = 1;
    DataType xType = DataType::Fp16;
    std::uint32_t blockDim = 1;
    std::uint64_t xGm = 0, yGm = 0, yBytes = 0;
    std::uint64_t xUb = 0, maskUb = 0, lanesUb = 0, wordsUb = 0, scratchUb = 0, countsUb = 0;
};

void emitMask(std::vector<Instruction>& code, const NonZeroLayout& l, std::uint64_t count) {
    if (l.xType != kMask) emitVectorRange(code, VectorOp::Cast, kMask, {.dst = l.maskUb, .src0 = l.xUb}, count, 0.0f, l.xType);
    // |x| > 0: the non-zero mask as 1/0 (the compare against a zero block).
    emitVectorRange(code, VectorOp::CompareGt, kMask, {.dst = l.maskUb, .src0 = l.maskUb, .src1 = l.scratchUb, .src1IsBlock = true},
                    count);
}

std::unique_ptr<InstructionStream> nonZeroBlock(const NonZeroLayout& l, std::uint32_t block, std::uint64_t workspace) {
    std::vector<Instruction> code;
    ProgramBuilder b(code);
    const UnitRange share = blockShare(l.elements, l.blockDim, block);
    const std::uint64_t chunks = ceilDiv(share.size(), l.chunk);
    auto load = [&](std::uint64_t c) {
        const std::uint64_t first = share.begin + c * l.chunk, count = std::min(l.chunk, share.end - first);
        b.scalar(kScalarCyclesPerTile);
        b.copy(MemSpace::GM, l.xGm + first * l.xBytes, MemSpace::UB, l.xUb, static_cast<std::uint32_t>(count * l.xBytes));
        b.handoff(Pipe::Mte2, Pipe::Vector, 0);
        return count;
    };
    // Pass 1: the count.
    emitVectorRange(code, VectorOp::Duplicate, DataType::Fp32, {.dst = l.countsUb}, elementsPerBlock(DataType::Fp32), 0.0f);
    for (std::uint64_t c = 0; c < chunks; ++c) {
        const std::uint64_t count = load(c);
        emitMask(code, l, count);
        emitReduceAll(code, VectorOp::ReduceSum, kMask, l.maskUb, count, l.scratchUb, l.lanesUb);
        emitVectorRange(code, VectorOp::Add, DataType::Fp32, {.dst = l.countsUb, .src0 = l.countsUb, .src1 = l.lanesUb}, 1);
        b.handoff(Pipe::Vector, Pipe::Mte2, 0);
    }
    b.handoff(Pipe::Vector, Pipe::Mte3, 1);
    b.copy(MemSpace::UB, l.countsUb, MemSpace::GM, workspace + block * kUbBlockBytes, kUbBlockBytes);
    b.crossCoreSet(kCountsWritten, 0, Pipe::Mte3);
    b.crossCoreWait(kCountsWritten, 0);
    // Pass 2: the offset from the earlier blocks' counts, then the coordinates.
    b.copy(MemSpace::GM, workspace, MemSpace::UB, l.countsUb, static_cast<std::uint32_t>(l.blockDim * kUbBlockBytes));
    b.handoff(Pipe::Mte2, Pipe::Scalar, 1);
    b.out().push_back(Instruction::scalar(ScalarWork{.cycles = block + 1, .loads = static_cast<std::uint16_t>(block + 1),
                                                     .memory = MemSpace::UB,
                                                     .bytesRead = static_cast<std::uint32_t>((block + 1) * 4)}));
    for (std::uint64_t c = 0; c < chunks; ++c) {
        // One chunk: x and its mask are still in UB from pass 1.
        const std::uint64_t count = chunks > 1 ? load(c) : share.size();
        if (chunks > 1) emitMask(code, l, count);
        const VectorRange lanes{.dst = l.lanesUb, .src0 = l.lanesUb};
        emitVectorRange(code, VectorOp::Adds, DataType::Int32, lanes, count, 1.0f);   // positions = lanes + first
        emitVectorRange(code, VectorOp::Gather, DataType::Int32, {.dst = l.lanesUb, .src0 = l.lanesUb, .src1 = l.maskUb},
                        count);                                                         // GatherMask by the mask
        for (std::uint64_t d = 1; d < l.rank; ++d) {                                   // coordinates, dim by dim
            emitVectorRange(code, VectorOp::Muls, DataType::Int32, {.dst = l.wordsUb, .src0 = l.lanesUb}, count, 1.0f);
            emitVectorRange(code, VectorOp::Sub, DataType::Int32, {.dst = l.lanesUb, .src0 = l.lanesUb, .src1 = l.wordsUb}, count);
        }
        // int64 word pairs: the sign word by a compare, the pairs by one gather per coordinate.
        emitVectorRange(code, VectorOp::CompareGt, DataType::Int32, {.dst = l.wordsUb, .src0 = l.lanesUb, .src1 = l.scratchUb,
                                                                     .src1IsBlock = true}, count);
        emitVectorRange(code, VectorOp::Gather, DataType::Int32, {.dst = l.wordsUb, .src0 = l.lanesUb, .src1 = l.wordsUb},
                        2 * count * l.rank);
        b.handoff(Pipe::Vector, Pipe::Mte3, 1);
        // Stored at the element's own slot (every element non-zero), within y's bytes.
        const std::uint64_t at = (share.begin + c * l.chunk) * l.rank * 8;
        const std::uint64_t bytes = at < l.yBytes ? std::min(count * l.rank * 8, l.yBytes - at) : 0;
        if (bytes > 0) b.copy(MemSpace::UB, l.wordsUb, MemSpace::GM, l.yGm + at, static_cast<std::uint32_t>(bytes));
        b.handoff(Pipe::Mte3, Pipe::Vector, 1);
    }
    return std::make_unique<FixedInstructionStream>(std::move(code));
}

std::vector<LoweredKernel> lowerNonZero(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (op.outputs[0].dtype != DataType::Int64) throwLoweringError(op, "y must be int64");
    if (x.elementCount() <= 0) throwLoweringError(op, "x must not be empty");
    auto l = std::make_shared<NonZeroLayout>();
    l->elements = static_cast<std::uint64_t>(x.elementCount());
    l->rank = std::max<std::uint64_t>(1, x.shape.size());
    l->xType = x.dtype == DataType::Bool || x.dtype == DataType::Int8 ? DataType::Uint8 : vectorComputeType(op, x.dtype);
    l->xBytes = bytesOf(x.dtype);
    l->xGm = x.deviceAddr;
    l->yGm = op.outputs[0].deviceAddr;
    l->yBytes = op.outputs[0].bytes();
    const VectorPlacement placement = vectorPlacement(chip);
    l->blockDim = chooseVectorBlockDim(op, placement, l->elements * l->xBytes, l->elements);
    if (l->blockDim > placement.coreCount)
        throwLoweringError(op, "block_dim " + std::to_string(l->blockDim) + " exceeds the " + std::to_string(placement.coreCount) +
                                   " vector cores that must be co-resident for the count barrier");
    // Per element: x, the fp16 mask, int32 positions, int64 coordinate words.
    const std::uint64_t perElement = l->xBytes + 2 + 4 + 8 * l->rank;
    const std::uint64_t fixed = std::uint64_t{l->blockDim} * kUbBlockBytes + 4 * kVectorRepeatBytes;
    const std::uint64_t share = ceilDiv(l->elements, l->blockDim);
    l->chunk = std::min(share, std::max<std::uint64_t>(kVectorRepeatBytes, (placement.ubBytes - fixed) / perElement / 256 * 256));
    UbAllocator ub(placement.ubBytes, op.name);
    l->xUb = ub.allocate(l->chunk * l->xBytes, "x");
    l->maskUb = ub.allocate(l->chunk * 2, "non-zero mask");
    l->lanesUb = ub.allocate(l->chunk * 4, "positions");
    l->wordsUb = ub.allocate(l->chunk * 8 * l->rank, "int64 coordinates");
    l->scratchUb = ub.allocate(std::max(reduceRowsScratchBytes(kMask, 1, l->chunk), kUbBlockBytes), "reduction partials");
    l->countsUb = ub.allocate(std::uint64_t{l->blockDim} * kUbBlockBytes, "block counts");
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = l->blockDim;
    kernel.workspaceBytes = std::uint64_t{l->blockDim} * kUbBlockBytes;
    std::shared_ptr<const NonZeroLayout> layout = l;
    kernel.program = [layout](const BlockProgramRequest& r) { return nonZeroBlock(*layout, r.blockIdx, r.workspaceAddr); };
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("NonZero", lowerNonZero);

}  // namespace ascendsim
