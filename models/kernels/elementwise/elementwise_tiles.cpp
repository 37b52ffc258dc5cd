// The per-block program of an ElementwisePlan: setup prepares Scalar values, each tile loads its
// rows (or row chunk), runs the steps and stores the outputs.
#include <algorithm>

#include "models/kernels/elementwise/elementwise_plan.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

using Kind = ElementwiseProgram::Kind;

// The scalar-operand form a binary op takes when one operand is a tensor's single value, as CANN's
// kernels issue it (vadds/vmuls/vmaxs/vmins, the unary class of hardware.md §2.6: every such real
// Mul runs its vector at 1.3–1.5 cycles per fp32 repeat, docs/fidelity.md §52d); `op` itself when
// it has none (Sub and Div are not commutative, and their scalar forms would need the value
// negated or inverted first).
VectorOp scalarOperandFormOf(VectorOp op) {
    switch (op) {
        case VectorOp::Add: return VectorOp::Adds;
        case VectorOp::Mul: return VectorOp::Muls;
        case VectorOp::Max: return VectorOp::Maxs;
        case VectorOp::Min: return VectorOp::Mins;
        default: return op;
    }
}

struct ElementwiseTile {
    std::uint64_t row = 0, rows = 1;  // output rows [row, row + rows)
    std::uint64_t col = 0, cols = 0;  // columns [col, col + cols) of each row
};

// A row loaded once into UB at `ubRow` and copied into the `count` rows after it, `pitchBytes`
// apart: `rowBytes` (32 B aligned) of an Element operand every row of the tile reads alike.
struct RowReplicas {
    std::uint64_t ubRow = 0;
    std::uint64_t count = 0;
    std::uint64_t rowBytes = 0;
    std::uint64_t pitchBytes = 0;
};

// Copies a row to the rows after it in the vector unit (bitwise, as int16 words): one
// instruction per 256 B column of the row whose repeats walk down the rows reading the row
// again (source repeat stride 0), or, when the pitch exceeds the repeat-stride field, one range
// copy per row.
void emitRowReplicas(std::vector<Instruction>& out, const RowReplicas& r) {
    constexpr DataType kWord = DataType::Int16;
    const std::uint64_t words = r.rowBytes / bytesOf(kWord);
    const std::uint64_t perRepeat = elementsPerRepeat(kWord);
    if (r.pitchBytes / kUbBlockBytes > kMaxRepeatStrideBlocks) {
        for (std::uint64_t k = 1; k <= r.count; ++k)
            emitVectorRange(out, VectorOp::Copy, kWord, {.dst = r.ubRow + k * r.pitchBytes, .src0 = r.ubRow}, words);
        return;
    }
    for (std::uint64_t column = 0; column * perRepeat < words; ++column) {
        for (std::uint64_t first = 1; first <= r.count; first += kMaxVectorRepeats) {
            VectorInstr v{.op = VectorOp::Copy, .dtype = kWord, .srcType = kWord};
            v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, r.count + 1 - first));
            v.mask = static_cast<std::uint16_t>(std::min(perRepeat, words - column * perRepeat));
            v.dst = r.ubRow + first * r.pitchBytes + column * kVectorRepeatBytes;
            v.dstRepeatStride = static_cast<std::uint16_t>(r.pitchBytes / kUbBlockBytes);
            v.src0 = r.ubRow + column * kVectorRepeatBytes;
            v.src0RepeatStride = 0;
            out.push_back(Instruction::vector(v));
        }
    }
}

// Where an operand sits for one tile and how the per-row form walks it.
struct OperandRef {
    std::uint64_t addr = 0;
    Kind kind = Kind::Element;
};

class ElementwiseTiles final : public TileSource {
public:
    ElementwiseTiles(std::shared_ptr<const ElementwisePlan> plan, UnitRange range) : plan_(std::move(plan)) {
        const ElementwisePlan& p = *plan_;
        if (p.chunkMode) {
            const std::uint64_t perRow = ceilDiv(p.rowLength, p.granule);
            for (std::uint64_t g = range.begin; g < range.end;) {
                const std::uint64_t row = g / perRow, first = g % perRow;
                const std::uint64_t n = std::min({p.granulesPerTile, perRow - first, range.end - g});
                const std::uint64_t col = first * p.granule;
                tiles_.push_back({row, 1, col, std::min((first + n) * p.granule, p.rowLength) - col});
                g += n;
            }
        } else {
            for (std::uint64_t r = range.begin; r < range.end;) {
                const std::uint64_t n = std::min({p.rowsPerTile, range.end - r, p.contiguousRowRun(r)});
                tiles_.push_back({r, n, 0, p.rowLength});
                r += n;
            }
        }
    }

    std::uint64_t tileCount() const override { return tiles_.size(); }
    bool movesOnly() const override { return plan_->movesOnly; }
    std::uint32_t buffers() const override { return plan_->oneBuffer ? 1 : 2; }

    void setup(TileCode& code) override {
        const ElementwisePlan& p = *plan_;
        const DataType ct = p.computeType;
        const std::uint64_t perBlock = elementsPerBlock(ct);
        bool needsTable = false;
        for (const auto& v : p.values) needsTable |= v.needsExpansion || (v.kind == Kind::Scalar && v.input >= 0);
        if (needsTable) emitBlockOffsetTable(code.compute, ct, p.table, p.tableValues * perBlock);
        for (const auto& v : p.values) {
            if (v.kind != Kind::Scalar) continue;
            const std::uint64_t block = v.storage.base;
            if (v.isConstant) {
                emitVectorRange(code.compute, VectorOp::Duplicate, ct, {.dst = block}, perBlock, v.constant);
            } else if (v.input >= 0) {
                const auto& in = p.inputs[static_cast<std::size_t>(v.input)];
                code.load.push_back(Instruction::move({.src = MemSpace::GM, .dst = MemSpace::UB,
                                                       .srcAddr = in.gmAddr, .dstAddr = in.loaded.base,
                                                       .burstBytes = static_cast<std::uint32_t>(bytesOf(in.dtype)),
                                                       .srcType = in.dtype, .dstType = in.dtype}));
                std::uint64_t source = in.loaded.base;
                if (v.castFromInput) {
                    emitVectorRange(code.compute, VectorOp::Cast, ct, {.dst = block, .src0 = source}, 1, 0.0f, in.dtype);
                    source = block;
                }
                emitExpandToBlocks(code.compute, ct, block, source, 1, p.table);
            }
        }
        for (const auto& step : p.steps) {
            if (p.values[step.dst].kind != Kind::Scalar) continue;
            emitVectorRange(code.compute, step.op, ct,
                            {.dst = p.values[step.dst].storage.base, .src0 = p.values[step.a].storage.base,
                             .src1 = p.values[step.b].storage.base},
                            perBlock, step.scalar);
        }
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const ElementwisePlan& p = *plan_;
        const ElementwiseTile& t = tiles_[index];
        const DataType ct = p.computeType;
        const std::uint64_t ctBytes = bytesOf(ct);
        const std::uint64_t pitch = p.chunkMode ? t.cols : p.paddedRowLength;
        const std::uint64_t count = p.chunkMode ? t.cols : t.rows * pitch;
        const auto rows = static_cast<std::uint32_t>(t.rows);
        code.scalarCycles = rows;  // per-row address arithmetic

        std::vector<RowReplicas> replicas;
        for (const auto& in : p.inputs) {
            const std::uint64_t eb = bytesOf(in.dtype);
            if (in.kind == Kind::Row) {
                const std::int64_t off = p.rowOffset(t.row, in.outerStrides);
                code.load.push_back(moveRowsToUb(in.gmAddr + static_cast<std::uint64_t>(off) * eb,
                                                 in.loaded.at(half), 1, t.rows * eb, t.rows * eb));
            } else if (in.kind == Kind::Element) {
                std::uint64_t k = 0;
                while (k < t.rows) {
                    const std::int64_t first = p.rowOffset(t.row + k, in.outerStrides);
                    const std::uint64_t gmRow = in.gmAddr + (static_cast<std::uint64_t>(first) + t.col) * eb;
                    const std::uint64_t ubRow = in.loaded.at(half) + k * pitch * eb;
                    // Rows that read the same GM row (an operand broadcast over an outer dim: the
                    // [64] of [4096,1] x [64]) are read once and copied along the tile in UB, as
                    // CANN's broadcast keeps the operand in UB (docs/fidelity.md §43). A copy
                    // kernel has no vector stage to copy with: it reads the row for every row.
                    std::uint64_t same = 1;
                    while (!p.movesOnly && k + same < t.rows &&
                           p.rowOffset(t.row + k + same, in.outerStrides) == first)
                        ++same;
                    if (same > 1) {
                        code.load.push_back(moveRowsToUb(gmRow, ubRow, 1, t.cols * eb, pitch * eb));
                        replicas.push_back({ubRow, same - 1, alignUp(t.cols * eb, kUbBlockBytes), pitch * eb});
                        k += same;
                        continue;
                    }
                    std::uint64_t run = 1;
                    while (k + run < t.rows &&
                           p.rowOffset(t.row + k + run, in.outerStrides) ==
                               first + static_cast<std::int64_t>(run * p.rowLength))
                        ++run;
                    const std::uint64_t gm = gmRow;
                    const std::uint64_t ub = ubRow;
                    if (run == 1 && k + 1 < t.rows) {
                        // Rows a constant stride apart (a slice of wider rows: Slice, SwiGlu's
                        // halves, ConcatD's parts) are one strided DataCopy, as Ascend C issues it.
                        const std::int64_t stride = p.rowOffset(t.row + k + 1, in.outerStrides) - first;
                        while (stride > static_cast<std::int64_t>(p.rowLength) && k + run < t.rows &&
                               p.rowOffset(t.row + k + run, in.outerStrides) == first + static_cast<std::int64_t>(run) * stride)
                            ++run;
                        if (run > 1) {
                            code.load.push_back(moveStridedRowsToUb(gm, ub, static_cast<std::uint32_t>(run), t.cols * eb,
                                                                    static_cast<std::uint64_t>(stride) * eb, pitch * eb));
                            k += run;
                            continue;
                        }
                    }
                    code.load.push_back(moveRowsToUb(gm, ub, static_cast<std::uint32_t>(run), t.cols * eb, pitch * eb));
                    k += run;
                }
            }
        }

        for (const RowReplicas& r : replicas) emitRowReplicas(code.compute, r);

        std::vector<bool> expanded(p.values.size(), false);
        auto operand = [&](std::uint32_t v) -> OperandRef {
            const auto& value = p.values[v];
            if (value.kind == Kind::Row && p.values.size() && value.needsExpansion) {
                if (!expanded[v]) {
                    emitExpandToBlocks(code.compute, ct, value.expanded, value.storage.at(half), t.rows, p.table);
                    expanded[v] = true;
                }
                return {value.expanded, Kind::Row};
            }
            return {value.storage.at(half), value.kind};
        };
        for (const auto& v : p.values) {
            if (v.kind == Kind::Scalar || v.input < 0 || !v.castFromInput) continue;
            const auto& in = p.inputs[static_cast<std::size_t>(v.input)];
            emitVectorRange(code.compute, VectorOp::Cast, ct, {.dst = v.storage.base, .src0 = in.loaded.at(half)},
                            v.kind == Kind::Row ? t.rows : count, 0.0f, in.dtype);
        }
        for (const auto& step : p.steps) {
            const Kind kind = p.values[step.dst].kind;
            if (kind == Kind::Scalar) continue;
            const std::uint64_t dst = p.values[step.dst].storage.at(half);
            if (kind == Kind::Row) {
                const OperandRef a{p.values[step.a].storage.at(half), p.values[step.a].kind};
                const OperandRef b{p.values[step.b].storage.at(half), p.values[step.b].kind};
                emitVectorRange(code.compute, step.op, ct,
                                {dst, a.addr, b.addr, a.kind == Kind::Scalar, b.kind == Kind::Scalar}, t.rows,
                                step.scalar);
                continue;
            }
            const OperandRef a = operand(step.a), b = operand(step.b);
            const VectorOp scalarForm = scalarOperandFormOf(step.op);
            if (scalarForm != step.op && (a.kind == Kind::Scalar) != (b.kind == Kind::Scalar) && a.kind != Kind::Row &&
                b.kind != Kind::Row) {
                // A tensor's one value as the scalar operand (docs/fidelity.md §52d).
                const OperandRef& tensor = a.kind == Kind::Scalar ? b : a;
                const OperandRef& value = a.kind == Kind::Scalar ? a : b;
                VectorRange range{dst, tensor.addr, tensor.addr};
                range.scalarUbAddr = value.addr;
                emitVectorRange(code.compute, scalarForm, ct, range, count);
            } else if (a.kind != Kind::Row && b.kind != Kind::Row) {
                emitVectorRange(code.compute, step.op, ct,
                                {dst, a.addr, b.addr, a.kind == Kind::Scalar, b.kind == Kind::Scalar}, count,
                                step.scalar);
            } else {
                emitPerRow(code.compute, step, dst, a, b, t.rows, pitch);
            }
        }
        for (const auto& out : p.outputs) {
            const std::uint64_t staging = out.buffer.at(half);
            if (!out.computedInPlace && !p.movesOnly) {
                const std::uint64_t src = p.values[out.value].storage.at(half);
                if (out.dtype == ct)
                    emitVectorRange(code.compute, VectorOp::Copy, ct, {.dst = staging, .src0 = src}, count);
                else
                    emitVectorRange(code.compute, VectorOp::Cast, out.dtype, {.dst = staging, .src0 = src}, count,
                                    0.0f, ct);
            }
            const std::uint64_t eb = bytesOf(out.dtype);
            if (out.rowPitch == 0 || out.rowPitch == p.rowLength) {
                code.store.push_back(moveRowsToGm(staging, out.gmAddr + (t.row * p.rowLength + t.col) * eb, rows,
                                                  t.cols * eb, pitch * eb));
            } else {  // rows of a wider output: one burst per row, the gap skips the rest of it
                DataMove m{.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = staging,
                           .dstAddr = out.gmAddr + (t.row * out.rowPitch + t.col) * eb};
                m.burstCount = rows;
                m.burstBytes = static_cast<std::uint32_t>(t.cols * eb);
                m.srcGapBytes = static_cast<std::uint32_t>((pitch - t.cols) * eb);
                m.dstGapBytes = static_cast<std::uint32_t>((out.rowPitch - t.cols) * eb);
                m.srcType = m.dstType = out.dtype;
                code.store.push_back(Instruction::move(m));
            }
        }
        (void)ctBytes;
    }

private:
    // An Element step with one Row operand: each row reads its own broadcast block. Either one
    // instruction per row (repeats walk along the row), or one instruction per 256 B column of the
    // tile (repeats walk down the rows, the Row operand advancing one block per repeat), whichever
    // issues fewer instructions; the column form needs the row pitch within the repeat-stride field.
    void emitPerRow(std::vector<Instruction>& out, const ElementwiseStep& step, std::uint64_t dst,
                    const OperandRef& a, const OperandRef& b, std::uint64_t rows, std::uint64_t pitch) const {
        const DataType ct = plan_->computeType;
        const std::uint64_t rowBytes = pitch * bytesOf(ct);
        const std::uint64_t perRepeat = elementsPerRepeat(ct);
        const std::uint64_t columns = ceilDiv(pitch, perRepeat);
        const std::uint64_t columnwise = columns * ceilDiv(rows, kMaxVectorRepeats);
        const std::uint64_t rowwise = rows * ceilDiv(columns, kMaxVectorRepeats);
        if (rowBytes / kUbBlockBytes <= kMaxRepeatStrideBlocks && columnwise <= rowwise) {
            emitColumns(out, step, dst, a, b, rows, pitch);
            return;
        }
        for (std::uint64_t k = 0; k < rows; ++k) {
            auto at = [&](const OperandRef& ref) {
                return ref.addr + (ref.kind == Kind::Element ? k * rowBytes : ref.kind == Kind::Row ? k * kUbBlockBytes : 0);
            };
            emitVectorRange(out, step.op, ct,
                            {dst + k * rowBytes, at(a), at(b), a.kind != Kind::Element, b.kind != Kind::Element},
                            pitch, step.scalar);
        }
    }

    void emitColumns(std::vector<Instruction>& out, const ElementwiseStep& step, std::uint64_t dst,
                     const OperandRef& a, const OperandRef& b, std::uint64_t rows, std::uint64_t pitch) const {
        const DataType ct = plan_->computeType;
        const std::uint64_t rowBytes = pitch * bytesOf(ct);
        const auto rowStride = static_cast<std::uint16_t>(rowBytes / kUbBlockBytes);
        const std::uint64_t perRepeat = elementsPerRepeat(ct);
        for (std::uint64_t column = 0; column * perRepeat < pitch; ++column) {
            const std::uint64_t columnOffset = column * kVectorRepeatBytes;
            for (std::uint64_t first = 0; first < rows; first += kMaxVectorRepeats) {
                VectorInstr v{.op = step.op, .dtype = ct, .srcType = ct};
                v.scalar = step.scalar;
                v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, rows - first));
                v.mask = static_cast<std::uint16_t>(std::min(perRepeat, pitch - column * perRepeat));
                v.dst = dst + first * rowBytes + columnOffset;
                v.dstRepeatStride = rowStride;
                auto place = [&](const OperandRef& ref, std::uint64_t& addr, std::uint8_t& blockStride,
                                 std::uint16_t& repeatStride) {
                    blockStride = ref.kind == Kind::Element ? 1 : 0;
                    repeatStride = ref.kind == Kind::Element ? rowStride : ref.kind == Kind::Row ? 1 : 0;
                    addr = ref.addr + (ref.kind == Kind::Element ? first * rowBytes + columnOffset
                                       : ref.kind == Kind::Row   ? first * kUbBlockBytes
                                                                 : 0);
                };
                place(a, v.src0, v.src0BlockStride, v.src0RepeatStride);
                place(b, v.src1, v.src1BlockStride, v.src1RepeatStride);
                out.push_back(Instruction::vector(v));
            }
        }
    }

    std::shared_ptr<const ElementwisePlan> plan_;
    std::vector<ElementwiseTile> tiles_;
};

}  // namespace

std::unique_ptr<InstructionStream> makeElementwiseStream(std::shared_ptr<const ElementwisePlan> plan,
                                                         UnitRange range) {
    return std::make_unique<DoubleBufferedStream>(std::make_unique<ElementwiseTiles>(std::move(plan), range));
}

}  // namespace ascendsim
