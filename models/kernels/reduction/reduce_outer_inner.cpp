// One kernel for [R1, A, R2] reduced over R1 and R2 (the bias gradient of a convolution: [N, C, H·W]
// summed over N and H·W). Blocks split A; a block takes its channels in chunks of c channels, and
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

struct OuterInnerLayout {
    VectorOp fold = VectorOp::Add, reduce = VectorOp::ReduceSum;
    bool mean = false;
    std::uint64_t outer = 0, kept = 0, inner = 0;  // R1, A, R2
    std::uint64_t pitch = 0, channelsPerTile = 0;  // UB row pitch (elements), c
    DataType inType = kF32, outType = kF32;
    std::uint64_t x = 0, y = 0;
    std::uint64_t stage = 0, stageStride = 0, work = 0, accumulator = 0, values = 0, out = 0, scratch = 0;
};

class OuterInnerTiles final : public TileSource {
public:
    OuterInnerTiles(std::shared_ptr<const OuterInnerLayout> layout, UnitRange channels)
        : l_(std::move(layout)), channels_(channels) {}
    std::uint64_t tileCount() const override { return ceilDiv(channels_.size(), l_->channelsPerTile) * l_->outer; }
    std::uint32_t buffers() const override { return 1; }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const OuterInnerLayout& l = *l_;
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

private:
    std::shared_ptr<const OuterInnerLayout> l_;
    UnitRange channels_;
};

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
