// MaxPoolGrad on NCHW (docs/op-catalog.md): dx[h, w] = Σ over windows whose first maximum (in
// row-major tap order, as CANN picks the argmax) is x[h, w] of dy[window]. See
// max_pool_grad_layout.h for the work split and the position-major UB layout. Per tile:
//   MTE2: x rows, y rows and dy rows of 8 planes (NCHW, rows padded to 32 B);
//   V:    cast to fp32; Gather into position-major buffers (x into a slab padded with −inf);
//         for each window row and tap (i, j): notMax = y > x_tap (x_tap block-strided by sw),
//         contribution = notMax ? 0 : dy, y = notMax ? y : +inf (a window pays out once),
//         dx_tap += contribution (block-strided); Gather dx back to NCHW and cast;
//   MTE3: the band's dx rows of each plane.
#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/pooling/max_pool_grad_layout.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kC0 = kPoolGradPlanesPerGroup;
constexpr std::uint64_t kPositionBytes = kC0 * 4;  // one 32 B block per position
constexpr float kInf = std::numeric_limits<float>::infinity();

// One fp32 instruction sequence over `blocks` positions with per-operand block strides (in 32 B
// blocks); a stride-0 operand is one block read for every position.
struct StridedOperands {
    std::uint64_t dst = 0, src0 = 0, src1 = 0;
    std::uint64_t dstStride = 1, src0Stride = 1, src1Stride = 1;
};

void emitStrided(std::vector<Instruction>& code, VectorOp op, const StridedOperands& o, std::uint64_t blocks) {
    VectorInstr v;
    v.op = op;
    v.dtype = kF32;
    v.srcType = kF32;
    v.dstBlockStride = static_cast<std::uint8_t>(o.dstStride);
    v.src0BlockStride = static_cast<std::uint8_t>(o.src0Stride);
    v.src1BlockStride = static_cast<std::uint8_t>(o.src1Stride);
    v.dstRepeatStride = static_cast<std::uint16_t>(8 * o.dstStride);
    v.src0RepeatStride = static_cast<std::uint16_t>(8 * o.src0Stride);
    v.src1RepeatStride = static_cast<std::uint16_t>(8 * o.src1Stride);
    std::uint64_t done = 0;
    while (done < blocks) {
        const std::uint64_t left = blocks - done;
        const std::uint64_t repeats = left >= 8 ? std::min<std::uint64_t>(left / 8, kMaxVectorRepeats) : 1;
        const std::uint64_t perRepeat = left >= 8 ? 8 : left;
        v.repeats = static_cast<std::uint16_t>(repeats);
        v.mask = static_cast<std::uint16_t>(perRepeat * kC0);
        v.dst = o.dst + done * o.dstStride * kUbBlockBytes;
        v.src0 = o.src0 + done * o.src0Stride * kUbBlockBytes;
        v.src1 = o.src1 + done * o.src1Stride * kUbBlockBytes;
        code.push_back(Instruction::vector(v));
        done += repeats * perRepeat;
    }
}

// v[i] = i in fp32 for i < count: the first block by shrinking masks, then by doubling.
void emitRamp(std::vector<Instruction>& code, std::uint64_t v, std::uint64_t count) {
    for (std::uint64_t j = kC0; j-- > 0;) emitVectorRange(code, VectorOp::Duplicate, kF32, {.dst = v}, j + 1, static_cast<float>(j));
    for (std::uint64_t filled = kC0; filled < count; filled *= 2)
        emitVectorRange(code, VectorOp::Adds, kF32, {.dst = v + filled * 4, .src0 = v}, std::min(filled, count - filled),
                        static_cast<float>(filled));
}

// table[e] (int32) = Σ_d digit_d(e) · strideBytes_d, e's digits in the mixed radix `dims`
// (innermost first; the outermost size is not needed). Uses v and q (count fp32 each) and one
// 32 B constant block as scratch. Exact while the values stay below 2^24.
void emitOffsetTable(std::vector<Instruction>& code, std::uint64_t table, std::uint64_t count,
                     const std::vector<std::pair<std::uint64_t, std::uint64_t>>& dims, std::uint64_t v, std::uint64_t q,
                     std::uint64_t constant) {
    emitRamp(code, v, count);
    emitVectorRange(code, VectorOp::Duplicate, kF32, {.dst = table}, count, 0.0f);
    auto addScaled = [&](std::uint64_t src, double factor) {  // table += src · factor
        emitVectorRange(code, VectorOp::Duplicate, kF32, {.dst = constant}, kC0, static_cast<float>(factor));
        emitVectorRange(code, VectorOp::MulAdd, kF32, {.dst = table, .src0 = src, .src1 = constant, .src1IsBlock = true}, count);
    };
    for (std::size_t d = 0; d < dims.size(); ++d) {
        const auto [size, stride] = dims[d];
        addScaled(v, static_cast<double>(stride));
        if (d + 1 == dims.size()) break;
        const float divisor = static_cast<float>(size);
        emitVectorRange(code, VectorOp::Muls, kF32, {.dst = q, .src0 = v}, count, 1.0f / divisor);
        emitVectorRange(code, VectorOp::Adds, kF32, {.dst = q, .src0 = q}, count, 0.5f / divisor);
        emitVectorRange(code, VectorOp::Cast, DataType::Int32, {.dst = q, .src0 = q}, count, 0.0f, kF32);  // truncates
        emitVectorRange(code, VectorOp::Cast, kF32, {.dst = q, .src0 = q}, count, 0.0f, DataType::Int32);
        addScaled(q, -static_cast<double>(size) * static_cast<double>(stride));  // digit = v − q·size
        std::swap(v, q);
    }
    emitVectorRange(code, VectorOp::Cast, DataType::Int32, {.dst = table, .src0 = table}, count, 0.0f, kF32);
}

// Converts `count` elements between the staging dtype and fp32 (a copy when they match).
void emitConvert(std::vector<Instruction>& code, DataType to, DataType from, std::uint64_t dst, std::uint64_t src, std::uint64_t count) {
    if (to == from) emitVectorRange(code, VectorOp::Copy, to, {.dst = dst, .src0 = src}, count);
    else emitVectorRange(code, VectorOp::Cast, to, {.dst = dst, .src0 = src}, count, 0.0f, from);
}

class PoolGradTiles final : public TileSource {
public:
    PoolGradTiles(std::shared_ptr<const PoolGradLayout> layout, UnitRange units) : l_(std::move(layout)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }

    void setup(TileCode& code) override {
        const PoolGradLayout& l = *l_;
        const std::uint64_t constant = l.zeros;  // filled properly below, after the tables
        emitOffsetTable(code.compute, l.xTable, l.xTableEntries,
                        {{kC0, l.maxRowsX * l.xPitch * 4}, {l.w, 4}, {0, l.xPitch * 4}}, l.xPad, l.dxPad, constant);
        emitOffsetTable(code.compute, l.yTable, l.yTableEntries,
                        {{kC0, l.maxRowsY * l.yPitch * 4}, {l.outW, 4}, {0, l.yPitch * 4}}, l.xPad, l.dxPad, constant);
        emitOffsetTable(code.compute, l.outTable, l.outTableEntries,
                        {{l.xPitch, kPositionBytes}, {l.bandRows, l.paddedW * kPositionBytes}, {0, 4}}, l.xPad, l.dxPad, constant);
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l.xPad}, l.maxRowsX * l.paddedW * kC0, -kInf);
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l.zeros}, kC0, 0.0f);
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l.infinities}, kC0, kInf);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const PoolGradLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t group = unit / l.bands, firstPlane = group * kC0;
        const std::uint64_t planes = std::min(kC0, l.planes - firstPlane);
        const PoolGradBand b = l.band(unit % l.bands);
        const std::uint64_t eb = bytesOf(l.dtype);
        const std::uint64_t xStage = l.xStage + half * l.xStageStride, outStage = l.outStage + half * l.outStageStride;
        const std::uint64_t yStage = l.yStage + half * l.yStageStride, dyStage = l.dyStage + half * l.yStageStride;
        const auto firstRow = static_cast<std::uint64_t>(std::max<std::int64_t>(0, b.hOrigin));
        const auto endRow = static_cast<std::uint64_t>(
            std::clamp<std::int64_t>(b.hOrigin + static_cast<std::int64_t>(b.rowsX), 0, static_cast<std::int64_t>(l.h)));
        for (std::uint64_t p = 0; p < planes; ++p) {
            const std::uint64_t plane = firstPlane + p;
            if (endRow > firstRow)
                code.load.push_back(moveRowsToUb(l.x + (plane * l.h + firstRow) * l.w * eb,
                                                 xStage + (p * l.maxRowsX + static_cast<std::uint64_t>(static_cast<std::int64_t>(firstRow) - b.hOrigin)) * l.xPitch * eb,
                                                 static_cast<std::uint32_t>(endRow - firstRow), l.w * eb, l.xPitch * eb));
            if (b.nY == 0) continue;
            const std::uint64_t gm = (plane * l.outH + b.ohLo) * l.outW * eb, ub = p * l.maxRowsY * l.yPitch * eb;
            code.load.push_back(moveRowsToUb(l.y + gm, yStage + ub, static_cast<std::uint32_t>(b.nY), l.outW * eb, l.yPitch * eb));
            code.load.push_back(moveRowsToUb(l.dy + gm, dyStage + ub, static_cast<std::uint32_t>(b.nY), l.outW * eb, l.yPitch * eb));
        }
        std::vector<Instruction>& v = code.compute;
        const std::uint64_t rowPositions = l.paddedW * kC0;
        emitVectorRange(v, VectorOp::Duplicate, kF32, {.dst = l.dxPad}, b.rowsX * rowPositions, 0.0f);
        if (b.nY > 0) {
            emitConvert(v, kF32, l.dtype, l.xF32, xStage, kC0 * l.maxRowsX * l.xPitch);
            emitConvert(v, kF32, l.dtype, l.yF32, yStage, kC0 * l.maxRowsY * l.yPitch);
            emitConvert(v, kF32, l.dtype, l.dyF32, dyStage, kC0 * l.maxRowsY * l.yPitch);
            for (std::uint64_t k = 0; k < b.rowsX; ++k) {
                const std::int64_t imageRow = b.hOrigin + static_cast<std::int64_t>(k);
                if (imageRow >= 0 && imageRow < static_cast<std::int64_t>(l.h))
                    emitVectorRange(v, VectorOp::Gather, kF32,
                                    {.dst = l.xPad + (k * l.paddedW + l.padLeft) * kPositionBytes, .src0 = l.xF32,
                                     .src1 = l.xTable + k * l.w * kPositionBytes},
                                    l.w * kC0);
                else
                    emitVectorRange(v, VectorOp::Duplicate, kF32, {.dst = l.xPad + k * l.paddedW * kPositionBytes}, rowPositions, -kInf);
            }
            emitVectorRange(v, VectorOp::Gather, kF32, {.dst = l.yHwc, .src0 = l.yF32, .src1 = l.yTable}, b.nY * l.outW * kC0);
            emitVectorRange(v, VectorOp::Gather, kF32, {.dst = l.dyHwc, .src0 = l.dyF32, .src1 = l.yTable}, b.nY * l.outW * kC0);
            emitTaps(b, v);
        }
        emitVectorRange(v, VectorOp::Gather, kF32,
                        {.dst = l.outF32,
                         .src0 = l.dxPad + (bandOffset(b) * l.paddedW + l.padLeft) * kPositionBytes,
                         .src1 = l.outTable},
                        l.outTableEntries);
        emitConvert(v, l.dtype, kF32, outStage, l.outF32, l.outTableEntries);
        for (std::uint64_t p = 0; p < planes; ++p)
            code.store.push_back(moveRowsToGm(outStage + p * l.bandRows * l.xPitch * eb, l.dx + ((firstPlane + p) * l.h + b.h0) * l.w * eb,
                                              static_cast<std::uint32_t>(b.h1 - b.h0), l.w * eb, l.xPitch * eb));
        code.scalarCycles = static_cast<std::uint32_t>(planes * 3);
    }

private:
    // Buffer row of the band's first dx row.
    static std::uint64_t bandOffset(const PoolGradBand& b) {
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(b.h0) - b.hOrigin);
    }

    void emitTaps(const PoolGradBand& b, std::vector<Instruction>& v) const {
        const PoolGradLayout& l = *l_;
        for (std::uint64_t r = 0; r < b.nY; ++r) {
            const std::uint64_t yRow = l.yHwc + r * l.outW * kPositionBytes, dyRow = l.dyHwc + r * l.outW * kPositionBytes;
            for (std::uint64_t i = 0; i < l.kh; ++i) {
                for (std::uint64_t j = 0; j < l.kw; ++j) {
                    const std::uint64_t tap = ((r * l.sh + i + b.delta) * l.paddedW + j) * kPositionBytes;
                    const StridedOperands compare{.dst = l.notMax, .src0 = yRow, .src1 = l.xPad + tap, .src1Stride = l.sw};
                    emitStrided(v, VectorOp::CompareGt, compare, l.outW);
                    emitStrided(v, VectorOp::CompareGt, {.dst = l.nextY, .src0 = yRow, .src1 = l.xPad + tap, .src1Stride = l.sw}, l.outW);
                    emitStrided(v, VectorOp::Select, {.dst = l.notMax, .src0 = l.zeros, .src1 = dyRow, .src0Stride = 0}, l.outW);
                    emitStrided(v, VectorOp::Select, {.dst = l.nextY, .src0 = yRow, .src1 = l.infinities, .src1Stride = 0}, l.outW);
                    emitStrided(v, VectorOp::Copy, {.dst = yRow, .src0 = l.nextY}, l.outW);
                    emitStrided(v, VectorOp::Add,
                                {.dst = l.dxPad + tap, .src0 = l.dxPad + tap, .src1 = l.notMax, .dstStride = l.sw, .src0Stride = l.sw},
                                l.outW);
                }
            }
        }
    }

    std::shared_ptr<const PoolGradLayout> l_;
    UnitRange units_;
};

}  // namespace

PoolGradBand PoolGradLayout::band(std::uint64_t index) const {
    PoolGradBand b;
    b.h0 = index * bandRows;
    b.h1 = std::min(h, b.h0 + bandRows);
    const std::int64_t lo = static_cast<std::int64_t>(b.h0 + padTop) - static_cast<std::int64_t>(kh - 1);
    b.ohLo = lo <= 0 ? 0 : ceilDiv(static_cast<std::uint64_t>(lo), sh);
    const std::uint64_t ohHi = std::min(outH - 1, (b.h1 - 1 + padTop) / sh);
    b.nY = ohHi >= b.ohLo ? ohHi - b.ohLo + 1 : 0;
    const std::int64_t start = static_cast<std::int64_t>(b.ohLo * sh) - static_cast<std::int64_t>(padTop);
    b.hOrigin = std::min(start, static_cast<std::int64_t>(b.h0));
    b.delta = static_cast<std::uint64_t>(start - b.hOrigin);
    const std::uint64_t windowRows = b.nY > 0 ? (b.nY - 1) * sh + kh + b.delta : 0;
    b.rowsX = std::max(windowRows, static_cast<std::uint64_t>(static_cast<std::int64_t>(b.h1) - b.hOrigin));
    return b;
}


namespace {

std::int64_t attrAt(const std::vector<std::int64_t>& values, std::size_t i, std::int64_t fallback) {
    return i < values.size() ? values[i] : fallback;
}

// Bands of `bandRows` dx rows: sets bands, maxRowsX, maxRowsY.
void planBands(PoolGradLayout& l, std::uint64_t bandRows) {
    l.bandRows = bandRows;
    l.bands = ceilDiv(l.h, bandRows);
    l.maxRowsX = 0, l.maxRowsY = 0;
    for (std::uint64_t b = 0; b < l.bands; ++b) {
        const PoolGradBand band = l.band(b);
        l.maxRowsX = std::max(l.maxRowsX, band.rowsX);
        l.maxRowsY = std::max(l.maxRowsY, band.nY);
    }
    l.maxRowsY = std::max<std::uint64_t>(l.maxRowsY, 1);
    l.xTableEntries = l.maxRowsX * l.w * kC0;
    l.yTableEntries = l.maxRowsY * l.outW * kC0;
    l.outTableEntries = kC0 * bandRows * l.xPitch;
}

// Allocates every buffer (see PoolGradTiles); returns false when they do not fit.
bool allocate(PoolGradLayout& l, std::uint64_t ubBytes, const std::string& opName) {
    const std::uint64_t eb = bytesOf(l.dtype);
    const std::uint64_t xStage = kC0 * l.maxRowsX * l.xPitch, yStage = kC0 * l.maxRowsY * l.yPitch;
    const std::uint64_t outStage = l.outTableEntries;
    // Table-building scratch lives in xPad and dxPad; dxPad also absorbs the out-gather's reads
    // past the band (rows up to bandRows beyond, padding columns).
    const std::uint64_t scratch = std::max({l.xTableEntries, l.yTableEntries, l.outTableEntries}) * 4;
    const std::uint64_t padBytes = std::max(l.maxRowsX * l.paddedW * kPositionBytes, scratch);
    const std::uint64_t dxPadBytes = std::max((l.maxRowsX + l.bandRows + 1) * l.paddedW * kPositionBytes + l.xPitch * kPositionBytes, scratch);
    const std::uint64_t hwc = l.maxRowsY * l.outW * kPositionBytes, row = l.outW * kPositionBytes;
    const std::uint64_t need = 2 * alignUp(xStage * eb, kUbBlockBytes) + 4 * alignUp(yStage * eb, kUbBlockBytes) +
                               2 * alignUp(outStage * eb, kUbBlockBytes) + xStage * 4 + 2 * yStage * 4 + outStage * 4 + padBytes +
                               dxPadBytes + 2 * hwc + (l.xTableEntries + l.yTableEntries + l.outTableEntries) * 4 + 2 * row +
                               2 * kUbBlockBytes + 24 * kUbBlockBytes;  // slack for alignment
    if (need > ubBytes) return false;
    UbAllocator ub(ubBytes, opName);
    l.xStageStride = alignUp(xStage * eb, kUbBlockBytes);
    l.xStage = ub.allocate(2 * l.xStageStride, "x rows");
    l.yStageStride = alignUp(yStage * eb, kUbBlockBytes);
    l.yStage = ub.allocate(2 * l.yStageStride, "y rows");
    l.dyStage = ub.allocate(2 * l.yStageStride, "dy rows");
    l.outStageStride = alignUp(outStage * eb, kUbBlockBytes);
    l.outStage = ub.allocate(2 * l.outStageStride, "dx rows");
    l.xF32 = ub.allocate(xStage * 4, "x rows fp32");
    l.yF32 = ub.allocate(yStage * 4, "y rows fp32");
    l.dyF32 = ub.allocate(yStage * 4, "dy rows fp32");
    l.outF32 = ub.allocate(outStage * 4, "dx rows fp32");
    l.xPad = ub.allocate(padBytes, "position-major padded x");
    l.dxPad = ub.allocate(dxPadBytes, "position-major padded dx");
    l.yHwc = ub.allocate(hwc, "position-major y");
    l.dyHwc = ub.allocate(hwc, "position-major dy");
    l.xTable = ub.allocate(l.xTableEntries * 4, "x gather offsets");
    l.yTable = ub.allocate(l.yTableEntries * 4, "y gather offsets");
    l.outTable = ub.allocate(l.outTableEntries * 4, "dx gather offsets");
    l.notMax = ub.allocate(row, "contributions");
    l.nextY = ub.allocate(row, "updated y");
    l.zeros = ub.allocate(kUbBlockBytes, "zero block");
    l.infinities = ub.allocate(kUbBlockBytes, "infinity block");
    return true;
}

std::vector<LoweredKernel> lowerMaxPoolGrad(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 3, 1);
    const TensorInfo& x = op.inputs[0];
    if (x.shape.size() != 4 || !isFloat(x.dtype)) throwLoweringError(op, "x must be a float [N,C,H,W] tensor");
    auto l = std::make_shared<PoolGradLayout>();
    l->dtype = x.dtype;
    const auto ksize = op.intsAttr("ksize", {}), strides = op.intsAttr("strides", {}), pads = op.intsAttr("pads", {0, 0, 0, 0});
    if (ksize.size() < 2) throwLoweringError(op, "attribute ksize [kh, kw] is required");
    l->kh = static_cast<std::uint64_t>(ksize[0]), l->kw = static_cast<std::uint64_t>(ksize[1]);
    l->sh = static_cast<std::uint64_t>(attrAt(strides, 0, ksize[0])), l->sw = static_cast<std::uint64_t>(attrAt(strides, 1, ksize[1]));
    l->padTop = static_cast<std::uint64_t>(attrAt(pads, 0, 0)), l->padLeft = static_cast<std::uint64_t>(attrAt(pads, 2, 0));
    l->planes = static_cast<std::uint64_t>(x.shape[0] * x.shape[1]);
    l->h = static_cast<std::uint64_t>(x.shape[2]), l->w = static_cast<std::uint64_t>(x.shape[3]);
    const std::uint64_t paddedH = l->h + l->padTop + static_cast<std::uint64_t>(attrAt(pads, 1, 0));
    l->paddedW = l->w + l->padLeft + static_cast<std::uint64_t>(attrAt(pads, 3, 0));
    if (l->kh == 0 || l->kw == 0 || l->sh == 0 || l->sw == 0 || l->sw > 31 || paddedH < l->kh || l->paddedW < l->kw)
        throwLoweringError(op, "window larger than the padded input, or a stride outside 1..31");
    if (l->padTop >= l->kh || l->padLeft >= l->kw) throwLoweringError(op, "pads must be smaller than the window");
    l->outH = (paddedH - l->kh) / l->sh + 1, l->outW = (l->paddedW - l->kw) / l->sw + 1;
    // The last window column may end before the padded width: cover its taps.
    l->paddedW = std::max(l->paddedW, (l->outW - 1) * l->sw + l->kw);
    const std::int64_t outElements = static_cast<std::int64_t>(l->planes * l->outH * l->outW);
    if (op.inputs[1].elementCount() != outElements || op.inputs[2].elementCount() != outElements ||
        op.inputs[1].dtype != x.dtype || op.inputs[2].dtype != x.dtype)
        throwLoweringError(op, "y and dy must be [N, C, " + std::to_string(l->outH) + ", " + std::to_string(l->outW) + "] of x's dtype");
    if (op.outputs[0].elementCount() != x.elementCount() || op.outputs[0].dtype != x.dtype) throwLoweringError(op, "dx must match x");
    l->x = x.deviceAddr, l->y = op.inputs[1].deviceAddr, l->dy = op.inputs[2].deviceAddr, l->dx = op.outputs[0].deviceAddr;
    const std::uint64_t eb = bytesOf(l->dtype);
    l->xPitch = alignUp(l->w * eb, kUbBlockBytes) / eb;
    l->yPitch = alignUp(l->outW * eb, kUbBlockBytes) / eb;
    l->groups = ceilDiv(l->planes, kC0);

    const VectorPlacement placement = vectorPlacement(chip);
    bool fits = false;
    for (std::uint64_t rows = l->h; rows > 0 && !fits; --rows) {
        planBands(*l, rows);
        fits = allocate(*l, placement.ubBytes, op.name);
    }
    if (!fits) throwLoweringError(op, "one dx row with its windows does not fit in UB");

    return {tiledVectorKernel<PoolGradTiles>(op, placement, l, x.bytes() + 2 * op.inputs[1].bytes(), l->units())};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("MaxPoolGrad", lowerMaxPoolGrad);

}  // namespace ascendsim
