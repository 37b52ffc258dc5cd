// How SoftmaxV2 over a middle axis is tiled (softmax_columns.h), like an Ascend C kernel working
// on [L, chunk] tiles in UB: per tile (one outer index, one chunk of inner columns, double
// buffered) MTE2 loads L strided rows, V casts them to fp32, folds the rows with a halving tree
// of Max into a scratch tree (max per column), subtracts that row from every row (one instruction
// per 256 B column with repeat stride = row pitch and a zero stride on the max row), takes Exp,
// folds with Add (sum per column), divides, casts back, and MTE3 stores L strided rows.
#include "models/kernels/normalization/softmax_columns.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kF32Bytes = 4;
// The widest row pitch (fp32 elements) whose repeat stride fits the 8-bit field.
constexpr std::uint64_t kMaxPitch = kMaxRepeatStrideBlocks * kUbBlockBytes / kF32Bytes;

struct SoftmaxColumnLayout {
    DataType dtype = kF32;
    std::uint64_t outer = 0, length = 0, inner = 0,
                  chunk = 0;  // chunk: columns per tile (the pitch)
    std::uint64_t x = 0, y = 0;
    std::uint64_t stage = 0, stageStride = 0, work = 0, tree = 0, out = 0, outStride = 0;

    std::uint64_t chunksPerRow() const { return ceilDiv(inner, chunk); }
    std::uint64_t units() const { return outer * chunksPerRow(); }
};

// dst row r = src row r `op` the one row at `row`, for `rows` rows of `pitch` fp32 elements:
// one instruction per 256 B column of the rows (≤255 rows each), repeat stride = the row pitch,
// the shared row read with repeat stride 0.
void emitRowsWithRow(std::vector<Instruction>& code, VectorOp op, std::uint64_t dst,
                     std::uint64_t src, std::uint64_t row, std::uint64_t rows,
                     std::uint64_t pitch) {
    const std::uint64_t perRepeat = elementsPerRepeat(kF32);
    const auto pitchBlocks = static_cast<std::uint16_t>(pitch * kF32Bytes / kUbBlockBytes);
    for (std::uint64_t column = 0; column < pitch; column += perRepeat) {
        for (std::uint64_t first = 0; first < rows; first += kMaxVectorRepeats) {
            VectorInstr v{.op = op, .dtype = kF32, .srcType = kF32};
            v.repeats = static_cast<std::uint16_t>(
                std::min<std::uint64_t>(kMaxVectorRepeats, rows - first));
            v.mask = static_cast<std::uint16_t>(std::min(perRepeat, pitch - column));
            v.dst = dst + (first * pitch + column) * kF32Bytes;
            v.src0 = src + (first * pitch + column) * kF32Bytes;
            v.src1 = row + column * kF32Bytes;
            v.dstRepeatStride = v.src0RepeatStride = pitchBlocks;
            v.src1RepeatStride = 0;
            code.push_back(Instruction::vector(v));
        }
    }
}

// Row 0 of `tree` (⌈rows/2⌉ rows) = the `op` fold of `rows` rows at `src`, which stays intact:
// the first halving step writes into the tree, the later ones fold the tree in place.
void emitFoldRows(std::vector<Instruction>& code, VectorOp op, std::uint64_t tree,
                  std::uint64_t src, std::uint64_t rows, std::uint64_t pitch) {
    const std::uint64_t rowBytes = pitch * kF32Bytes;
    if (rows == 1) {
        emitVectorRange(code, VectorOp::Copy, kF32, {.dst = tree, .src0 = src}, pitch);
        return;
    }
    std::uint64_t half = rows / 2;
    emitVectorRange(code, op, kF32,
                    {.dst = tree, .src0 = src, .src1 = src + (rows - half) * rowBytes},
                    half * pitch);
    if (rows % 2 == 1)  // the middle row has no partner yet
        emitVectorRange(code, VectorOp::Copy, kF32,
                        {.dst = tree + half * rowBytes, .src0 = src + half * rowBytes}, pitch);
    for (std::uint64_t m = rows - half; m > 1; m -= half) {
        half = m / 2;
        emitVectorRange(code, op, kF32,
                        {.dst = tree, .src0 = tree, .src1 = tree + (m - half) * rowBytes},
                        half * pitch);
    }
}

class SoftmaxColumnTiles final : public TileSource {
  public:
    SoftmaxColumnTiles(std::shared_ptr<const SoftmaxColumnLayout> layout, UnitRange units)
        : l_(std::move(layout)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const SoftmaxColumnLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t a = unit / l.chunksPerRow(), column = unit % l.chunksPerRow() * l.chunk;
        const std::uint64_t columns = std::min(l.chunk, l.inner - column), pitch = l.chunk;
        const std::uint64_t eb = bytesOf(l.dtype), gmFirst = (a * l.length * l.inner + column) * eb;
        DataMove in{
            .src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
        in.srcAddr = l.x + gmFirst;
        in.dstAddr = l.stage + half * l.stageStride;
        in.burstCount = static_cast<std::uint32_t>(l.length);
        in.burstBytes = static_cast<std::uint32_t>(columns * eb);
        in.srcGapBytes = static_cast<std::uint32_t>((l.inner - columns) * eb);
        in.dstGapBytes = static_cast<std::uint32_t>((pitch - columns) * eb);
        code.load.push_back(Instruction::move(in));

        const std::uint64_t count = l.length * pitch, out = l.out + half * l.outStride;
        std::uint64_t work = in.dstAddr;
        if (l.dtype != kF32) {
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.work, .src0 = work},
                            count, 0.0f, l.dtype);
            work = l.work;
        }
        emitFoldRows(code.compute, VectorOp::Max, l.tree, work, l.length, pitch);
        emitRowsWithRow(code.compute, VectorOp::Sub, work, work, l.tree, l.length, pitch);
        emitVectorRange(code.compute, VectorOp::Exp, kF32, {.dst = work, .src0 = work}, count);
        emitFoldRows(code.compute, VectorOp::Add, l.tree, work, l.length, pitch);
        emitRowsWithRow(code.compute, VectorOp::Div, l.dtype == kF32 ? out : work, work, l.tree,
                        l.length, pitch);
        if (l.dtype != kF32)
            emitVectorRange(code.compute, VectorOp::Cast, l.dtype, {.dst = out, .src0 = work},
                            count, 0.0f, kF32);

        DataMove store{
            .src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
        store.srcAddr = out;
        store.dstAddr = l.y + gmFirst;
        store.burstCount = static_cast<std::uint32_t>(l.length);
        store.burstBytes = in.burstBytes;
        store.srcGapBytes = in.dstGapBytes;
        store.dstGapBytes = in.srcGapBytes;
        code.store.push_back(Instruction::move(store));
        code.scalarCycles = static_cast<std::uint32_t>(l.length);
    }

  private:
    std::shared_ptr<const SoftmaxColumnLayout> l_;
    UnitRange units_;
};

}  // namespace

LoweredKernel lowerSoftmaxAcrossRows(const OpInstance& op, const ChipConfig& chip,
                                     std::uint64_t outer, std::uint64_t axisLength,
                                     std::uint64_t inner) {
    const VectorPlacement placement = vectorPlacement(chip);
    auto l = std::make_shared<SoftmaxColumnLayout>();
    l->dtype = op.inputs[0].dtype;
    l->outer = outer, l->length = axisLength, l->inner = inner;
    l->x = op.inputs[0].deviceAddr, l->y = op.outputs[0].deviceAddr;
    if (op.outputs[0].dtype != l->dtype) throwLoweringError(op, "y must have x's dtype");
    const std::uint64_t eb = bytesOf(l->dtype);
    // UB bytes per column: staged input and output halves, the fp32 copy (not for fp32 input,
    // which is computed in its staging half) and the fold tree.
    const std::uint64_t perColumn = 4 * axisLength * eb +
                                    (l->dtype == kF32 ? 0 : axisLength * kF32Bytes) +
                                    ceilDiv(axisLength, 2) * kF32Bytes;
    const std::uint64_t granule = kUbBlockBytes / std::min(eb, kF32Bytes);
    const std::uint64_t budget = placement.ubBytes - 8 * kUbBlockBytes;
    const std::uint64_t widest = std::min(budget / perColumn, kMaxPitch) / granule * granule;
    if (widest == 0)
        throwLoweringError(op, "softmax over an axis of " + std::to_string(axisLength) +
                                   " rows does not fit in UB");
    l->chunk = std::min(widest, alignUp(inner, granule));
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageStride = alignUp(axisLength * l->chunk * eb, kUbBlockBytes);
    l->stage = ub.allocate(2 * l->stageStride, "input rows");
    l->outStride = l->stageStride;
    l->out = ub.allocate(2 * l->outStride, "output rows");
    if (l->dtype != kF32) l->work = ub.allocate(axisLength * l->chunk * kF32Bytes, "fp32 rows");
    l->tree = ub.allocate(ceilDiv(axisLength, 2) * l->chunk * kF32Bytes, "fold tree");

    return tiledVectorKernel<SoftmaxColumnTiles>(op, placement, l, 2 * op.inputs[0].bytes(), l->units());
}

}  // namespace ascendsim
