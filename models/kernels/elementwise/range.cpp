// Range (docs/op-catalog.md, "Ops of the LLM samples"): y[i] = start + i·delta, n = ⌈(limit −
// start)/delta⌉ fp32 elements (the Qwen3 sample's position ids, 4096). start, limit and delta
// are attributes (the sample passes them as host scalars: the model has no data for them); the
// optional scalar inputs are read by the scalar unit only. Write-only: each block builds the lane
// numbers once, then per chunk of its share of y computes (lane + first)·delta + start (three
// unary instructions) into one half of a double buffer that MTE3 drains.
#include <algorithm>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/lane_numbers.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kChunk = 8192;  // elements per tile (assumed: 32 KiB per half, a fraction of UB)

struct RangeLayout {
    std::uint64_t elements = 0, chunk = 0, y = 0, lanes = 0, table = 0, out = 0, outHalf = 0;
    float start = 0, delta = 1;
};

class RangeTiles final : public TileSource {
public:
    RangeTiles(std::shared_ptr<const RangeLayout> l, UnitRange chunks) : l_(std::move(l)), chunks_(chunks) {}
    std::uint64_t tileCount() const override { return chunks_.size(); }
    void setup(TileCode& code) override { emitLaneNumbers(code.compute, l_->lanes, l_->chunk, l_->table); }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const RangeLayout& l = *l_;
        const std::uint64_t first = (chunks_.begin + index) * l.chunk, n = std::min(l.chunk, l.elements - first);
        const std::uint64_t out = l.out + half * l.outHalf;
        emitVectorRange(code.compute, VectorOp::Adds, kF32, {.dst = out, .src0 = l.lanes}, n, static_cast<float>(first));
        emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = out, .src0 = out}, n, l.delta);
        emitVectorRange(code.compute, VectorOp::Adds, kF32, {.dst = out, .src0 = out}, n, l.start);
        code.store.push_back(moveRowsToGm(out, l.y + first * 4, 1, n * 4, n * 4));
    }

private:
    std::shared_ptr<const RangeLayout> l_;
    UnitRange chunks_;
};

std::vector<LoweredKernel> lowerRange(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.size() > 3 || op.outputs.size() != 1) throwLoweringError(op, "takes up to 3 scalar inputs and 1 output");
    const TensorInfo& y = op.outputs[0];
    if (y.dtype != kF32 || y.elementCount() < 1) throwLoweringError(op, "y must be a non-empty fp32 tensor");
    auto l = std::make_shared<RangeLayout>();
    l->elements = static_cast<std::uint64_t>(y.elementCount());
    l->start = static_cast<float>(op.floatAttr("start", 0.0));
    l->delta = static_cast<float>(op.floatAttr("delta", 1.0));
    l->y = y.deviceAddr;
    l->chunk = std::min(kChunk, std::max<std::uint64_t>(64, alignUp(l->elements, elementsPerRepeat(kF32))));
    const VectorPlacement placement = vectorPlacement(chip);
    UbAllocator ub(placement.ubBytes, op.name);
    l->lanes = ub.allocate(l->chunk * 4, "lane numbers");
    l->table = ub.allocate(kLaneNumbersScratchBytes, "offset table");
    l->outHalf = l->chunk * 4;
    l->out = ub.allocate(2 * l->outHalf, "y chunks");
    const std::uint64_t chunks = ceilDiv(l->elements, l->chunk);
    return {tiledVectorKernel<RangeTiles>(op, placement, l, y.bytes(), chunks)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Range", lowerRange);

}  // namespace ascendsim
