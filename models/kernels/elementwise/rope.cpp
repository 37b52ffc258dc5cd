// RotaryPositionEmbedding and RotaryPositionEmbeddingGrad (docs/op-catalog.md, "Ops of the LLM
// samples"): torch_npu's rotary embedding in the rotate-half mode on the layout MindSpeed uses,
// x [.., N, D] with cos/sin broadcast over the dims just before D (x [S,B,N,D], cos [S,B,1,D]):
// x row r reads table row r / N. With x = [x1 | x2] (halves of D), rotate_half(x) = [−x2 | x1]:
//   y  = x·cos + rotate_half(x)·sin
//   dx = dy·cos + rotate_halfᵀ(dy·sin),  rotate_halfᵀ(u) = [u2 | −u1]
// The forward is CANN's RotateHalf kernel (ops-transformer posembedding/rotary_position_embedding,
// rotate_half_bf16.h / rotate_half_base.h, tiling rope_rotate_half_tiling.cpp; docs/fidelity.md
// §128): x [S,B,N,D] against tables [S,B,1,D] is its "SBND" mode with S·B table lines split over
// the cores; a step takes storeSLines lines of cos and sin (contiguous), casts them to fp32 and
// negates sin's left halves once, then runs every head on its own: the head's lines as one
// strided move (storeSLines bursts of D elements, N·D apart in GM), cast, the halves swapped by
// two UB→UB copies (XNewCopy), x·cos + swapped·sin over the step's lines, cast back and stored
// with the same stride. So each head's loads and stores are bursts of one D row.
// The gradient keeps a tile of G table rows and their G·N x rows: cos and sin rows loaded once per
// position and applied to the N head rows by row-broadcast vector instructions
// (RowTile::withVector), so GM traffic is x, y and one pass over the tables. In fp32.
// dcos/dsin (optional outputs of the grad) are not produced: MindSpeed does not request them.
#include <algorithm>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_rows.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;

// What both layouts take from the op: x [.., heads, D] and the cos / sin tables of tableRows lines
// of D, broadcast over the heads.
struct RopeOperands {
    DataType dtype = DataType::Bf16;
    std::uint64_t heads = 1, length = 0, half = 0, tableRows = 0;
    std::uint64_t xGm = 0, cosGm = 0, sinGm = 0, yGm = 0;
};

void bindRopeOperands(RopeOperands& l, const OpInstance& op, std::uint64_t heads, std::uint64_t d,
                      std::uint64_t tableRows) {
    l.dtype = op.inputs[0].dtype;
    l.heads = heads;
    l.length = d;
    l.half = d / 2;
    l.tableRows = tableRows;
    l.xGm = op.inputs[0].deviceAddr;
    l.cosGm = op.inputs[1].deviceAddr;
    l.sinGm = op.inputs[2].deviceAddr;
    l.yGm = op.outputs[0].deviceAddr;
}

struct RopeGradLayout : RopeOperands {
    std::uint64_t positionsPerTile = 1;
    // UB: staging (double-buffered, dtype) and fp32 working copies.
    std::uint64_t xStage = 0, xStageHalf = 0, cosStage = 0, sinStage = 0, tableStageHalf = 0, yStage = 0;
    std::uint64_t xF32 = 0, cosF32 = 0, sinF32 = 0, yF32 = 0, rotated = 0;
};

// The gradient's tiles: G table rows and their G·N x rows.
class RopeGradTiles final : public TileSource {
public:
    RopeGradTiles(std::shared_ptr<const RopeGradLayout> l, UnitRange positions) : l_(std::move(l)), positions_(positions) {}
    std::uint64_t tileCount() const override { return ceilDiv(positions_.size(), l_->positionsPerTile); }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const RopeGradLayout& l = *l_;
        const std::uint64_t first = positions_.begin + index * l.positionsPerTile;
        const std::uint64_t g = std::min(l.positionsPerTile, positions_.end - first);
        const std::uint64_t rows = g * l.heads, eb = bytesOf(l.dtype), d = l.length;
        code.scalarCycles = static_cast<std::uint32_t>(g);
        const std::uint64_t xs = l.xStage + half * l.xStageHalf, ys = l.yStage + half * l.xStageHalf;
        const std::uint64_t cs = l.cosStage + half * l.tableStageHalf, ss = l.sinStage + half * l.tableStageHalf;
        code.load.push_back(moveRowsToUb(l.xGm + first * l.heads * d * eb, xs, 1, rows * d * eb, rows * d * eb));
        code.load.push_back(moveRowsToUb(l.cosGm + first * d * eb, cs, 1, g * d * eb, g * d * eb));
        code.load.push_back(moveRowsToUb(l.sinGm + first * d * eb, ss, 1, g * d * eb, g * d * eb));
        auto toF32 = [&](std::uint64_t dst, std::uint64_t src, std::uint64_t count) {
            if (l.dtype == kF32) emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = dst, .src0 = src}, count);
            else emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = dst, .src0 = src}, count, 0.0f, l.dtype);
        };
        toF32(l.xF32, xs, rows * d);
        toF32(l.cosF32, cs, g * d);
        toF32(l.sinF32, ss, g * d);
        const std::uint64_t halfBytes = l.half * 4;
        for (std::uint64_t p = 0; p < g; ++p) {
            RowTile t(code.compute);
            t.rows = static_cast<std::uint32_t>(l.heads);
            t.length = d;
            t.pitch = d;
            const std::uint64_t x = l.xF32 + p * l.heads * d * 4, y = l.yF32 + p * l.heads * d * 4;
            const std::uint64_t rot = l.rotated + p * l.heads * d * 4;
            const std::uint64_t cosRow = l.cosF32 + p * d * 4, sinRow = l.sinF32 + p * d * 4;
            // u = dy·sin; rot = [u2 | −u1]
            t.withVector(VectorOp::Mul, y, x, sinRow);
            t.slice(VectorOp::Copy, rot, y + halfBytes, l.half);
            t.slice(VectorOp::Muls, rot + halfBytes, y, l.half, -1.0f);
            t.withVector(VectorOp::Mul, y, x, cosRow);
            t.flat(VectorOp::Add, y, y, rot);
        }
        if (l.dtype == kF32) emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = ys, .src0 = l.yF32}, rows * d);
        else emitVectorRange(code.compute, VectorOp::Cast, l.dtype, {.dst = ys, .src0 = l.yF32}, rows * d, 0.0f, kF32);
        code.store.push_back(moveRowsToGm(ys, l.yGm + first * l.heads * d * eb, 1, rows * d * eb, rows * d * eb));
    }

private:
    std::shared_ptr<const RopeGradLayout> l_;
    UnitRange positions_;
};

// CANN's tiling (rope_rotate_half_tiling.cpp GetStoreLines): UB less a 2 KiB reserve cut into 2 ×
// 12 pieces for 16-bit types (staging and fp32 working buffers), 2 × 4 for fp32, each holding
// storeSLines rows of D.
constexpr std::uint64_t kRopeUbReserveBytes = 2048;
constexpr std::uint64_t kRopeUbPieces16Bit = 2 * 12;
constexpr std::uint64_t kRopeUbPiecesFp32 = 2 * 4;

struct RopeHeadLayout : RopeOperands {
    std::uint64_t linesPerStep = 1;
    // UB: double-buffered staging in the tensors' dtype, single fp32 working buffers (CANN's
    // xBuf, xNewBuf, cosBuf, sinBuf; fp32 tensors are copied into them as 16-bit ones are cast).
    std::uint64_t xStage = 0, yStage = 0, cosStage = 0, sinStage = 0, stageHalf = 0;
    std::uint64_t xF32 = 0, swappedF32 = 0, cosF32 = 0, sinF32 = 0;
};

// One tile is one head of one step (CANN's CopyInX / Compute / CopyOut); the step's first head
// also loads and prepares the step's cos and sin lines.
class RopeHeadTiles final : public TileSource {
public:
    RopeHeadTiles(std::shared_ptr<const RopeHeadLayout> l, UnitRange lines) : l_(std::move(l)), lines_(lines) {}
    std::uint64_t tileCount() const override { return ceilDiv(lines_.size(), l_->linesPerStep) * l_->heads; }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const RopeHeadLayout& l = *l_;
        const std::uint64_t step = index / l.heads, head = index % l.heads;
        const std::uint64_t first = lines_.begin + step * l.linesPerStep;
        const std::uint64_t lines = std::min(l.linesPerStep, lines_.end - first);
        const std::uint64_t eb = bytesOf(l.dtype), d = l.length, rowBytes = d * eb;
        const std::uint64_t stage = half * l.stageHalf;
        const std::uint64_t xs = l.xStage + stage, ys = l.yStage + stage;
        const std::uint64_t cos = l.cosF32, sin = l.sinF32, x = l.xF32, swapped = l.swappedF32;
        auto toF32 = [&](std::uint64_t dst, std::uint64_t src, std::uint64_t count) {
            if (l.dtype == kF32) emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = dst, .src0 = src}, count);
            else emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = dst, .src0 = src}, count, 0.0f, l.dtype);
        };
        if (head == 0) {  // the step's tables, once for all its heads
            const std::uint64_t cs = l.cosStage + stage, ss = l.sinStage + stage;
            code.load.push_back(moveRowsToUb(l.cosGm + first * rowBytes, cs, 1, lines * rowBytes, lines * rowBytes));
            code.load.push_back(moveRowsToUb(l.sinGm + first * rowBytes, ss, 1, lines * rowBytes, lines * rowBytes));
            toF32(cos, cs, lines * d);
            toF32(sin, ss, lines * d);
            RowTile negate(code.compute);  // SinCompute: sin's left half of every line × −1
            negate.rows = static_cast<std::uint32_t>(lines);
            negate.length = d;
            negate.pitch = d;
            negate.slice(VectorOp::Muls, sin, sin, l.half, -1.0f);
        }
        const std::uint64_t headGm = (first * l.heads + head) * rowBytes, gmStride = l.heads * rowBytes;
        code.load.push_back(moveStridedRowsToUb(l.xGm + headGm, xs, static_cast<std::uint32_t>(lines), rowBytes,
                                                gmStride, rowBytes));
        toF32(x, xs, lines * d);
        // XNewCopy: the halves swapped, one UB→UB copy per half, a burst per line.
        const std::uint64_t halfBytes = l.half * 4;
        for (const bool leftToRight : {true, false}) {
            DataMove m{.src = MemSpace::UB, .dst = MemSpace::UB, .srcType = kF32, .dstType = kF32};
            m.srcAddr = x + (leftToRight ? 0 : halfBytes);
            m.dstAddr = swapped + (leftToRight ? halfBytes : 0);
            m.burstCount = static_cast<std::uint32_t>(lines);
            m.burstBytes = static_cast<std::uint32_t>(halfBytes);
            m.srcGapBytes = m.dstGapBytes = static_cast<std::uint32_t>(halfBytes);
            code.compute.push_back(Instruction::move(m));
        }
        const std::uint64_t count = lines * d;
        emitVectorRange(code.compute, VectorOp::Mul, kF32, {.dst = x, .src0 = x, .src1 = cos}, count);
        emitVectorRange(code.compute, VectorOp::Mul, kF32, {.dst = swapped, .src0 = swapped, .src1 = sin}, count);
        emitVectorRange(code.compute, VectorOp::Add, kF32, {.dst = swapped, .src0 = swapped, .src1 = x}, count);
        if (l.dtype == kF32) emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = ys, .src0 = swapped}, count);
        else emitVectorRange(code.compute, VectorOp::Cast, l.dtype, {.dst = ys, .src0 = swapped}, count, 0.0f, kF32);
        DataMove out{.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = ys, .dstAddr = l.yGm + headGm};
        out.burstCount = static_cast<std::uint32_t>(lines);
        out.burstBytes = static_cast<std::uint32_t>(rowBytes);
        out.dstGapBytes = static_cast<std::uint32_t>(gmStride - rowBytes);
        code.store.push_back(Instruction::move(out));
    }

private:
    std::shared_ptr<const RopeHeadLayout> l_;
    UnitRange lines_;
};

// The forward as CANN's RotateHalf kernel lays it out (see the file comment).
LoweredKernel lowerRopeByHeads(const OpInstance& op, const ChipConfig& chip, std::uint64_t heads, std::uint64_t d,
                               std::uint64_t tableRows) {
    const TensorInfo& x = op.inputs[0];
    auto l = std::make_shared<RopeHeadLayout>();
    bindRopeOperands(*l, op, heads, d, tableRows);
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t eb = bytesOf(x.dtype);
    const bool f32 = x.dtype == kF32;
    if (placement.ubBytes <= kRopeUbReserveBytes) throwLoweringError(op, "UB is too small");
    const std::uint64_t pieces = f32 ? kRopeUbPiecesFp32 : kRopeUbPieces16Bit;
    const std::uint64_t cannLines = (placement.ubBytes - kRopeUbReserveBytes) / pieces / (eb * d);
    // This layout's buffers per line (two staging halves of x, y, cos, sin; fp32 x, swapped halves,
    // cos and sin): CANN's split holds them for 16-bit types; for fp32 the working copies can
    // leave fewer lines than its 8 pieces give.
    const std::uint64_t perLine = 8 * d * eb + 4 * d * 4 + 9 * kUbBlockBytes;
    const std::uint64_t fitLines = placement.ubBytes / perLine;
    l->linesPerStep = std::min({cannLines, fitLines, tableRows});
    if (l->linesPerStep == 0) throwLoweringError(op, "one line of D does not fit in UB");
    const std::uint64_t lines = l->linesPerStep;
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageHalf = alignUp(lines * d * eb, kUbBlockBytes);
    l->xStage = ub.allocate(2 * l->stageHalf, "x lines");
    l->yStage = ub.allocate(2 * l->stageHalf, "output lines");
    l->cosStage = ub.allocate(2 * l->stageHalf, "cos lines");
    l->sinStage = ub.allocate(2 * l->stageHalf, "sin lines");
    l->swappedF32 = ub.allocate(lines * d * 4, "swapped halves");
    l->xF32 = ub.allocate(lines * d * 4, "fp32 x");
    l->cosF32 = ub.allocate(lines * d * 4, "fp32 cos");
    l->sinF32 = ub.allocate(lines * d * 4, "fp32 sin");
    return tiledVectorKernel<RopeHeadTiles>(op, placement, l, 2 * x.bytes(), tableRows);
}

std::vector<LoweredKernel> lowerRope(const OpInstance& op, const ChipConfig& chip, bool gradient) {
    requireOperands(op, 3, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype) || x.shape.empty()) throwLoweringError(op, "x must be a float tensor of rank ≥ 1");
    const auto d = static_cast<std::uint64_t>(x.shape.back());
    if (d % 16 != 0) throwLoweringError(op, "the last dim of x must be a multiple of 16 (32 B half rows)");
    for (std::size_t t = 1; t < 3; ++t)
        if (op.inputs[t].dtype != x.dtype || op.inputs[t].shape.empty() || static_cast<std::uint64_t>(op.inputs[t].shape.back()) != d)
            throwLoweringError(op, "cos and sin must have x's dtype and last dim");
    if (op.outputs[0].elementCount() != x.elementCount()) throwLoweringError(op, "the output must have x's shape");
    // Table rows are broadcast over the dims right before D: x row r reads table row r / heads.
    const std::uint64_t xRows = static_cast<std::uint64_t>(x.elementCount()) / d;
    const std::uint64_t tableRows = static_cast<std::uint64_t>(op.inputs[1].elementCount()) / d;
    if (op.inputs[2].elementCount() != op.inputs[1].elementCount() || tableRows == 0 || xRows % tableRows != 0)
        throwLoweringError(op, "cos and sin must broadcast over x's dims just before D");
    const std::size_t rank = x.shape.size();
    std::uint64_t inner = 1;
    for (std::size_t i = rank - 1; i-- > 0 && inner < xRows / tableRows;) inner *= static_cast<std::uint64_t>(x.shape[i]);
    if (inner != xRows / tableRows) throwLoweringError(op, "cos and sin must broadcast over x's dims just before D");

    if (!gradient) return {lowerRopeByHeads(op, chip, xRows / tableRows, d, tableRows)};
    auto l = std::make_shared<RopeGradLayout>();
    bindRopeOperands(*l, op, xRows / tableRows, d, tableRows);
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t eb = bytesOf(x.dtype);
    // Per position: x and y staging (2 halves each), 2 tables × 2 halves, fp32 x, y, rotated, tables.
    const std::uint64_t rowBytes = l->heads * d;
    const std::uint64_t perPosition = 4 * rowBytes * eb + 4 * d * eb + 3 * rowBytes * 4 + 2 * d * 4 + 4 * kUbBlockBytes;
    l->positionsPerTile = std::max<std::uint64_t>(1, std::min(tableRows, placement.ubBytes / perPosition));
    if (perPosition > placement.ubBytes) throwLoweringError(op, "one position's rows do not fit in UB");
    const std::uint64_t g = l->positionsPerTile;
    UbAllocator ub(placement.ubBytes, op.name);
    l->xStageHalf = alignUp(g * rowBytes * eb, kUbBlockBytes);
    l->tableStageHalf = alignUp(g * d * eb, kUbBlockBytes);
    l->xStage = ub.allocate(2 * l->xStageHalf, "x rows");
    l->yStage = ub.allocate(2 * l->xStageHalf, "output rows");
    l->cosStage = ub.allocate(2 * l->tableStageHalf, "cos rows");
    l->sinStage = ub.allocate(2 * l->tableStageHalf, "sin rows");
    l->xF32 = ub.allocate(g * rowBytes * 4, "fp32 x");
    l->yF32 = ub.allocate(g * rowBytes * 4, "fp32 output");
    l->rotated = ub.allocate(g * rowBytes * 4, "rotated halves");
    l->cosF32 = ub.allocate(g * d * 4, "fp32 cos");
    l->sinF32 = ub.allocate(g * d * 4, "fp32 sin");
    return {tiledVectorKernel<RopeGradTiles>(op, placement, l, 2 * x.bytes(), tableRows)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("RotaryPositionEmbedding", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerRope(op, chip, false);
});
ASCENDSIM_REGISTER_KERNEL("RotaryPositionEmbeddingGrad", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerRope(op, chip, true);
});

}  // namespace ascendsim
