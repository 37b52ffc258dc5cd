// AdaptiveAvgPool3d and its grad on channels-last data [.., D, H, W, C] (docs/op-catalog.md, "Ops
// of the CNN training samples"; CANN runs torch's AdaptiveAvgPool2d of the AlexNet head this way:
// [32,1,6,6,256]). With C innermost, a window mean is a mean of whole C-element rows. PyTorch's
// windows: output index i over `in` inputs covers [⌊i·in/out⌋, ⌈(i+1)·in/out⌉) per axis.
//   Forward: a target is an output position, its sources the window's input positions, each weighted
//     1/window size. Grad: a target is an input position (of dx), its sources the output positions
//     whose windows hold it, each weighted 1/(that window's size).
// Targets over blocks; per tile MTE2 brings every source row of the tile's targets, the vector unit
// scales each (Muls) and sums a target's rows (Add), MTE3 stores the tile's target rows in one burst.
// CANN's kernels are Ascend C and take one target at a time with one buffer (docs/fidelity.md §47;
// CANN 8.1 ascendc/adaptive_avg_pool3d: every tiling key instantiates its kernel with queue depth 1,
// ReduceMean per output point; adaptive_avg_pool3d_grad_float.h: per dy point a load, MTE2 → V,
// Muls, V → MTE3, the stores): a tile is one target and the next target's load waits for this
// target's compute.
// The forward's MULTI_W mode (ops-nn pooling/adaptive_avg_pool3d: op_host adaptive_avg_pool3d_tiling.cpp
// ComputeUBTilingStrategy, op_kernel adaptive_avg_pool3d_multi_w.h), which the tiling picks when two
// C rows and a window's W span fit UB: a pass takes up to windowWNum targets of one output row
// (never past the row's end nor the 64-entry index buffer), loads per (d, h) of their windows the
// W span they cover in one DataCopyPad (a burst per C row), sums each window's rows (Add), scales
// each window (Muls), copies the sums to the output queue and stores the pass's rows in one
// DataCopyPad. AlexNet's [32,1,6,6,256] → 6 × 6: a pass is one output row, 6 KiB in and out.
#include <algorithm>
#include <array>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/pooling/pool_index_division.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;

// Scalar work of a target's window bounds. CANN's kernels compute them on the scalar unit, per
// target, with int64 divisions: the forward (adaptive_avg_pool3d_common.h, CalculateIndex) splits
// the flat output index into d, h, w (3 divisions, 3 remainders), takes each axis's window start
// as (i / out)·in + ((i % out)·in) / out (3 per axis) and its end as 1 + ((i + 1)·in − 1) / out
// (1 per axis), then the mean's factor 1 / window size (1 float division): 19. The grad
// (adaptive_avg_pool3d_grad_float.h) splits the dy index with 5 and takes the same bounds (12)
// and factor (1): 18. Cycles per division: kPoolIndexDivisionCycles (pool_index_division.h).
constexpr std::uint32_t kForwardIndexDivisions = 19;
constexpr std::uint32_t kGradIndexDivisions = 18;

std::uint64_t windowStart(std::uint64_t i, std::uint64_t in, std::uint64_t out) { return i * in / out; }
std::uint64_t windowEnd(std::uint64_t i, std::uint64_t in, std::uint64_t out) { return ceilDiv((i + 1) * in, out); }

struct Source {
    std::uint64_t position = 0;
    float weight = 1.0f;
};

struct Pool3dLayout {
    bool grad = false;
    std::uint64_t batch = 1, channels = 0, rowPitch = 0;
    std::uint64_t part = 0, parts = 1;  // channels per part: a long row (C = 8192) is cut into parts
    std::array<std::uint64_t, 3> in{}, out{};  // D, H, W of the forward's input and output
    std::uint64_t src = 0, dst = 0, targetsPerTile = 0, maxSources = 1;
    std::uint64_t stage = 0, stageHalf = 0, acc = 0, accHalf = 0;
    // The forward's MULTI_W passes (0 = one target a tile): targets a pass takes at most.
    std::uint64_t windowWNum = 0;
    std::uint64_t targets() const { return batch * (grad ? in[0] * in[1] * in[2] : out[0] * out[1] * out[2]); }

    // The sources of target t (positions in the source tensor, batch included).
    std::vector<Source> sources(std::uint64_t t) const {
        const auto& tgt = grad ? in : out;
        const std::uint64_t per = tgt[0] * tgt[1] * tgt[2], b = t / per;
        std::array<std::uint64_t, 3> idx{(t % per) / (tgt[1] * tgt[2]), (t % (tgt[1] * tgt[2])) / tgt[2], t % tgt[2]};
        std::array<std::uint64_t, 3> lo{}, hi{};
        for (std::size_t a = 0; a < 3; ++a) {
            if (!grad) {
                lo[a] = windowStart(idx[a], in[a], out[a]);
                hi[a] = windowEnd(idx[a], in[a], out[a]);
            } else {  // the outputs whose window holds input idx
                lo[a] = out[a];
                hi[a] = 0;
                for (std::uint64_t o = 0; o < out[a]; ++o)
                    if (windowStart(o, in[a], out[a]) <= idx[a] && idx[a] < windowEnd(o, in[a], out[a])) lo[a] = std::min(lo[a], o), hi[a] = o + 1;
            }
        }
        const auto& srcDims = grad ? out : in;
        std::vector<Source> s;
        for (std::uint64_t d = lo[0]; d < hi[0]; ++d)
            for (std::uint64_t h = lo[1]; h < hi[1]; ++h)
                for (std::uint64_t w = lo[2]; w < hi[2]; ++w) {
                    std::uint64_t count = 1;
                    if (grad) {
                        const std::array<std::uint64_t, 3> o{d, h, w};
                        for (std::size_t a = 0; a < 3; ++a) count *= windowEnd(o[a], in[a], out[a]) - windowStart(o[a], in[a], out[a]);
                    } else {
                        count = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
                    }
                    s.push_back({((b * srcDims[0] + d) * srcDims[1] + h) * srcDims[2] + w, 1.0f / static_cast<float>(count)});
                }
        return s;
    }
};

class Pool3dTiles final : public TileSource {
public:
    Pool3dTiles(std::shared_ptr<const Pool3dLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    std::uint32_t buffers() const override { return 1; }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const Pool3dLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index, part = unit % l.parts;
        const std::uint64_t first = unit / l.parts * l.targetsPerTile, rowBytes = l.channels * 4;
        const std::uint64_t n = std::min(l.targetsPerTile, l.targets() - first);
        const std::uint64_t c0 = part * l.part, channels = std::min(l.part, l.channels - c0), partBytes = channels * 4;
        const std::uint64_t stage = l.stage + half * l.stageHalf, acc = l.acc + half * l.accHalf;
        std::uint64_t slot = 0;
        for (std::uint64_t t = 0; t < n; ++t) {
            const auto sources = l.sources(first + t);
            const std::uint64_t target = acc + t * l.rowPitch * 4;  // parts: one target, at acc
            for (std::size_t k = 0; k < sources.size(); ++k, ++slot) {
                const std::uint64_t at = stage + slot * (l.parts == 1 ? l.rowPitch : l.part) * 4;
                code.load.push_back(moveRowsToUb(l.src + sources[k].position * rowBytes + c0 * 4, at, 1, partBytes, partBytes));
                if (k == 0) {
                    emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = target, .src0 = at}, channels, sources[k].weight);
                } else {
                    emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = at, .src0 = at}, channels, sources[k].weight);
                    emitVectorRange(code.compute, VectorOp::Add, kF32, {.dst = target, .src0 = target, .src1 = at}, channels);
                }
            }
            if (sources.empty()) emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = target}, channels, 0.0f);
        }
        if (part == 0) code.scalarCycles = static_cast<std::uint32_t>(n) * kPoolIndexDivisionCycles *
                                           (l.grad ? kGradIndexDivisions : kForwardIndexDivisions);
        if (l.parts == 1) {
            code.store.push_back(moveRowsToGm(acc, l.dst + first * rowBytes, static_cast<std::uint32_t>(n), rowBytes, l.rowPitch * 4));
        } else {  // one target per tile
            code.store.push_back(moveRowsToGm(acc, l.dst + first * rowBytes + c0 * 4, 1, partBytes, partBytes));
        }
    }

private:
    std::shared_ptr<const Pool3dLayout> l_;
    UnitRange units_;
};

// A pass of the forward's MULTI_W mode: `count` targets from `first`, all in one output row.
// `indexed`: the targets whose window bounds the pass works out first (CalculateIndex fills the
// index buffer for the next kPool3dIndexEntries targets when a pass starts at its entry 0).
struct MultiWindowPass {
    std::uint64_t first = 0, count = 0, indexed = 0;
};

// The passes of targets [begin, end) as the kernel's Process loop takes them: windowWNum at a time,
// cut at the index buffer's end (kPool3dIndexEntries entries from the block's first target) and at
// the output row's end.
constexpr std::uint64_t kPool3dIndexEntries = 3072 / 6 / 8;  // INDEX_BUF_SIZE / INDEX_BUF_NUM / sizeof(int64_t)
std::vector<MultiWindowPass> multiWindowPasses(const Pool3dLayout& l, UnitRange targets) {
    std::vector<MultiWindowPass> passes;
    for (std::uint64_t p = targets.begin, count = 0; p < targets.end;) {
        const std::uint64_t bufIdx = count % kPool3dIndexEntries;
        std::uint64_t n = std::min(l.windowWNum, targets.end - p);
        n = std::min(n, kPool3dIndexEntries - bufIdx);
        const std::uint64_t pastRowEnd = (p + n) % l.out[2];
        if (pastRowEnd != 0 && pastRowEnd < n) n -= pastRowEnd;
        passes.push_back({p, n, bufIdx == 0 ? std::min(kPool3dIndexEntries, targets.end - p) : 0});
        p += n;
        count += n;
    }
    return passes;
}

class Pool3dMultiWindowTiles final : public TileSource {
public:
    Pool3dMultiWindowTiles(std::shared_ptr<const Pool3dLayout> l, UnitRange targets)
        : l_(std::move(l)), passes_(multiWindowPasses(*l_, targets)) {}
    std::uint64_t tileCount() const override { return passes_.size(); }
    std::uint32_t buffers() const override { return 1; }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const Pool3dLayout& l = *l_;
        const MultiWindowPass pass = passes_[index];
        const std::uint64_t rowBytes = l.channels * 4, pitchBytes = l.rowPitch * 4;
        const std::uint64_t stage = l.stage + half * l.stageHalf, acc = l.acc + half * l.accHalf;
        std::vector<std::vector<Source>> windows;
        for (std::uint64_t t = 0; t < pass.count; ++t) windows.push_back(l.sources(pass.first + t));
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = acc}, pass.count * l.rowPitch, 0.0f);
        // The pass's windows share their (d, h) rows (one output row); their W spans run from the
        // first window's start to the last one's end: one load a (d, h), its C rows a burst each.
        const std::uint64_t wFirst = windows.front().front().position % l.in[2];
        const std::uint64_t wLast = windows.back().back().position % l.in[2];
        const std::uint64_t span = wLast - wFirst + 1;
        std::uint64_t slot = 0;
        for (const Source& s : windows.back()) {
            if (s.position % l.in[2] != wLast) continue;  // one (d, h) per load: the last window's row ends
            const std::uint64_t rowStart = s.position - wLast + wFirst, at = stage + slot * span * pitchBytes;
            code.load.push_back(moveRowsToUb(l.src + rowStart * rowBytes, at, static_cast<std::uint32_t>(span), rowBytes, pitchBytes));
            for (std::uint64_t t = 0; t < pass.count; ++t)
                for (const Source& w : windows[t]) {
                    if (w.position / l.in[2] != s.position / l.in[2]) continue;  // another (d, h)
                    const std::uint64_t in = at + (w.position % l.in[2] - wFirst) * pitchBytes;
                    emitVectorRange(code.compute, VectorOp::Add, kF32, {.dst = acc + t * pitchBytes, .src0 = acc + t * pitchBytes, .src1 = in},
                                    l.rowPitch);
                }
            ++slot;
        }
        for (std::uint64_t t = 0; t < pass.count; ++t)
            emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = acc + t * pitchBytes, .src0 = acc + t * pitchBytes}, l.rowPitch,
                            windows[t].front().weight);
        // The sums to the output queue's buffer (DataCopy UB → UB of the pass's rows).
        const std::uint64_t out = acc + l.windowWNum * pitchBytes;
        emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = out, .src0 = acc}, pass.count * l.rowPitch);
        code.scalarCycles = static_cast<std::uint32_t>(pass.indexed) * kPoolIndexDivisionCycles * kForwardIndexDivisions;
        code.store.push_back(moveRowsToGm(out, l.dst + pass.first * rowBytes, static_cast<std::uint32_t>(pass.count), rowBytes, pitchBytes));
    }

private:
    std::shared_ptr<const Pool3dLayout> l_;
    std::vector<MultiWindowPass> passes_;
};

// The forward tiling's MULTI_W windowWNum for `l` (ComputeUBTilingStrategy, fp32: no cast buffer),
// 0 when it picks SPLIT_C or SPLIT_W instead. UB less RESERVED_UB_SIZE (10 KiB) and INDEX_BUF_SIZE
// (3 KiB); maxWindowWLength = ⌈(in W + out W − 1) / out W⌉ (a window's widest W span).
std::uint64_t multiWindowCount(const Pool3dLayout& l, std::uint64_t ubBytes) {
    constexpr std::uint64_t kReserved = 10 * 1024 + 3 * 1024, kElement = 4, kAlign = 8;
    if (ubBytes <= kReserved) return 0;
    const std::uint64_t ub = ubBytes - kReserved, alignC = alignUp(l.channels, kAlign);
    const std::uint64_t tileLen = ub / (2 * kElement + 4) / kAlign * kAlign;
    if (2 * alignC > tileLen) return 0;  // SPLIT_C
    const std::uint64_t maxWindowW = (l.out[2] + l.in[2] + l.out[2] - 1) / l.out[2];
    const std::uint64_t perC = ub / alignC;
    if (perC < 2 * kElement || (perC - 2 * kElement) / kElement < maxWindowW) return 0;  // SPLIT_W
    std::uint64_t n = perC / ((maxWindowW + 1) * kElement + 4);
    constexpr std::uint64_t kMaxInputW = 4095;
    if (n * maxWindowW >= kMaxInputW) n = kMaxInputW / maxWindowW;
    return std::min(n, l.out[2]);
}

// [.., D, H, W, C] → batch (the product of the leading dims), D, H, W, C.
void splitShape(const OpInstance& op, const TensorInfo& t, std::uint64_t& batch, std::array<std::uint64_t, 3>& dhw,
                std::uint64_t& c) {
    if (t.shape.size() < 4 || t.dtype != kF32) throwLoweringError(op, "'" + t.name + "' must be fp32 [.., D, H, W, C]");
    const std::size_t r = t.shape.size();
    batch = 1;
    for (std::size_t d = 0; d + 4 < r; ++d) batch *= static_cast<std::uint64_t>(t.shape[d]);
    for (std::size_t a = 0; a < 3; ++a) dhw[a] = static_cast<std::uint64_t>(t.shape[r - 4 + a]);
    c = static_cast<std::uint64_t>(t.shape[r - 1]);
}

std::vector<LoweredKernel> lowerPool3d(const OpInstance& op, const ChipConfig& chip, bool grad) {
    // Forward: x → y. Grad: dy (and the forward input's shape tensor, not read) → dx.
    if (op.inputs.empty() || op.outputs.size() != 1) throwLoweringError(op, "needs its input and one output");
    auto l = std::make_shared<Pool3dLayout>();
    l->grad = grad;
    const TensorInfo& src = op.inputs[0];
    const TensorInfo& dst = op.outputs[0];
    std::uint64_t srcBatch = 0, dstBatch = 0, srcC = 0, dstC = 0;
    std::array<std::uint64_t, 3> srcDhw{}, dstDhw{};
    splitShape(op, src, srcBatch, srcDhw, srcC);
    splitShape(op, dst, dstBatch, dstDhw, dstC);
    if (srcBatch != dstBatch || srcC != dstC) throwLoweringError(op, "input and output must share batch and C");
    l->batch = srcBatch;
    l->channels = srcC;
    l->in = grad ? dstDhw : srcDhw;
    l->out = grad ? srcDhw : dstDhw;
    l->src = src.deviceAddr;
    l->dst = dst.deviceAddr;
    l->rowPitch = alignUp(l->channels, elementsPerBlock(kF32));
    // Sources per target, bounded per axis: a window spans ≤ ⌈in/out⌉ + 1 inputs, an input lies in
    // ≤ ⌈out/in⌉ + 1 windows.
    l->maxSources = 1;
    for (std::size_t a = 0; a < 3; ++a)
        l->maxSources *= std::min(grad ? l->out[a] : l->in[a], ceilDiv(grad ? l->out[a] : l->in[a], grad ? l->in[a] : l->out[a]) + 1);
    const VectorPlacement placement = vectorPlacement(chip);
    if (!grad) l->windowWNum = multiWindowCount(*l, placement.ubBytes);
    if (l->windowWNum > 0) {
        // Its input queue holds windowWNum × maxWindowWLength rows; a pass here stages one W span a
        // (d, h) of its windows; the sum and output buffers windowWNum rows each.
        std::uint64_t spanRows = 0, dh = 1;
        for (std::uint64_t t = 0; t < l->out[2]; ++t)
            spanRows = std::max(spanRows, windowEnd(t, l->in[2], l->out[2]) - windowStart(t, l->in[2], l->out[2]));
        for (std::size_t a = 0; a < 2; ++a) dh *= ceilDiv(l->in[a], l->out[a]) + 1;
        const std::uint64_t pitch = l->rowPitch * 4;
        l->stageHalf = std::min(l->in[2], l->windowWNum * spanRows) * dh * pitch;
        l->accHalf = 2 * l->windowWNum * pitch;
        if (l->stageHalf + l->accHalf <= placement.ubBytes - 1024) {
            UbAllocator ub(placement.ubBytes, op.name);
            l->stage = ub.allocate(l->stageHalf, "input queue");
            l->acc = ub.allocate(l->accHalf, "sums and output queue");
            return {tiledVectorKernel<Pool3dMultiWindowTiles>(op, placement, l, src.bytes() + dst.bytes(), l->targets())};
        }
        l->windowWNum = 0;
    }
    l->part = l->rowPitch;
    if (2 * l->rowPitch * 4 * (l->maxSources + 1) > placement.ubBytes - 1024) {  // cut the rows into parts, one target per tile
        const std::uint64_t lanes = elementsPerBlock(kF32);
        l->part = (placement.ubBytes - 1024) / (2 * 4 * (l->maxSources + 1)) / lanes * lanes;
        if (l->part == 0) throwLoweringError(op, "one window's rows do not fit in UB");
        l->parts = ceilDiv(l->channels, l->part);
    }
    const std::uint64_t rowBytes = (l->parts == 1 ? l->rowPitch : l->part) * 4, perTarget = 2 * rowBytes * (l->maxSources + 1);
    if (perTarget > placement.ubBytes - 1024) throwLoweringError(op, "one target's rows do not fit in UB");
    l->targetsPerTile = 1;
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageHalf = l->targetsPerTile * l->maxSources * rowBytes;
    l->stage = ub.allocate(2 * l->stageHalf, "source rows");
    l->accHalf = l->targetsPerTile * rowBytes;
    l->acc = ub.allocate(2 * l->accHalf, "target rows");
    const std::uint64_t units = ceilDiv(l->targets(), l->targetsPerTile) * l->parts;
    return {tiledVectorKernel<Pool3dTiles>(op, placement, l, src.bytes() + dst.bytes(), units)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("AdaptiveAvgPool3d", [](const OpInstance& op, const ChipConfig& chip) { return lowerPool3d(op, chip, false); });
ASCENDSIM_REGISTER_KERNEL("AdaptiveAvgPool3dGrad", [](const OpInstance& op, const ChipConfig& chip) { return lowerPool3d(op, chip, true); });

}  // namespace ascendsim
