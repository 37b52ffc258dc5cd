// MaxPoolV3 and AvgPoolV2 on NCHW (docs/op-catalog.md). A tile holds P whole planes in UB, each
// in a slab padded by the pads (pad cells hold −inf or 0, set once per block and never
// overwritten: MTE2 writes only the interior rows). Output positions are gathered with one int32
// offset table T[p][oh][ow] = p·planePitch + oh·sh·rowPitch + ow·sw·elementBytes, built once per
// block from an index ramp by vector arithmetic; kernel tap (kh, kw) adds (kh·Wp + kw)·bytes to
// it, gathers, and folds into the accumulator (Max, or Add in fp32 then ×1/(kh·kw) for AvgPoolV2,
// counting padded cells like count_include_pad).
#include <algorithm>
#include <limits>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;
constexpr DataType kI32 = DataType::Int32;

struct PoolLayout {
    bool average = false;
    DataType dtype = DataType::Fp16, computeType = DataType::Fp16;
    std::uint64_t planes = 0, h = 0, w = 0, outH = 0, outW = 0;
    std::uint64_t kh = 1, kw = 1, sh = 1, sw = 1, padTop = 0, padLeft = 0, paddedH = 0, paddedW = 0;
    std::uint64_t x = 0, y = 0, planesPerTile = 0;
    // UB: slab halves start at `slab` + half·slabStride; plane p's padded plane starts
    // `shift` + p·planePitch bytes into its half (so each interior row block starts aligned).
    std::uint64_t slab = 0, slabStride = 0, shift = 0, planePitch = 0;
    std::uint64_t table = 0, tapTable = 0, gathered = 0, gatheredF32 = 0, acc = 0, out = 0, outStride = 0;

    std::uint64_t outputsPerPlane() const { return outH * outW; }
};

// T[i] for i < count: the base offset of output element i (see file comment), in bytes.
void emitPoolTable(std::vector<Instruction>& code, const PoolLayout& l, std::uint64_t count) {
    const std::uint64_t ramp = l.tapTable;  // i = 0, 1, ..., count−1 in fp32 (exact below 2^24)
    const std::uint64_t perBlock = elementsPerBlock(kF32);
    for (std::uint64_t j = perBlock; j-- > 0;)  // first block: 0, 1, ..., 7 by shrinking masks
        emitVectorRange(code, VectorOp::Duplicate, kF32, {.dst = ramp}, j + 1, static_cast<float>(j));
    for (std::uint64_t filled = perBlock; filled < count; filled *= 2)
        emitVectorRange(code, VectorOp::Adds, kF32, {.dst = ramp + filled * 4, .src0 = ramp}, std::min(filled, count - filled),
                        static_cast<float>(filled));
    const std::uint64_t q = l.acc, t = l.table;  // q: floor(i / outW), then plane index
    auto floorDiv = [&](std::uint64_t dst, std::uint64_t src, std::uint64_t divisor) {
        emitVectorRange(code, VectorOp::Muls, kF32, {.dst = dst, .src0 = src}, count, 1.0f / static_cast<float>(divisor));
        emitVectorRange(code, VectorOp::Adds, kF32, {.dst = dst, .src0 = dst}, count, 0.5f / static_cast<float>(divisor));
        emitVectorRange(code, VectorOp::Cast, kI32, {.dst = dst, .src0 = dst}, count, 0.0f, kF32);  // truncates
        emitVectorRange(code, VectorOp::Cast, kF32, {.dst = dst, .src0 = dst}, count, 0.0f, kI32);
    };
    // ow = i − q·outW with q = floor(i/outW); then oh = q − p·outH with p = floor(q/outH).
    floorDiv(q, ramp, l.outW);
    emitVectorRange(code, VectorOp::Muls, kF32, {.dst = t, .src0 = q}, count, -static_cast<float>(l.outW));
    emitVectorRange(code, VectorOp::Add, kF32, {.dst = t, .src0 = t, .src1 = ramp}, count);  // t = ow
    emitVectorRange(code, VectorOp::Muls, kF32, {.dst = t, .src0 = t}, count, static_cast<float>(l.sw * bytesOf(l.dtype)));
    floorDiv(ramp, q, l.outH);  // ramp = p
    emitVectorRange(code, VectorOp::Muls, kF32, {.dst = l.gatheredF32, .src0 = ramp}, count, -static_cast<float>(l.outH));
    emitVectorRange(code, VectorOp::Add, kF32, {.dst = q, .src0 = q, .src1 = l.gatheredF32}, count);  // q = oh
    emitVectorRange(code, VectorOp::Muls, kF32, {.dst = q, .src0 = q}, count,
                    static_cast<float>(l.sh * l.paddedW * bytesOf(l.dtype)));
    emitVectorRange(code, VectorOp::Add, kF32, {.dst = t, .src0 = t, .src1 = q}, count);
    emitVectorRange(code, VectorOp::Muls, kF32, {.dst = ramp, .src0 = ramp}, count, static_cast<float>(l.planePitch));
    emitVectorRange(code, VectorOp::Add, kF32, {.dst = t, .src0 = t, .src1 = ramp}, count);
    emitVectorRange(code, VectorOp::Adds, kF32, {.dst = t, .src0 = t}, count, static_cast<float>(l.shift));
    emitVectorRange(code, VectorOp::Cast, kI32, {.dst = t, .src0 = t}, count, 0.0f, kF32);
}

class PoolTiles final : public TileSource {
public:
    PoolTiles(std::shared_ptr<const PoolLayout> layout, UnitRange planes) : l_(std::move(layout)), planes_(planes) {}
    std::uint64_t tileCount() const override { return ceilDiv(planes_.size(), l_->planesPerTile); }

    void setup(TileCode& code) override {
        const PoolLayout& l = *l_;
        const float pad = l.average ? 0.0f : -std::numeric_limits<float>::infinity();
        emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = l.slab}, 2 * l.slabStride / bytesOf(l.dtype), pad);
        emitPoolTable(code.compute, l, l.planesPerTile * l.outputsPerPlane());
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const PoolLayout& l = *l_;
        const std::uint64_t first = planes_.begin + index * l.planesPerTile;
        const std::uint64_t planes = std::min(l.planesPerTile, planes_.end - first);
        const std::uint64_t eb = bytesOf(l.dtype), slab = l.slab + half * l.slabStride;
        for (std::uint64_t p = 0; p < planes; ++p) {
            DataMove m{.src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = l.x + (first + p) * l.h * l.w * eb;
            m.dstAddr = slab + l.shift + p * l.planePitch + (l.padTop * l.paddedW + l.padLeft) * eb;
            m.burstCount = static_cast<std::uint32_t>(l.h);
            m.burstBytes = static_cast<std::uint32_t>(l.w * eb);
            m.dstGapBytes = static_cast<std::uint32_t>((l.paddedW - l.w) * eb);
            code.load.push_back(Instruction::move(m));
        }
        const std::uint64_t count = planes * l.outputsPerPlane();
        const DataType ct = l.computeType;
        for (std::uint64_t i = 0; i < l.kh; ++i) {
            for (std::uint64_t j = 0; j < l.kw; ++j) {
                emitVectorRange(code.compute, VectorOp::Adds, kI32, {.dst = l.tapTable, .src0 = l.table}, count,
                                static_cast<float>((i * l.paddedW + j) * eb));
                emitVectorRange(code.compute, VectorOp::Gather, l.dtype, {.dst = l.gathered, .src0 = slab, .src1 = l.tapTable}, count);
                std::uint64_t value = l.gathered;
                if (ct != l.dtype) {
                    emitVectorRange(code.compute, VectorOp::Cast, ct, {.dst = l.gatheredF32, .src0 = l.gathered}, count, 0.0f, l.dtype);
                    value = l.gatheredF32;
                }
                const bool firstTap = i == 0 && j == 0;
                emitVectorRange(code.compute, firstTap ? VectorOp::Copy : l.average ? VectorOp::Add : VectorOp::Max, ct,
                                {.dst = l.acc, .src0 = firstTap ? value : l.acc, .src1 = value}, count);
            }
        }
        if (l.average)
            emitVectorRange(code.compute, VectorOp::Muls, ct, {.dst = l.acc, .src0 = l.acc}, count, 1.0f / static_cast<float>(l.kh * l.kw));
        const std::uint64_t out = l.out + half * l.outStride;
        if (ct != l.dtype) emitVectorRange(code.compute, VectorOp::Cast, l.dtype, {.dst = out, .src0 = l.acc}, count, 0.0f, ct);
        else emitVectorRange(code.compute, VectorOp::Copy, ct, {.dst = out, .src0 = l.acc}, count);
        code.store.push_back(moveRowsToGm(out, l.y + first * l.outputsPerPlane() * eb, 1, count * eb, count * eb));
        code.scalarCycles = static_cast<std::uint32_t>(planes);
    }

private:
    std::shared_ptr<const PoolLayout> l_;
    UnitRange planes_;
};

std::int64_t attrAt(const std::vector<std::int64_t>& values, std::size_t i, std::int64_t fallback) {
    return i < values.size() ? values[i] : fallback;
}

std::vector<LoweredKernel> lowerPool(const OpInstance& op, const ChipConfig& chip, bool average) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (x.shape.size() != 4 || !isFloat(x.dtype)) throwLoweringError(op, "x must be a float [N,C,H,W] tensor");
    auto l = std::make_shared<PoolLayout>();
    l->average = average;
    l->dtype = x.dtype;
    l->computeType = average ? kF32 : vectorComputeType(op, x.dtype);
    const auto ksize = op.intsAttr("ksize", {}), strides = op.intsAttr("strides", {}), pads = op.intsAttr("pads", {0, 0, 0, 0});
    if (ksize.size() < 2) throwLoweringError(op, "attribute ksize [kh, kw] is required");
    l->kh = static_cast<std::uint64_t>(ksize[0]), l->kw = static_cast<std::uint64_t>(ksize[1]);
    l->sh = static_cast<std::uint64_t>(attrAt(strides, 0, ksize[0])), l->sw = static_cast<std::uint64_t>(attrAt(strides, 1, ksize[1]));
    l->padTop = static_cast<std::uint64_t>(attrAt(pads, 0, 0)), l->padLeft = static_cast<std::uint64_t>(attrAt(pads, 2, 0));
    l->planes = static_cast<std::uint64_t>(x.shape[0] * x.shape[1]);
    l->h = static_cast<std::uint64_t>(x.shape[2]), l->w = static_cast<std::uint64_t>(x.shape[3]);
    l->paddedH = l->h + l->padTop + static_cast<std::uint64_t>(attrAt(pads, 1, 0));
    l->paddedW = l->w + l->padLeft + static_cast<std::uint64_t>(attrAt(pads, 3, 0));
    if (l->kh == 0 || l->kw == 0 || l->sh == 0 || l->sw == 0 || l->paddedH < l->kh || l->paddedW < l->kw)
        throwLoweringError(op, "window larger than the padded input");
    l->outH = (l->paddedH - l->kh) / l->sh + 1, l->outW = (l->paddedW - l->kw) / l->sw + 1;
    if (op.outputs[0].elementCount() != static_cast<std::int64_t>(l->planes * l->outH * l->outW))
        throwLoweringError(op, "output must be [N, C, " + std::to_string(l->outH) + ", " + std::to_string(l->outW) + "]");
    l->x = x.deviceAddr, l->y = op.outputs[0].deviceAddr;

    const std::uint64_t eb = bytesOf(l->dtype), ctb = bytesOf(l->computeType);
    l->planePitch = l->paddedH * l->paddedW * eb;
    l->shift = (kUbBlockBytes - (l->padTop * l->paddedW + l->padLeft) * eb % kUbBlockBytes) % kUbBlockBytes;
    l->planePitch = alignUp(l->planePitch, kUbBlockBytes);
    // Per plane: two slab halves, the table, tap table/ramp, gathered (+fp32), accumulator
    // (also the table build's fp32 scratch), two output halves.
    const std::uint64_t outs = l->outputsPerPlane();
    const std::uint64_t perPlane = 2 * l->planePitch + outs * (4 + 4 + eb + 4 + std::max<std::uint64_t>(ctb, 4) + 2 * eb);
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t budget = placement.ubBytes - 16 * kUbBlockBytes;
    if (perPlane > budget) throwLoweringError(op, "one padded plane does not fit in UB");
    l->planesPerTile = std::min(budget / perPlane, l->planes);
    const std::uint64_t tileOuts = l->planesPerTile * outs;
    UbAllocator ub(placement.ubBytes, op.name);
    l->slabStride = alignUp(l->shift + l->planesPerTile * l->planePitch, kUbBlockBytes);
    l->slab = ub.allocate(2 * l->slabStride, "padded planes");
    l->table = ub.allocate(tileOuts * 4, "gather offsets");
    l->tapTable = ub.allocate(alignUp(tileOuts, 8) * 4, "tap offsets");
    l->gathered = ub.allocate(tileOuts * eb, "gathered taps");
    l->gatheredF32 = ub.allocate(tileOuts * 4, "gathered taps in fp32");
    l->acc = ub.allocate(tileOuts * std::max<std::uint64_t>(ctb, 4), "accumulator");
    l->outStride = alignUp(tileOuts * eb, kUbBlockBytes);
    l->out = ub.allocate(2 * l->outStride, "output planes");

    return {tiledVectorKernel<PoolTiles>(op, placement, l, x.bytes(), l->planes)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("MaxPoolV3", [](const OpInstance& op, const ChipConfig& chip) { return lowerPool(op, chip, false); });
ASCENDSIM_REGISTER_KERNEL("AvgPoolV2", [](const OpInstance& op, const ChipConfig& chip) { return lowerPool(op, chip, true); });

}  // namespace ascendsim
