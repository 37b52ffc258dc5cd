// One kernel for [R1, A, R2] reduced over R1 and R2 (the bias gradient of a convolution: [N, C, H·W]
// summed over N and H·W). The 220x's sums take another schedule (lowerRowPartials, docs/fidelity.md
// §146): every row of R2 reduced by vcadd to one partial a repeat, the partials to the scalar unit;
// what follows is the fold the 910A's ReduceSumD runs. Blocks split A; a block takes its channels in chunks of c channels, and
// for every n in R1 loads x[n, chunk, :] (one move of c rows of R2, contiguous in GM) and folds
// it into an fp32 accumulator of c rows with one elementwise op (vadd / vmax at 128 B/cycle,
// hardware.md §2.6); after the last n the c rows are reduced to c values (emitReduceRows) and
// written to y. The whole input is read once and the row reduction runs on 1/R1 of it.
// Evidence (910A, msinsight c1e639ee level1, ReduceSumD over axes 0 and 2, block dim 32):
// [32,256,169] MTE2 0.49 / vec 0.26, [32,384,169] 0.52 / 0.31, [32,64,3025] 0.54 / 0.30: the
// kernels are MTE2-bound with the vector pipe at ~50 B/cycle, what folds plus a small final
// reduction give; reducing all N·C rows by vcadd (36.5 B/cycle) first, as the two-pass lowering
// did, made them vector-bound (vec 0.69–0.78) and 1.3–1.7× too slow. One buffer, no overlap of
// a load with the previous fold: the real MTE2 + vec (+ scalar) ratios add up to 0.78–0.92 on the
// 910A and 0.84–0.93 on the 910B2 (AlexNet, e5a31957 level2: [32,256,169] 0.59 + 0.10 + 0.14),
// a serial schedule; overlapped, they would add up to well over 1 or leave one pipe near 1.
#include "models/kernels/reduction/reduce_outer_inner.h"
#include "models/kernels/reduction/reduce_tensors.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;

// The V → S hand-off of a tile's row partials (no other V → S flag in these programs).
constexpr std::uint8_t kRowPartialsEvent = 0;

// Scalar cycles a row partial costs after the hand-off on the 220x. Not read in a source: the
// rows show it. [D] AlexNet 910B2 text export (e5a31957 text/level2 rank0, 1800 MHz), the four
// bias-gradient ReduceSums (x [32,256,169] / [32,384,169] / [32,192,729] / [32,64,3025], 576 /
// 768 / 1536 / 3072 partials a block): real aiv_scalar 4834 / 5022 / 12089 / 23629 cycles a block,
// 7.6 a partial; least squares against the model's scalar without this cost (3795 / 4749 / 3258 /
// 3035): 6.1 (docs/fidelity.md §146a); the DB export held out.
constexpr std::uint32_t kScalarCyclesPerRowPartial = 6;

struct OuterInnerLayout {
    VectorOp fold = VectorOp::Add, reduce = VectorOp::ReduceSum;
    bool mean = false;
    std::uint64_t outer = 0, kept = 0, inner = 0;  // R1, A, R2
    std::uint64_t pitch = 0, channelsPerTile = 0;  // UB row pitch (elements), c
    DataType inType = kF32, outType = kF32;
    std::uint64_t x = 0, y = 0;
    std::uint64_t stage = 0, stageStride = 0, work = 0, accumulator = 0, values = 0, out = 0, scratch = 0;
    // The 220x's row partials (rowPartials): every staged row of R2 (pitch a whole number of
    // repeats) is reduced by one vcadd to one partial a repeat, into rows partialPitch apart.
    bool rowPartials = false;
    std::uint64_t partialsPerRow = 0, partialPitch = 0, partials = 0;
    std::uint64_t samplesPerTile = 1;  // a tile stages x[n, chunk, :] for this many n (1 when folding)
};

class OuterInnerTiles final : public TileSource {
public:
    OuterInnerTiles(std::shared_ptr<const OuterInnerLayout> layout, UnitRange channels)
        : l_(std::move(layout)), channels_(channels) {}
    std::uint64_t tileCount() const override {
        return ceilDiv(channels_.size(), l_->channelsPerTile) * ceilDiv(l_->outer, l_->samplesPerTile);
    }
    std::uint32_t buffers() const override { return 1; }

    // The row partials' stage is zeroed once: a row's padding up to its whole repeats is never
    // loaded and must add nothing.
    void setup(TileCode& code) override {
        const OuterInnerLayout& l = *l_;
        if (l.rowPartials) emitVectorRange(code.compute, VectorOp::Duplicate, l.inType, {.dst = l.stage}, l.stageStride / bytesOf(l.inType));
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const OuterInnerLayout& l = *l_;
        if (l.rowPartials) {
            rowPartialsTile(index, code);
            return;
        }
        const std::uint64_t n = index % l.outer;
        const std::uint64_t c0 = channels_.begin + index / l.outer * l.channelsPerTile;
        const auto rows = static_cast<std::uint32_t>(std::min(l.channelsPerTile, channels_.end - c0));
        const std::uint64_t inBytes = bytesOf(l.inType), elements = rows * l.pitch;
        const std::uint64_t staged = l.stage + half * l.stageStride;  // half is 0: one buffer
        code.load.push_back(moveRowsToUb(l.x + (n * l.kept + c0) * l.inner * inBytes, staged, rows, l.inner * inBytes,
                                         l.pitch * inBytes));
        std::uint64_t source = staged;
        if (l.inType != kF32) {
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.work, .src0 = staged}, elements, 0.0f, l.inType);
            source = l.work;
        }
        if (n == 0) emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = l.accumulator, .src0 = source}, elements);
        else emitVectorRange(code.compute, l.fold, kF32, {.dst = l.accumulator, .src0 = l.accumulator, .src1 = source}, elements);
        code.scalarCycles = rows;
        if (n + 1 < l.outer) return;
        emitReduceRows(code.compute, l.reduce, kF32, l.accumulator, rows, l.inner, l.pitch * 4, l.scratch, l.values);
        finishChunk(code, c0, rows);
    }

private:
    // The 220x (see lowerOuterInnerReduction): x[n, chunk, :] staged, each row reduced by one vcadd
    // to its partials (one a 256 B repeat), the partials handed to the scalar unit (V → S) and
    // added into the chunk's accumulated partials; after the last n, each row of partials to its
    // value.
    void rowPartialsTile(std::uint64_t index, TileCode& code) const {
        const OuterInnerLayout& l = *l_;
        const std::uint64_t groups = ceilDiv(l.outer, l.samplesPerTile);
        const std::uint64_t n0 = index % groups * l.samplesPerTile;
        const std::uint64_t samples = std::min(l.samplesPerTile, l.outer - n0);
        const std::uint64_t c0 = channels_.begin + index / groups * l.channelsPerTile;
        const auto rows = static_cast<std::uint32_t>(std::min(l.channelsPerTile, channels_.end - c0));
        const std::uint64_t inBytes = bytesOf(l.inType), sampleRows = rows * l.pitch;
        for (std::uint64_t s = 0; s < samples; ++s)
            code.load.push_back(moveRowsToUb(l.x + ((n0 + s) * l.kept + c0) * l.inner * inBytes,
                                             l.stage + s * sampleRows * inBytes, rows, l.inner * inBytes, l.pitch * inBytes));
        std::uint64_t source = l.stage;
        if (l.inType != kF32) {
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.work, .src0 = l.stage}, samples * sampleRows, 0.0f, l.inType);
            source = l.work;
        }
        const std::uint64_t rowPartialBytes = rows * l.partialPitch * 4;
        for (std::uint64_t s = 0; s < samples; ++s) {
            const bool first = n0 + s == 0;
            const std::uint64_t target = first ? l.accumulator : l.partials;
            for (std::uint32_t r = 0; r < rows; ++r) {
                VectorInstr v{.op = l.reduce, .dtype = kF32, .srcType = kF32};
                v.src0 = source + (s * sampleRows + r * l.pitch) * 4;
                v.dst = target + r * l.partialPitch * 4;
                v.repeats = static_cast<std::uint16_t>(l.partialsPerRow);
                v.mask = static_cast<std::uint16_t>(elementsPerRepeat(kF32));
                code.compute.push_back(Instruction::vector(v));
            }
            if (!first)
                emitVectorRange(code.compute, l.fold, kF32, {.dst = l.accumulator, .src0 = l.accumulator, .src1 = l.partials},
                                rowPartialBytes / 4);
        }
        code.compute.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Scalar, kRowPartialsEvent));
        code.compute.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Scalar, kRowPartialsEvent));
        code.compute.push_back(
            Instruction::scalar(static_cast<std::uint32_t>(samples * rows * l.partialsPerRow * kScalarCyclesPerRowPartial)));
        code.scalarCycles = static_cast<std::uint32_t>(samples * rows);
        if (n0 + samples < l.outer) return;
        emitReduceRows(code.compute, l.reduce, kF32, l.accumulator, rows, l.partialsPerRow, l.partialPitch * 4, l.scratch,
                       l.values);
        finishChunk(code, c0, rows);
    }

    // The chunk's `rows` values (at l.values): scaled for a mean, cast, stored to y.
    void finishChunk(TileCode& code, std::uint64_t c0, std::uint32_t rows) const {
        const OuterInnerLayout& l = *l_;
        if (l.mean)
            emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = l.values, .src0 = l.values}, rows,
                            1.0f / static_cast<float>(l.outer * l.inner));
        std::uint64_t result = l.values;
        if (l.outType != kF32) {
            emitVectorRange(code.compute, VectorOp::Cast, l.outType, {.dst = l.out, .src0 = l.values}, rows, 0.0f, kF32);
            result = l.out;
        }
        const std::uint64_t outBytes = bytesOf(l.outType);
        code.store.push_back(moveRowsToGm(result, l.y + c0 * outBytes, 1, rows * outBytes, rows * outBytes));
    }

    std::shared_ptr<const OuterInnerLayout> l_;
    UnitRange channels_;
};

// The 220x's layout: rows padded to whole repeats (the stage zeroed once), one buffer, a
// channel's partials in rows of whole 32 B blocks (accumulated and this sample's), their
// reduction scratch and the values.
std::optional<LoweredKernel> lowerRowPartials(const OpInstance& op, const VectorPlacement& placement,
                                              std::shared_ptr<OuterInnerLayout> l) {
    const std::uint64_t inBytes = bytesOf(l->inType), outBytes = bytesOf(l->outType);
    l->pitch = alignUp(l->inner, elementsPerRepeat(kF32));
    l->partialsPerRow = l->pitch / elementsPerRepeat(kF32);
    l->partialPitch = alignUp(l->partialsPerRow, elementsPerBlock(kF32));
    const std::uint64_t stagedBytes = l->pitch * (inBytes + (inBytes != 4 ? 4 : 0));  // a row staged (and cast)
    const std::uint64_t perChannel = stagedBytes + 2 * l->partialPitch * 4 +
                                     reduceRowsScratchBytes(kF32, 2, l->partialPitch) / 2 + 4 + outBytes;
    const std::uint64_t budget = placement.ubBytes - 8 * kUbBlockBytes;
    if (perChannel > budget) return std::nullopt;
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, op.inputs[0].bytes(), l->kept);
    const std::uint64_t share = ceilDiv(l->kept, kernel.blockDim);
    l->channelsPerTile = std::max<std::uint64_t>(1, std::min({share, budget / perChannel, std::uint64_t{kMaxVectorRepeats}}));
    const std::uint64_t c = l->channelsPerTile;
    // The samples of a tile: as many as the UB holds beside the chunk's partials (the DSL's UB
    // split on R1: the reduce schedule's ub_factor over the reduced axis, a whole row of R2 each).
    l->samplesPerTile = std::max<std::uint64_t>(1, std::min(l->outer, (budget - c * (perChannel - stagedBytes)) / (c * stagedBytes)));
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageStride = alignUp(l->samplesPerTile * c * l->pitch * inBytes, kUbBlockBytes);
    l->stage = ub.allocate(l->stageStride, "input rows");
    l->work = inBytes == 4 ? 0 : ub.allocate(l->samplesPerTile * c * l->pitch * 4, "fp32 rows");
    l->accumulator = ub.allocate(c * l->partialPitch * 4, "accumulated row partials");
    l->partials = ub.allocate(c * l->partialPitch * 4, "this sample's row partials");
    l->scratch = ub.allocate(reduceRowsScratchBytes(kF32, static_cast<std::uint32_t>(c), l->partialPitch), "reduction partials");
    l->values = ub.allocate(alignUp(c * 4, kUbBlockBytes), "row results");
    l->out = ub.allocate(alignUp(c * outBytes, kUbBlockBytes), "results in the output dtype");
    std::shared_ptr<const OuterInnerLayout> layout = l;
    kernel.program = doubleBufferedBlockShares<OuterInnerTiles>(layout, l->kept, kernel.blockDim);
    return kernel;
}

}  // namespace

std::optional<LoweredKernel> lowerOuterInnerReduction(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp,
                                                      bool mean, std::uint64_t outer, std::uint64_t kept,
                                                      std::uint64_t inner) {
    const VectorPlacement placement = vectorPlacement(chip);
    auto l = std::make_shared<OuterInnerLayout>();
    const ReduceTensors tensors = reduceTensors(op, reduceOp);
    l->reduce = reduceOp, l->fold = tensors.fold, l->mean = mean;
    l->outer = outer, l->kept = kept, l->inner = inner;
    l->inType = tensors.inType, l->outType = tensors.outType, l->x = tensors.x, l->y = tensors.y;
    const std::uint64_t inBytes = bytesOf(l->inType), outBytes = bytesOf(l->outType);
    const std::uint64_t perRepeat = elementsPerRepeat(kF32);
    // The 220x reduces every row of R2 to partials (rows of up to 255 repeats); the 910A folds.
    l->rowPartials = chip.organisation == CoreOrganisation::Split && reduceOp == VectorOp::ReduceSum &&
                     ceilDiv(inner, perRepeat) <= kMaxVectorRepeats;
    if (l->rowPartials) return lowerRowPartials(op, placement, std::move(l));
    l->pitch = alignUp(inner, kUbBlockBytes / std::min<std::uint64_t>(inBytes, 4));
    // Per channel: the staged rows, the fp32 copy when cast, the accumulator, reduction partials,
    // and its value (fp32 and output dtype).
    const std::uint64_t perChannel = l->pitch * (inBytes + (inBytes != 4 ? 4 : 0) + 4) +
                                     reduceRowsScratchBytes(kF32, 2, l->pitch) / 2 + 4 + outBytes;
    const std::uint64_t budget = placement.ubBytes - 8 * kUbBlockBytes;
    if (perChannel > budget) return std::nullopt;

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, op.inputs[0].bytes(), kept);
    const std::uint64_t share = ceilDiv(kept, kernel.blockDim);
    l->channelsPerTile = std::max<std::uint64_t>(1, std::min({share, budget / perChannel, std::uint64_t{kMaxVectorRepeats}}));
    const std::uint64_t c = l->channelsPerTile;
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageStride = alignUp(c * l->pitch * inBytes, kUbBlockBytes);
    l->stage = ub.allocate(l->stageStride, "input rows");
    l->work = inBytes == 4 ? 0 : ub.allocate(c * l->pitch * 4, "fp32 rows");
    l->accumulator = ub.allocate(c * l->pitch * 4, "accumulated rows");
    l->scratch = ub.allocate(reduceRowsScratchBytes(kF32, static_cast<std::uint32_t>(c), l->pitch), "reduction partials");
    l->values = ub.allocate(c * 4, "row results");
    l->out = ub.allocate(c * outBytes, "results in the output dtype");
    std::shared_ptr<const OuterInnerLayout> layout = l;
    kernel.program = doubleBufferedBlockShares<OuterInnerTiles>(layout, kept, kernel.blockDim);
    return kernel;
}

}  // namespace ascendsim
