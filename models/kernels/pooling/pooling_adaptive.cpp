// AdaptiveAvgPool2d (docs/op-catalog.md) with PyTorch's windows (rows start = floor(i·H/oh), end =
// ceil((i+1)·H/oh); columns likewise), planes innermost so every window sum is a sum of whole
// vectors: a tile takes P planes (a multiple of 8, ≤ 64) and a band of output rows; MTE2 loads the
// band's input rows of each plane (a band of all H rows is a run of whole planes, moved in one
// run; a band of all output rows is stored so too), a Gather turns them into [h][w][P], vector
// Adds sum the window rows (pass H, W·P elements at a time) and then the window columns (pass W, P
// elements per output, repeated down the band's output rows), scaled by 1/count per pass; a second
// Gather turns the [q][P] result back into [P][q] and MTE3 stores P rows. Both Gather tables are
// built once per block (transpose_offsets.h). Output [1, 1] (classification heads) is CANN's
// ReduceMean over H·W on the fused [N·C, H·W] shape, whose reduce tiling takes, for an unaligned
// H·W, its transpose case (contiguous rows moved in one run, transposed in UB, summed across) or
// its pad case (moved in one run, aligned in UB): both move runs of planes, as this plan does
// (docs/fidelity.md §87). An H·W of whole blocks, or one too long for those cases, takes the
// normal last-axis case: every plane one row, summed by vcadd and scaled by 1/(H·W).
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/transpose/transpose_offsets.h"
#include "models/kernels/reduction/dsl_reduce_dispatch.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_rows.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kF32Bytes = 4;
constexpr std::uint64_t kMaxPlanesPerTile = 64;  // one 256 B fp32 repeat per output position
constexpr std::uint64_t kPlaneGranule = 8;       // [..][P] fp32 rows stay 32 B aligned

// PyTorch's adaptive window [start, end) of output index i of `out` over `in` inputs.
std::uint64_t windowStart(std::uint64_t i, std::uint64_t in, std::uint64_t out) {
    return i * in / out;
}
std::uint64_t windowEnd(std::uint64_t i, std::uint64_t in, std::uint64_t out) {
    return ceilDiv((i + 1) * in, out);
}

// Every (n, c) plane is one row, summed by vcadd and scaled by 1/(H·W); a tile's rows are one
// burst a plane (vector_tiling_rows.h).
std::vector<LoweredKernel> lowerGlobalPool(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo& x = op.inputs[0];
    const std::int64_t h = x.shape[2], w = x.shape[3];
    RowKernelSpec spec;
    spec.rows = static_cast<std::uint64_t>(x.shape[0] * x.shape[1]);
    spec.length = static_cast<std::uint64_t>(h * w);
    spec.rowInputs = {x};
    spec.valueOutputs = {op.outputs[0]};
    const float scale = 1.0f / static_cast<float>(h * w);
    spec.compute = [scale](RowTile& t) {
        t.reduce(VectorOp::ReduceSum, t.inputs[0], t.valueOutputs[0]);
        t.values(VectorOp::Muls, t.valueOutputs[0], t.valueOutputs[0], 0, scale);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

struct AdaptiveLayout {
    DataType dtype = kF32;
    std::uint64_t planes = 0, h = 0, w = 0, oh = 0, ow = 0;
    std::uint64_t planesPerTile = 0, bandRows = 0;  // P, output rows per band
    std::uint64_t inRows = 0, outPitch = 0;  // most input rows of a band; Qp (padded band outputs)
    std::uint64_t x = 0, y = 0;
    std::uint64_t stage = 0, stageStride = 0, planePitch = 0;  // [P][planePitch bytes] halves
    std::uint64_t inTable = 0, gathered = 0, columns = 0, rows = 0, pooled = 0, pooledCast = 0;
    std::uint64_t outTable = 0, out = 0, outStride = 0, ramp = 0, scratch = 0;

    std::uint64_t planeGroups() const { return ceilDiv(planes, planesPerTile); }
    std::uint64_t bands() const { return ceilDiv(oh, bandRows); }
    std::uint64_t units() const { return planeGroups() * bands(); }
    std::uint64_t bandInputRows(std::uint64_t first, std::uint64_t last) const {
        return windowEnd(last - 1, h, oh) - windowStart(first, h, oh);
    }
};

// Byte distances between consecutive rows of each operand of a per-row vector operation.
struct RowStrides {
    std::uint64_t dst = 0, src0 = 0, src1 = 0;
};

// dst row r = src0 row r op src1 row r (src1 ignored by scalar ops) for `rows` rows of `elements`
// (≤ one repeat) fp32 elements: one instruction per ≤255 rows when the row strides fit the 8-bit
// repeat stride fields, else one per row.
void emitPerRow(std::vector<Instruction>& code, VectorOp op, std::uint64_t dst, std::uint64_t src0,
                std::uint64_t src1, std::uint64_t rows, const RowStrides& strides,
                std::uint64_t elements, float scalar) {
    const std::uint64_t widest =
        std::max({strides.dst, strides.src0, strides.src1}) / kUbBlockBytes;
    if (widest > kMaxRepeatStrideBlocks) {
        for (std::uint64_t r = 0; r < rows; ++r)
            emitVectorRange(code, op, kF32,
                            {.dst = dst + r * strides.dst,
                             .src0 = src0 + r * strides.src0,
                             .src1 = src1 + r * strides.src1},
                            elements, scalar);
        return;
    }
    for (std::uint64_t first = 0; first < rows; first += kMaxVectorRepeats) {
        VectorInstr v{.op = op, .dtype = kF32, .srcType = kF32, .scalar = scalar};
        v.repeats =
            static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, rows - first));
        v.mask = static_cast<std::uint16_t>(elements);
        v.dst = dst + first * strides.dst;
        v.src0 = src0 + first * strides.src0;
        v.src1 = src1 + first * strides.src1;
        v.dstRepeatStride = static_cast<std::uint16_t>(strides.dst / kUbBlockBytes);
        v.src0RepeatStride = static_cast<std::uint16_t>(strides.src0 / kUbBlockBytes);
        v.src1RepeatStride = static_cast<std::uint16_t>(strides.src1 / kUbBlockBytes);
        code.push_back(Instruction::vector(v));
    }
}

class AdaptivePoolTiles final : public TileSource {
  public:
    AdaptivePoolTiles(std::shared_ptr<const AdaptiveLayout> layout, UnitRange units)
        : l_(std::move(layout)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }

    void setup(TileCode& code) override {
        const AdaptiveLayout& l = *l_;
        const std::uint64_t eb = bytesOf(l.dtype), p = l.planesPerTile;
        emitTransposeOffsets(code.compute, l.inTable, l.ramp, l.scratch, l.inRows * l.w * p, p,
                             l.planePitch / eb, eb);
        emitTransposeOffsets(code.compute, l.outTable, l.ramp, l.scratch, p * l.outPitch,
                             l.outPitch, p, eb);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const AdaptiveLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t firstPlane = unit / l.bands() * l.planesPerTile,
                            planes = std::min(l.planesPerTile, l.planes - firstPlane);
        const std::uint64_t firstOut = unit % l.bands() * l.bandRows,
                            outRows = std::min(l.bandRows, l.oh - firstOut);
        const std::uint64_t firstIn = windowStart(firstOut, l.h, l.oh),
                            inRows = l.bandInputRows(firstOut, firstOut + outRows);
        const std::uint64_t eb = bytesOf(l.dtype), p = l.planesPerTile, vectorBytes = p * kF32Bytes;
        const std::uint64_t stage = l.stage + half * l.stageStride,
                            out = l.out + half * l.outStride;
        DataMove load{
            .src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
        load.srcAddr = l.x + (firstPlane * l.h + firstIn) * l.w * eb;
        load.dstAddr = stage;
        load.burstCount = static_cast<std::uint32_t>(planes);
        load.burstBytes = static_cast<std::uint32_t>(inRows * l.w * eb);
        load.srcGapBytes = static_cast<std::uint32_t>((l.h - inRows) * l.w * eb);
        load.dstGapBytes = static_cast<std::uint32_t>(l.planePitch - load.burstBytes);
        code.load.push_back(Instruction::move(load));

        // [P][h][w] → [h][w][P], in fp32.
        const std::uint64_t inCount = inRows * l.w * p;
        const bool cast = l.dtype != kF32;
        emitVectorRange(code.compute, VectorOp::Gather, l.dtype,
                        {.dst = cast ? l.gathered : l.columns, .src0 = stage, .src1 = l.inTable},
                        inCount);
        if (cast)
            emitVectorRange(code.compute, VectorOp::Cast, kF32,
                            {.dst = l.columns, .src0 = l.gathered}, inCount, 0.0f, l.dtype);

        // Pass H: rows[i] = Σ columns[h] over the window of output row i, / count.
        const std::uint64_t rowElements = l.w * p, rowBytes = rowElements * kF32Bytes;
        for (std::uint64_t i = 0; i < outRows; ++i) {
            const std::uint64_t start = windowStart(firstOut + i, l.h, l.oh),
                                end = windowEnd(firstOut + i, l.h, l.oh);
            const std::uint64_t dst = l.rows + i * rowBytes,
                                src = l.columns + (start - firstIn) * rowBytes;
            if (end - start == 1) {
                emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = dst, .src0 = src},
                                rowElements);
                continue;
            }
            emitVectorRange(code.compute, VectorOp::Add, kF32,
                            {.dst = dst, .src0 = src, .src1 = src + rowBytes}, rowElements);
            for (std::uint64_t r = start + 2; r < end; ++r)
                emitVectorRange(
                    code.compute, VectorOp::Add, kF32,
                    {.dst = dst, .src0 = dst, .src1 = l.columns + (r - firstIn) * rowBytes},
                    rowElements);
            emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = dst, .src0 = dst},
                            rowElements, 1.0f / static_cast<float>(end - start));
        }
        // Pass W: pooled[i][j] = Σ rows[i][w] over the window of output column j, / count, for
        // every output row of the band at once.
        const std::uint64_t pooledRowBytes = l.ow * vectorBytes;
        for (std::uint64_t j = 0; j < l.ow; ++j) {
            const std::uint64_t start = windowStart(j, l.w, l.ow), end = windowEnd(j, l.w, l.ow);
            const std::uint64_t dst = l.pooled + j * vectorBytes,
                                src = l.rows + start * vectorBytes;
            const float scale = 1.0f / static_cast<float>(end - start);
            if (end - start == 1) {
                emitPerRow(code.compute, VectorOp::Muls, dst, src, 0, outRows,
                           {pooledRowBytes, rowBytes, 0}, p, 1.0f);
                continue;
            }
            emitPerRow(code.compute, VectorOp::Add, dst, src, src + vectorBytes, outRows,
                       {pooledRowBytes, rowBytes, rowBytes}, p, 0.0f);
            for (std::uint64_t c = start + 2; c < end; ++c)
                emitPerRow(code.compute, VectorOp::Add, dst, dst, l.rows + c * vectorBytes, outRows,
                           {pooledRowBytes, pooledRowBytes, rowBytes}, p, 0.0f);
            emitPerRow(code.compute, VectorOp::Muls, dst, dst, 0, outRows,
                       {pooledRowBytes, pooledRowBytes, 0}, p, scale);
        }
        // [q][P] → [P][q], in the output dtype.
        const std::uint64_t outCount = l.outPitch * p;
        if (cast)
            emitVectorRange(code.compute, VectorOp::Cast, l.dtype,
                            {.dst = l.pooledCast, .src0 = l.pooled}, outCount, 0.0f, kF32);
        emitVectorRange(code.compute, VectorOp::Gather, l.dtype,
                        {.dst = out, .src0 = cast ? l.pooledCast : l.pooled, .src1 = l.outTable},
                        outCount);

        DataMove store{
            .src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
        store.srcAddr = out;
        store.dstAddr = l.y + (firstPlane * l.oh + firstOut) * l.ow * eb;
        store.burstCount = static_cast<std::uint32_t>(planes);
        store.burstBytes = static_cast<std::uint32_t>(outRows * l.ow * eb);
        store.srcGapBytes = static_cast<std::uint32_t>(l.outPitch * eb - store.burstBytes);
        store.dstGapBytes = static_cast<std::uint32_t>((l.oh - outRows) * l.ow * eb);
        code.store.push_back(Instruction::move(store));
        code.scalarCycles = static_cast<std::uint32_t>(outRows + l.ow);
    }

  private:
    std::shared_ptr<const AdaptiveLayout> l_;
    UnitRange units_;
};

// UB bytes a tile of P planes and `bandRows` output rows needs (also sets the band geometry).
std::uint64_t layoutBytes(AdaptiveLayout& l, std::uint64_t p, std::uint64_t bandRows) {
    const std::uint64_t eb = bytesOf(l.dtype);
    l.planesPerTile = p, l.bandRows = bandRows;
    l.inRows = 0;
    for (std::uint64_t first = 0; first < l.oh; first += bandRows)
        l.inRows = std::max(l.inRows, l.bandInputRows(first, std::min(l.oh, first + bandRows)));
    // A band of every input row is a run of whole planes, contiguous in GM: it lands packed (one
    // run, as CANN's contiguous reduce moves do, §87); a partial band's rows are one burst a
    // plane, each padded to a block in UB. Likewise a band of every output row leaves packed.
    l.outPitch = bandRows == l.oh ? l.oh * l.ow : alignUp(bandRows * l.ow, kUbBlockBytes / eb);
    l.planePitch = l.inRows == l.h ? l.h * l.w * eb : alignUp(l.inRows * l.w * eb, kUbBlockBytes);
    l.stageStride = alignUp(p * l.planePitch, kUbBlockBytes);
    const std::uint64_t in = l.inRows * l.w * p, outs = l.outPitch * p,
                        cast = eb == kF32Bytes ? 0 : 1;
    return 2 * l.stageStride + in * (4 + cast * eb + 4) + bandRows * l.w * p * 4 +
           outs * (4 + cast * eb + 4 + 2 * eb) + 2 * std::max(in, outs) * 4 + 16 * kUbBlockBytes;
}

// x's geometry for output [oh, ow], and the most planes (then the most output rows) whose tile
// fits in `ubBytes`; false if not even one output row of 8 planes does.
bool sizeWindowedTiles(AdaptiveLayout& l, const TensorInfo& x, std::uint64_t oh, std::uint64_t ow,
                       std::uint64_t ubBytes) {
    l.dtype = x.dtype;
    l.planes = static_cast<std::uint64_t>(x.shape[0] * x.shape[1]);
    l.h = static_cast<std::uint64_t>(x.shape[2]), l.w = static_cast<std::uint64_t>(x.shape[3]);
    l.oh = oh, l.ow = ow;
    for (std::uint64_t p = std::min(kMaxPlanesPerTile, alignUp(l.planes, kPlaneGranule)); p >= kPlaneGranule;
         p -= kPlaneGranule)
        for (std::uint64_t band = std::min<std::uint64_t>(oh, kMaxVectorRepeats); band >= 1; --band)
            if (layoutBytes(l, p, band) <= ubBytes) return true;
    return false;
}

std::vector<LoweredKernel> lowerWindowedPool(const OpInstance& op, const ChipConfig& chip,
                                             std::uint64_t oh, std::uint64_t ow) {
    const TensorInfo& x = op.inputs[0];
    auto l = std::make_shared<AdaptiveLayout>();
    l->x = x.deviceAddr, l->y = op.outputs[0].deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    if (!sizeWindowedTiles(*l, x, oh, ow, placement.ubBytes))
        throwLoweringError(op, "one output row of 8 planes does not fit in UB");
    const std::uint64_t eb = bytesOf(l->dtype), p = l->planesPerTile;
    const std::uint64_t in = l->inRows * l->w * p, outs = l->outPitch * p;
    UbAllocator ub(placement.ubBytes, op.name);
    l->stage = ub.allocate(2 * l->stageStride, "input planes");
    l->inTable = ub.allocate(in * 4, "[h][w][P] gather offsets");
    if (eb != kF32Bytes) l->gathered = ub.allocate(in * eb, "[h][w][P] input");
    l->columns = ub.allocate(in * kF32Bytes, "[h][w][P] input in fp32");
    l->rows = ub.allocate(l->bandRows * l->w * p * kF32Bytes, "row window sums");
    l->pooled = ub.allocate(outs * kF32Bytes, "pooled [q][P]");
    if (eb != kF32Bytes)
        l->pooledCast = ub.allocate(outs * eb, "pooled [q][P] in the output dtype");
    l->outTable = ub.allocate(outs * 4, "[P][q] gather offsets");
    l->outStride = alignUp(outs * eb, kUbBlockBytes);
    l->out = ub.allocate(2 * l->outStride, "output planes");
    l->ramp = ub.allocate(std::max(in, outs) * 4, "index ramp");
    l->scratch = ub.allocate(std::max(in, outs) * 4, "index quotient");

    return {tiledVectorKernel<AdaptivePoolTiles>(op, placement, l, x.bytes(), l->units())};
}

std::vector<LoweredKernel> lowerAdaptiveAvgPool(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (x.shape.size() != 4 || !isFloat(x.dtype))
        throwLoweringError(op, "x must be a float [N,C,H,W] tensor");
    const auto size = op.intsAttr("output_size", {1, 1});
    if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
        throwLoweringError(op, "output_size must be [oh, ow]");
    if (op.outputs[0].elementCount() != x.shape[0] * x.shape[1] * size[0] * size[1] ||
        op.outputs[0].dtype != x.dtype)
        throwLoweringError(op, "y must be [N, C, oh, ow] of x's dtype");
    if (size[0] != 1 || size[1] != 1)
        return lowerWindowedPool(op, chip, static_cast<std::uint64_t>(size[0]), static_cast<std::uint64_t>(size[1]));
    // Output [1, 1] is CANN's ReduceMean over H·W (aclnnAdaptiveAvgPool2d's DoReduceMean): a
    // dynamic reduce binary, whose blocks first dispatch on their tiling case (§68). Its tiling
    // takes the transpose (or pad) case for an H·W row that is not whole 32 B blocks and fits the
    // case's UB share: runs of planes, transposed in UB (the windowed plan with one band); else the
    // normal last-axis case, one row a plane (the row kernel).
    AdaptiveLayout probe;
    const bool unalignedRows = x.shape[2] * x.shape[3] * static_cast<std::int64_t>(bytesOf(x.dtype)) %
                                   static_cast<std::int64_t>(kUbBlockBytes) != 0;
    auto kernels = unalignedRows && sizeWindowedTiles(probe, x, 1, 1, vectorPlacement(chip).ubBytes)
                       ? lowerWindowedPool(op, chip, 1, 1)
                       : lowerGlobalPool(op, chip);
    for (LoweredKernel& kernel : kernels) prependDslReduceDispatch(kernel, chip);
    return kernels;
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("AdaptiveAvgPool2d", lowerAdaptiveAvgPool);

}  // namespace ascendsim
