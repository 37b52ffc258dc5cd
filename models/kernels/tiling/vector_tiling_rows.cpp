#include "models/kernels/tiling/vector_tiling_rows.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kF32Bytes = 4;
}  // namespace

void RowTile::flat(VectorOp op, std::uint64_t dst, std::uint64_t a, std::uint64_t b, float scalar) {
    emitVectorRange(code, op, kF32, {.dst = dst, .src0 = a, .src1 = b}, count(), scalar);
}

void RowTile::values(VectorOp op, std::uint64_t dst, std::uint64_t a, std::uint64_t b, float scalar) {
    emitVectorRange(code, op, kF32, {.dst = dst, .src0 = a, .src1 = b}, rows, scalar);
}

void RowTile::reduce(VectorOp op, std::uint64_t src, std::uint64_t dstValues) {
    emitReduceRows(code, op, kF32, src, rows, length, pitch * kF32Bytes, scratch, dstValues);
}

namespace {
// dst row r = src row r op other, where `other` advances `otherRowBytes` per row and reads
// block-wise (blocks) or element-wise (a vector row).
void perRow(std::vector<Instruction>& code, VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t other,
            std::uint32_t rows, std::uint64_t pitch, bool otherIsBlock, bool otherFirst) {
    const std::uint64_t rowBytes = pitch * kF32Bytes;
    const std::uint64_t otherRowBytes = otherIsBlock ? kUbBlockBytes : 0;
    // Rows of a few repeats (or less): one instruction per 64-element column chunk, its repeats walking the
    // rows (repeat stride = the row pitch), when that issues fewer instructions than one range per
    // row — an Ascend C kernel loops over the shorter dimension and lets the repeats take the
    // longer one. A block operand repeats its row's block (block stride 0) in every chunk.
    const std::uint64_t perRepeat = elementsPerRepeat(kF32), chunks = ceilDiv(pitch, perRepeat);
    const std::uint64_t byChunk = chunks * ceilDiv(rows, kMaxVectorRepeats), byRow = rows * ceilDiv(chunks, kMaxVectorRepeats);
    if (rowBytes / kUbBlockBytes <= kMaxRepeatStrideBlocks && byChunk <= byRow) {
        const auto rowStride = static_cast<std::uint16_t>(rowBytes / kUbBlockBytes);
        const auto otherStride = static_cast<std::uint16_t>(otherRowBytes / kUbBlockBytes);
        for (std::uint64_t c = 0; c < pitch; c += perRepeat) {
            const std::uint64_t columnBytes = c * kF32Bytes, otherColumnBytes = otherIsBlock ? 0 : columnBytes;
            for (std::uint64_t first = 0; first < rows; first += kMaxVectorRepeats) {
                VectorInstr v{.op = op, .dtype = kF32, .srcType = kF32};
                v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, rows - first));
                v.mask = static_cast<std::uint16_t>(std::min(perRepeat, pitch - c));
                v.dst = dst + first * rowBytes + columnBytes;
                v.dstRepeatStride = rowStride;
                const std::uint64_t rowAddr = src + first * rowBytes + columnBytes;
                const std::uint64_t otherAddr = other + first * otherRowBytes + otherColumnBytes;
                const std::uint8_t otherBlockStride = otherIsBlock ? 0 : 1;
                if (otherFirst) {
                    v.src0 = otherAddr, v.src0RepeatStride = otherStride, v.src0BlockStride = otherBlockStride;
                    v.src1 = rowAddr, v.src1RepeatStride = rowStride;
                } else {
                    v.src0 = rowAddr, v.src0RepeatStride = rowStride;
                    v.src1 = otherAddr, v.src1RepeatStride = otherStride, v.src1BlockStride = otherBlockStride;
                }
                code.push_back(Instruction::vector(v));
            }
        }
        return;
    }
    for (std::uint32_t r = 0; r < rows; ++r) {
        const std::uint64_t rowAddr = src + r * rowBytes, otherAddr = other + r * otherRowBytes;
        VectorRange range{.dst = dst + r * rowBytes};
        if (otherFirst) range.src0 = otherAddr, range.src1 = rowAddr, range.src0IsBlock = otherIsBlock;
        else range.src0 = rowAddr, range.src1 = otherAddr, range.src1IsBlock = otherIsBlock;
        emitVectorRange(code, op, kF32, range, pitch);
    }
}
}  // namespace

void RowTile::withValues(VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t valuesAddr,
                         bool valuesFirst) {
    emitExpandToBlocks(code, kF32, blocks, valuesAddr, rows, table);
    perRow(code, op, dst, src, blocks, rows, pitch, true, valuesFirst);
}

void RowTile::withVector(VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t vector) {
    perRow(code, op, dst, src, vector, rows, pitch, false, false);
}

void RowTile::slice(VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t elements, float scalar) {
    const std::uint64_t rowBytes = pitch * kF32Bytes;
    if (elements <= elementsPerRepeat(kF32)) {
        for (std::uint64_t first = 0; first < rows; first += kMaxVectorRepeats) {
            VectorInstr v{.op = op, .dtype = kF32, .srcType = kF32};
            v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, rows - first));
            v.mask = static_cast<std::uint16_t>(elements);
            v.dst = dst + first * rowBytes;
            v.src0 = src + first * rowBytes;
            v.src1 = v.src0;
            v.dstRepeatStride = v.src0RepeatStride = v.src1RepeatStride = static_cast<std::uint16_t>(rowBytes / kUbBlockBytes);
            v.scalar = scalar;
            code.push_back(Instruction::vector(v));
        }
        return;
    }
    for (std::uint32_t r = 0; r < rows; ++r)
        emitVectorRange(code, op, kF32, {.dst = dst + r * rowBytes, .src0 = src + r * rowBytes, .src1 = src + r * rowBytes},
                        elements, scalar);
}

namespace {

struct Staged {
    DataType dtype = kF32;
    std::uint64_t gm = 0;
    std::uint64_t half0 = 0, halfStride = 0;  // MTE staging (double-buffered)
    std::uint64_t f32 = 0;                    // fp32 working copy (== staging half when fp32)
    std::uint64_t period = 0;                 // row inputs: rows of the tensor (0 = all rows)
    bool needsCast() const { return dtype != kF32; }
    std::uint64_t staging(std::uint32_t half) const { return half0 + half * halfStride; }
    std::uint64_t working(std::uint32_t half) const { return needsCast() ? f32 : staging(half); }
};

struct RowLayout {
    RowKernelSpec spec;
    std::uint64_t pitch = 0, rowsPerTile = 0;
    std::vector<Staged> rowInputs, vectorInputs, rowOutputs, valueOutputs;
    std::vector<std::uint64_t> temps, valueTemps;
    std::uint64_t blocks = 0, table = 0, scratch = 0;
};

class RowTiles final : public TileSource {
public:
    RowTiles(std::shared_ptr<const RowLayout> layout, UnitRange range) : layout_(std::move(layout)), range_(range) {}

    std::uint64_t tileCount() const override { return ceilDiv(range_.size(), layout_->rowsPerTile); }
    std::uint32_t buffers() const override { return layout_->spec.buffers; }

    void setup(TileCode& code) override {
        const RowLayout& l = *layout_;
        emitBlockOffsetTable(code.compute, kF32, l.table, l.rowsPerTile * elementsPerBlock(kF32));
        for (const auto& v : l.vectorInputs) {
            const std::uint64_t eb = bytesOf(v.dtype);
            code.load.push_back(moveRowsToUb(v.gm, v.staging(0), 1, l.spec.length * eb, l.spec.length * eb));
            if (v.needsCast())
                emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = v.f32, .src0 = v.staging(0)}, l.pitch,
                                0.0f, v.dtype);
        }
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const RowLayout& l = *layout_;
        const std::uint64_t first = range_.begin + index * l.rowsPerTile;
        const auto rows = static_cast<std::uint32_t>(std::min(l.rowsPerTile, range_.end - first));
        const std::uint64_t length = l.spec.length;
        for (const auto& in : l.rowInputs) {
            const std::uint64_t eb = bytesOf(in.dtype);
            if (in.period == 0) {
                code.load.push_back(moveRowsToUb(in.gm + first * length * eb, in.staging(half), rows, length * eb, l.pitch * eb));
            } else {
                for (std::uint64_t k = 0; k < rows;) {  // wraps at the period: one move per run
                    const std::uint64_t source = (first + k) % in.period;
                    const std::uint64_t run = std::min<std::uint64_t>(rows - k, in.period - source);
                    code.load.push_back(moveRowsToUb(in.gm + source * length * eb, in.staging(half) + k * l.pitch * eb,
                                                     static_cast<std::uint32_t>(run), length * eb, l.pitch * eb));
                    k += run;
                }
            }
            if (in.needsCast())
                emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = in.f32, .src0 = in.staging(half)},
                                rows * l.pitch, 0.0f, in.dtype);
        }
        // With one buffer the staged inputs are free once cast to fp32 (CANN's RmsNorm frees x after
        // its Cast): the next tile's load may start there.
        const bool inputsCast = std::all_of(l.rowInputs.begin(), l.rowInputs.end(),
                                            [](const Staged& in) { return in.needsCast(); });
        if (l.spec.buffers == 1 && inputsCast) code.stagedInputsCastAt = code.compute.size();
        RowTile tile(code.compute);
        tile.rows = rows;
        tile.length = length;
        tile.pitch = l.pitch;
        for (const auto& s : l.rowInputs) tile.inputs.push_back(s.working(half));
        for (const auto& s : l.vectorInputs) tile.vectors.push_back(s.working(0));
        for (const auto& s : l.rowOutputs) tile.outputs.push_back(s.working(half));
        for (const auto& s : l.valueOutputs) tile.valueOutputs.push_back(s.working(half));
        tile.temps = l.temps;
        tile.valueTemps = l.valueTemps;
        tile.blocks = l.blocks;
        tile.table = l.table;
        tile.scratch = l.scratch;
        l.spec.compute(tile);
        for (const auto& out : l.rowOutputs) {
            const std::uint64_t eb = bytesOf(out.dtype);
            if (out.needsCast())
                emitVectorRange(code.compute, VectorOp::Cast, out.dtype, {.dst = out.staging(half), .src0 = out.f32},
                                rows * l.pitch, 0.0f, kF32);
            code.store.push_back(moveRowsToGm(out.staging(half), out.gm + first * length * eb, rows, length * eb,
                                              l.pitch * eb));
        }
        for (const auto& out : l.valueOutputs) {
            const std::uint64_t eb = bytesOf(out.dtype);
            if (out.needsCast())
                emitVectorRange(code.compute, VectorOp::Cast, out.dtype, {.dst = out.staging(half), .src0 = out.f32},
                                rows, 0.0f, kF32);
            code.store.push_back(moveRowsToGm(out.staging(half), out.gm + first * eb, 1, rows * eb, rows * eb));
        }
        code.scalarCycles = rows;
    }

private:
    std::shared_ptr<const RowLayout> layout_;
    UnitRange range_;
};

}  // namespace

namespace {

// UB bytes of a tile: `fixed` once, `perTileRow` per row, and the padded row pitch.
struct RowKernelUb {
    std::uint64_t fixed = 0, perTileRow = 0, pitch = 0;
};

RowKernelUb rowKernelUb(const RowKernelSpec& spec) {
    const std::uint64_t staged = spec.buffers;  // copies of each staging buffer
    std::uint64_t minBytes = kF32Bytes, perElement = (spec.temps + spec.rowOutputs.size()) * kF32Bytes,
                  perRow = (spec.valueTemps + spec.valueOutputs.size()) * kF32Bytes + 2 * kUbBlockBytes;
    perRow += reduceRowsScratchBytes(kF32, 2, spec.length) / 2;  // per-row partials
    std::uint64_t buffers = spec.temps + spec.valueTemps + 4;
    for (const auto& t : spec.rowInputs) {
        perElement += staged * bytesOf(t.dtype) + (t.dtype != kF32 ? kF32Bytes : 0);
        minBytes = std::min<std::uint64_t>(minBytes, bytesOf(t.dtype));
        buffers += 3;
    }
    for (const auto& t : spec.rowOutputs) {
        perElement += staged * bytesOf(t.dtype);
        minBytes = std::min<std::uint64_t>(minBytes, bytesOf(t.dtype));
        buffers += 3;
    }
    for (const auto& t : spec.valueOutputs) perRow += staged * bytesOf(t.dtype), buffers += 3;
    const std::uint64_t pitch = alignUp(spec.length, kUbBlockBytes / minBytes);
    std::uint64_t fixed = (buffers + 2 * spec.vectorInputs.size()) * kUbBlockBytes;
    for (const auto& t : spec.vectorInputs) fixed += pitch * (bytesOf(t.dtype) + kF32Bytes);
    return {fixed, pitch * perElement + perRow, pitch};
}

}  // namespace

bool rowKernelFits(const ChipConfig& chip, const RowKernelSpec& spec) {
    const RowKernelUb ub = rowKernelUb(spec);
    return ub.fixed + ub.perTileRow <= vectorPlacement(chip).ubBytes;
}

LoweredKernel lowerRowKernel(const OpInstance& op, const ChipConfig& chip, RowKernelSpec spec) {
    const VectorPlacement placement = vectorPlacement(chip);
    auto layout = std::make_shared<RowLayout>();
    const RowKernelUb sizes = rowKernelUb(spec);
    const std::uint64_t fixed = sizes.fixed, perTileRow = sizes.perTileRow, pitch = sizes.pitch;
    if (fixed + perTileRow > placement.ubBytes)
        throwLoweringError(op, "a row of " + std::to_string(spec.length) + " elements does not fit in UB");
    layout->pitch = pitch;
    layout->rowsPerTile = std::min<std::uint64_t>((placement.ubBytes - fixed) / perTileRow, std::max<std::uint64_t>(spec.rows, 1));

    const std::uint64_t tileRows = layout->rowsPerTile;
    UbAllocator ub(placement.ubBytes, op.name);
    if (spec.buffers != 1 && spec.buffers != 2) throwLoweringError(op, "a row kernel keeps 1 or 2 buffers per queue");
    const bool doubleBuffered = spec.buffers == 2;
    auto stage = [&](const TensorInfo& t, std::uint64_t elements, bool doubled, const char* what) {
        Staged s;
        s.dtype = t.dtype;
        s.gm = t.deviceAddr;
        s.halfStride = doubled ? alignUp(elements * bytesOf(t.dtype), kUbBlockBytes) : 0;
        s.half0 = ub.allocate(doubled ? 2 * s.halfStride : elements * bytesOf(t.dtype), what);
        s.f32 = s.needsCast() ? ub.allocate(elements * kF32Bytes, what) : 0;
        return s;
    };
    for (std::size_t i = 0; i < spec.rowInputs.size(); ++i) {
        layout->rowInputs.push_back(stage(spec.rowInputs[i], tileRows * pitch, doubleBuffered, "input rows"));
        if (i < spec.rowInputPeriods.size()) layout->rowInputs.back().period = spec.rowInputPeriods[i];
    }
    for (const auto& t : spec.vectorInputs) layout->vectorInputs.push_back(stage(t, pitch, false, "a row vector"));
    for (const auto& t : spec.rowOutputs) layout->rowOutputs.push_back(stage(t, tileRows * pitch, doubleBuffered, "output rows"));
    for (const auto& t : spec.valueOutputs) layout->valueOutputs.push_back(stage(t, tileRows, doubleBuffered, "row results"));
    for (std::uint32_t i = 0; i < spec.temps; ++i) layout->temps.push_back(ub.allocate(tileRows * pitch * kF32Bytes, "temporary rows"));
    for (std::uint32_t i = 0; i < spec.valueTemps; ++i) layout->valueTemps.push_back(ub.allocate(tileRows * kF32Bytes, "row values"));
    layout->blocks = ub.allocate(tileRows * kUbBlockBytes, "row blocks");
    layout->table = ub.allocate(blockOffsetTableBytes(kF32, tileRows), "Gather offsets");
    layout->scratch = ub.allocate(reduceRowsScratchBytes(kF32, static_cast<std::uint32_t>(tileRows), pitch),
                                  "reduction partials");

    std::uint64_t workBytes = 0;
    for (const auto& t : spec.rowInputs) workBytes += t.bytes();
    for (const auto& t : spec.rowOutputs) workBytes += t.bytes();
    layout->spec = std::move(spec);

    return tiledVectorKernel<RowTiles>(op, placement, layout, workBytes, layout->spec.rows);
}

}  // namespace ascendsim
