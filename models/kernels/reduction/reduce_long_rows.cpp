// Reductions of rows longer than UB (reduce_long_rows.h), as CANN's reduce tiling splits the
// reduced axis ("R-split"): a row streams through double-buffered chunks; each chunk is folded
// into a fp32 accumulator of W lanes by one binary instruction per W elements (vadd, or vmax for
// ReduceMax: 2 cycles per repeat, hardware.md §2.6), and at the row's end the W lanes are reduced
// to the row's value (vcadd/vcmax), scaled for a mean, cast to y's dtype and stored. The
// accumulator starts at 0 (−inf for the max) with each row.
#include <algorithm>
#include <limits>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/reduction/reduce_long_rows.h"
#include "models/kernels/tiling/row_chunk_stream.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kLanes = 2048;  // W: 32 repeats per fold instruction (assumed, as ArgMaxWithValue's)

struct LongRowLayout : RowChunkStream {
    DataType outType = kF32;
    VectorOp fold = VectorOp::Add, reduce = VectorOp::ReduceSum;
    float start = 0.0f, scale = 1.0f;
    std::uint64_t yGm = 0;
    std::uint64_t acc = 0, scratch = 0, slots = 0;
};

class LongRowTiles final : public TileSource {
public:
    LongRowTiles(std::shared_ptr<const LongRowLayout> l, UnitRange rows) : l_(std::move(l)), rows_(rows) {}
    std::uint64_t tileCount() const override { return rows_.size() * l_->chunksPerRow; }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const LongRowLayout& l = *l_;
        const RowChunkStream::Chunk loaded = l.load(rows_.begin, index, half, code);
        const std::uint64_t row = loaded.row, chunk = loaded.index, n = loaded.elements, stage = loaded.ub;
        auto& c = code.compute;
        if (chunk == 0) emitVectorRange(c, VectorOp::Duplicate, kF32, {.dst = l.acc}, kLanes, l.start);
        std::uint64_t src = stage;
        if (l.dtype != kF32) {
            emitVectorRange(c, VectorOp::Cast, kF32, {.dst = l.f32, .src0 = stage}, n, 0.0f, l.dtype);
            src = l.f32;
        }
        for (std::uint64_t s = 0; s < n; s += kLanes)
            emitVectorRange(c, l.fold, kF32, {.dst = l.acc, .src0 = l.acc, .src1 = src + s * 4}, std::min(kLanes, n - s));
        if (chunk + 1 < l.chunksPerRow) return;
        const std::uint64_t slot = l.slots + half * 2 * kUbBlockBytes, out = slot + kUbBlockBytes;
        emitReduceAll(c, l.reduce, kF32, l.acc, kLanes, l.scratch, slot);
        if (l.scale != 1.0f) emitVectorRange(c, VectorOp::Muls, kF32, {.dst = slot, .src0 = slot}, 1, l.scale);
        std::uint64_t result = slot;
        if (l.outType != kF32) {
            emitVectorRange(c, VectorOp::Cast, l.outType, {.dst = out, .src0 = slot}, 1, 0.0f, kF32);
            result = out;
        }
        const std::uint64_t ob = bytesOf(l.outType);
        code.store.push_back(moveRowsToGm(result, l.yGm + row * ob, 1, ob, ob));
    }

private:
    std::shared_ptr<const LongRowLayout> l_;
    UnitRange rows_;
};

}  // namespace

LoweredKernel lowerLongRowReduction(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp, bool mean,
                                    std::uint64_t rows, std::uint64_t length) {
    const TensorInfo& x = op.inputs[0];
    if (x.dtype != kF32 && x.dtype != DataType::Fp16 && x.dtype != DataType::Bf16)
        throwLoweringError(op, "a row longer than UB is reduced for fp32, fp16 or bf16 x only");
    auto l = std::make_shared<LongRowLayout>();
    l->dtype = x.dtype;
    l->outType = op.outputs[0].dtype;
    l->fold = reduceOp == VectorOp::ReduceMax ? VectorOp::Max : VectorOp::Add;
    l->reduce = reduceOp;
    l->start = reduceOp == VectorOp::ReduceMax ? -std::numeric_limits<float>::infinity() : 0.0f;
    l->scale = mean ? 1.0f / static_cast<float>(length) : 1.0f;
    l->length = length;
    l->xGm = x.deviceAddr;
    l->yGm = op.outputs[0].deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t scratchBytes = reduceRowsScratchBytes(kF32, 1, kLanes);
    const std::uint64_t fixed = kLanes * 4 + scratchBytes + 4 * kUbBlockBytes;
    if (!l->sizeChunks(placement.ubBytes - fixed, kLanes)) throwLoweringError(op, "UB cannot hold one chunk of a long row");
    UbAllocator ub(placement.ubBytes, op.name);
    l->allocateStage(ub);
    l->acc = ub.allocate(kLanes * 4, "lane accumulator");
    l->scratch = ub.allocate(scratchBytes, "reduction partials");
    l->slots = ub.allocate(4 * kUbBlockBytes, "row results");
    return tiledVectorKernel<LongRowTiles>(op, placement, l, static_cast<std::uint64_t>(x.bytes()), rows);
}

}  // namespace ascendsim
