// A reduction of a whole tensor to one value on the 220x's MIX_AIV kernels (reduce_all.h):
// LpNormV2, the 2-norm, as the gradient clipping of the Qwen3 sample computes it per parameter
// shard (x [N] fp32 → y [1]), and the sum or mean of every element (ReduceSum / ReduceMean to one
// element, docs/fidelity.md §61). As CANN's MIX_AIV kernels: blocks take contiguous chunks, add
// them (squared for the norm) into a UB accumulator (double-buffered loads), reduce it to one
// partial, write the partial (one 32 B block) to the workspace and meet at an all-AIV barrier
// (cross-core flag mode 0); block 0 then sums the partials and writes the result (sqrt(Σ) for the
// norm, Σ · 1/N for a mean).
#include "models/kernels/reduction/reduce_all.h"

#include <algorithm>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/chained_stream.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint8_t kPartialsWritten = 6;  // cross-core flag of the all-AIV barrier

struct NormLayout {
    WholeReduction what;
    DataType dtype = kF32, outDtype = kF32;
    std::uint64_t elements = 0, chunk = 0, gm = 0, out = 0;
    std::uint32_t blockDim = 1;
    std::uint64_t stage = 0, stageHalf = 0, f32 = 0, accumulator = 0, scratch = 0, partials = 0, total = 0;
};

class NormTiles final : public TileSource {
public:
    NormTiles(std::shared_ptr<const NormLayout> l, UnitRange chunks, std::uint64_t partial)
        : l_(std::move(l)), chunks_(chunks), partial_(partial) {}
    std::uint64_t tileCount() const override { return chunks_.size(); }
    void setup(TileCode& code) override {
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l_->accumulator}, l_->chunk, 0.0f);
    }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const NormLayout& l = *l_;
        const std::uint64_t first = (chunks_.begin + index) * l.chunk, n = std::min(l.chunk, l.elements - first);
        const std::uint64_t eb = bytesOf(l.dtype), stage = l.stage + half * l.stageHalf;
        code.load.push_back(moveRowsToUb(l.gm + first * eb, stage, 1, n * eb, n * eb));
        std::uint64_t src = stage;
        if (l.dtype != kF32) {
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.f32, .src0 = stage}, n, 0.0f, l.dtype);
            src = l.f32;
        }
        if (l.what.squares)  // acc += x·x (the multiply-add form of the vector unit)
            emitVectorRange(code.compute, VectorOp::MulAdd, kF32, {.dst = l.accumulator, .src0 = src, .src1 = src}, n);
        else
            emitVectorRange(code.compute, VectorOp::Add, kF32, {.dst = l.accumulator, .src0 = l.accumulator, .src1 = src}, n);
    }
    void finish(TileCode& code) override {
        const NormLayout& l = *l_;
        emitReduceAll(code.compute, VectorOp::ReduceSum, kF32, l.accumulator, l.chunk, l.scratch, l.total);
        code.store.push_back(moveRowsToGm(l.total, partial_, 1, kUbBlockBytes, kUbBlockBytes));
    }

private:
    std::shared_ptr<const NormLayout> l_;
    UnitRange chunks_;
    std::uint64_t partial_;
};

// After the barrier: block 0 sums the blockDim partials (one per 32 B block) and writes the result.
std::unique_ptr<InstructionStream> normTail(const NormLayout& l, std::uint32_t block, std::uint64_t workspace) {
    std::vector<Instruction> code;
    ProgramBuilder b(code);
    b.crossCoreSet(kPartialsWritten, 0, Pipe::Mte3);
    b.crossCoreWait(kPartialsWritten, 0);
    if (block == 0) {
        b.copy(MemSpace::GM, workspace, MemSpace::UB, l.partials, static_cast<std::uint32_t>(l.blockDim * kUbBlockBytes));
        b.handoff(Pipe::Mte2, Pipe::Vector, 2);
        b.handoff(Pipe::Mte3, Pipe::Vector, 2);  // the partial's store has read `total`
        emitReduceRows(code, VectorOp::ReduceSum, kF32, l.partials, l.blockDim, 1, kUbBlockBytes, l.scratch, l.total);
        emitReduceAll(code, VectorOp::ReduceSum, kF32, l.total, l.blockDim, l.scratch, l.total);
        if (l.what.squareRoot) emitVectorRange(code, VectorOp::Sqrt, kF32, {.dst = l.total, .src0 = l.total}, 1);
        if (l.what.scale != 1.0f) emitVectorRange(code, VectorOp::Muls, kF32, {.dst = l.total, .src0 = l.total}, 1, l.what.scale);
        std::uint64_t result = l.total;
        if (l.outDtype != kF32) {  // a 16-bit y: the fp32 total cast once (the scratch is free again)
            result = l.scratch;
            emitVectorRange(code, VectorOp::Cast, l.outDtype, {.dst = result, .src0 = l.total}, 1, 0.0f, kF32);
        }
        b.handoff(Pipe::Vector, Pipe::Mte3, 2);
        b.copy(MemSpace::UB, result, MemSpace::GM, l.out, static_cast<std::uint32_t>(bytesOf(l.outDtype)));
    }
    return std::make_unique<FixedInstructionStream>(std::move(code));
}

}  // namespace

LoweredKernel lowerWholeReduction(const OpInstance& op, const ChipConfig& chip, const WholeReduction& what) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype) || x.elementCount() <= 0) throwLoweringError(op, "x must be a non-empty float tensor");
    if (op.outputs[0].elementCount() != 1) throwLoweringError(op, "y must hold one element");
    const VectorPlacement placement = vectorPlacement(chip);
    auto l = std::make_shared<NormLayout>();
    l->what = what;
    l->outDtype = op.outputs[0].dtype;
    if (!isFloat(l->outDtype)) throwLoweringError(op, "y must be a float tensor");
    l->dtype = x.dtype;
    l->elements = static_cast<std::uint64_t>(x.elementCount());
    l->gm = x.deviceAddr;
    l->out = op.outputs[0].deviceAddr;
    // Per element of a chunk: two staging halves, an fp32 copy (non-fp32 inputs), the accumulator.
    const std::uint64_t perElement = 2 * bytesOf(x.dtype) + (x.dtype == kF32 ? 0 : 4) + 4;
    const std::uint64_t reserve = 16 * 1024;  // partials, reduction scratch, total
    l->chunk = std::min<std::uint64_t>(alignUp(l->elements, elementsPerRepeat(kF32)),
                                       (placement.ubBytes - reserve) / perElement / elementsPerRepeat(kF32) * elementsPerRepeat(kF32));
    const std::uint64_t chunks = ceilDiv(l->elements, l->chunk);
    l->blockDim = chooseVectorBlockDim(op, placement, x.bytes(), chunks);
    if (l->blockDim > placement.coreCount)
        throwLoweringError(op, "block_dim " + std::to_string(l->blockDim) + " exceeds the " + std::to_string(placement.coreCount) +
                                   " vector cores that must be co-resident for the final barrier");
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageHalf = alignUp(l->chunk * bytesOf(x.dtype), kUbBlockBytes);
    l->stage = ub.allocate(2 * l->stageHalf, "x chunks");
    if (x.dtype != kF32) l->f32 = ub.allocate(l->chunk * 4, "fp32 chunk");
    l->accumulator = ub.allocate(l->chunk * 4, "accumulated sum");
    l->scratch = ub.allocate(std::max(reduceRowsScratchBytes(kF32, 1, l->chunk), reduceRowsScratchBytes(kF32, l->blockDim, 1)),
                             "reduction partials");
    l->partials = ub.allocate(std::uint64_t{l->blockDim} * kUbBlockBytes, "block partials");
    l->total = ub.allocate(std::max<std::uint64_t>(std::uint64_t{l->blockDim} * 4, kUbBlockBytes), "total");
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = l->blockDim;
    kernel.workspaceBytes = std::uint64_t{l->blockDim} * kUbBlockBytes;
    std::shared_ptr<const NormLayout> layout = l;
    kernel.program = [layout, chunks](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        auto main = std::make_unique<DoubleBufferedStream>(std::make_unique<NormTiles>(
            layout, blockShare(chunks, layout->blockDim, r.blockIdx), r.workspaceAddr + r.blockIdx * kUbBlockBytes));
        return std::make_unique<ChainedStream>(std::move(main), normTail(*layout, r.blockIdx, r.workspaceAddr));
    };
    return kernel;
}

namespace {

std::vector<LoweredKernel> lowerLpNorm(const OpInstance& op, const ChipConfig& chip) {
    if (op.floatAttr("p", 2.0) != 2.0) throwLoweringError(op, "only p = 2 is modelled");
    return {lowerWholeReduction(op, chip, {.squares = true, .squareRoot = true})};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("LpNormV2", lowerLpNorm);

}  // namespace ascendsim
