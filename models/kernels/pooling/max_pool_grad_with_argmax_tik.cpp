// MaxPoolGradWithArgmaxV1's TIK kernel (fp16): see max_pool_argmax_tik.h. The ISA model
// has no CMPMASK register: its load is a one-repeat uint16 Copy of the block holding the 8 mask
// entries, and Select takes its condition from a UB tile. The work and bytes are CANN's; the
// selected values are not the mask's.
#include "models/kernels/pooling/max_pool_argmax_tik.h"

#include <algorithm>
#include <memory>

#include "models/kernels/pooling/tik_scalar_work.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// CANN's kernel: UB less RESERVED_UB_SIZE (8 KiB) in fp16 elements, over its seven parts; vadds of
// ELEMENT_NUMS_EACH_TIME (160) fp32 = 20 positions' half lanes at a time.
constexpr std::uint64_t kTikGradReservedUbBytes = 8192;
constexpr std::uint64_t kTikGradUbParts = 7;
constexpr std::uint64_t kTikGradAddPositions = 20;

struct TikGradLayout {
    ArgmaxPoolGeometry g;
    ArgmaxGradTensors t;
    // Output rows a chunk holds, chunks per plane, dx rows a chunk's fp32 buffer holds, and the
    // positions every select and conversion covers (⌈chunkRows·Wo/16⌉·16, CANN's ho_wo_16).
    std::uint64_t chunkRows = 1, chunksPerPlane = 1, bufferRows = 0, selectPositions = 16;
    std::uint64_t grad = 0, selected = 0, mask = 0, dxF32 = 0, selectedF32 = 0, zeros = 0, cmpmask = 0;
    // Rows a window spans past its stride: carried from one chunk to the next (0 in one chunk).
    std::uint64_t carriedRows() const { return chunksPerPlane > 1 && g.kh > g.sh ? g.kh - g.sh : 0; }
    std::uint64_t rowsOf(std::uint64_t chunk) const { return std::min(chunkRows, g.outH - chunk * chunkRows); }
    // The dx rows [first, end) chunk `chunk` writes: a chunk's windows' rows up to the next chunk's first.
    std::uint64_t firstDxRow(std::uint64_t chunk) const { return chunk * chunkRows * g.sh; }
    std::uint64_t endDxRow(std::uint64_t chunk) const {
        return chunk + 1 == chunksPerPlane ? g.h : std::min(g.h, (chunk + 1) * chunkRows * g.sh);
    }
};

class TikGradTiles final : public TileSource {
public:
    TikGradTiles(std::shared_ptr<const TikGradLayout> l, UnitRange planes) : l_(std::move(l)), planes_(planes) {}
    std::uint64_t tileCount() const override { return planes_.size() * l_->chunksPerPlane * l_->g.taps(); }
    // One buffer of everything: a tap's mask load waits for the previous tap's vector work.
    std::uint32_t buffers() const override { return 1; }
    void setup(TileCode& code) override {
        if (tileCount() == 0) return;
        prepareChunk(code.compute, 0);
        clearMask(code.compute);
        addTikScalarWork(code.compute);
    }
    // Each tap's program with TIK's scalar work in front of every vector instruction.
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        tapProgram(index, half, code);
        addTikScalarWork(code.compute);
    }

private:
    void tapProgram(std::uint64_t index, std::uint32_t, TileCode& code) const {
        const TikGradLayout& l = *l_;
        const ArgmaxPoolGeometry& g = l.g;
        const std::uint64_t taps = g.taps(), tap = index % taps, chunk = index / taps % l.chunksPerPlane;
        const std::uint64_t plane = planes_.begin + index / taps / l.chunksPerPlane;
        const std::uint64_t rows = l.rowsOf(chunk), o0 = chunk * l.chunkRows;
        const std::uint64_t pb = g.positionBytes(), pf = kArgmaxPoolC0 * 4;
        if (tap == 0)
            code.load.push_back(moveRowsToUb(l.t.dy + (plane * g.outH + o0) * g.outW * pb, l.grad, 1, rows * g.outW * pb,
                                             rows * g.outW * pb));
        const std::uint64_t maskBytes = alignUp(rows * g.outW, 16) * 2;
        code.load.push_back(moveRowsToUb(l.t.mask + ((plane * taps + tap) * g.maskTapEntries() + o0 * g.outW) * 2, l.mask, 1,
                                         maskBytes, maskBytes));
        std::vector<Instruction>& v = code.compute;
        const Instruction afterWrites = Instruction::barrier(Pipe::Vector);
        emitVectorRange(v, VectorOp::Duplicate, g.dtype, {.dst = l.zeros}, kVectorRepeatBytes / bytesOf(g.dtype), 0.0f);
        const std::uint64_t perRepeat = kVectorRepeatBytes / pb;
        for (std::uint64_t p = 0; p < l.selectPositions; p += perRepeat) {
            const std::uint64_t entriesAt = l.mask + p * 2;
            emitVectorRange(v, VectorOp::Copy, DataType::Int16, {.dst = l.cmpmask, .src0 = entriesAt - entriesAt % kUbBlockBytes},
                            perRepeat);
            emitVectorRange(v, VectorOp::Select, g.dtype,
                            {.dst = l.selected + p * pb, .src0 = l.grad + p * pb, .src1 = l.zeros, .src1IsBlock = true},
                            perRepeat * kArgmaxPoolC0);
        }
        v.push_back(afterWrites);  // the conversion reads the selected values
        emitVectorRange(v, VectorOp::Cast, DataType::Fp32, {.dst = l.selectedF32, .src0 = l.selected},
                        l.selectPositions * kArgmaxPoolC0, 0.0f, g.dtype);
        v.push_back(afterWrites);  // the vadds read them and the previous tap's sums
        const std::uint64_t i = tap / g.kw, j = tap % g.kw;
        for (std::uint64_t r = 0; r < rows; ++r) {
            for (std::uint64_t c = 0; c < g.outW; c += kTikGradAddPositions) {
                const std::uint64_t at = l.dxF32 + ((r * g.sh + i) * g.w + j + c * g.sw) * pf;
                emitPositions(v, VectorOp::Add, DataType::Fp32,
                              {.dst = at, .src0 = at, .src1 = l.selectedF32 + (r * g.outW + c) * pf, .dstStride = g.sw,
                               .src0Stride = g.sw},
                              std::min(kTikGradAddPositions, g.outW - c));
            }
        }
        const bool last = index + 1 == tileCount();
        if (tap + 1 < taps) {
            clearMask(v);
            return;
        }
        v.push_back(afterWrites);  // the conversion reads the last tap's sums
        const std::uint64_t bufferElements = l.bufferRows * g.w * kArgmaxPoolC0;
        emitVectorRange(v, VectorOp::Cast, g.dtype, {.dst = l.selected, .src0 = l.dxF32}, bufferElements, 0.0f, DataType::Fp32);
        const std::uint64_t first = l.firstDxRow(chunk), end = l.endDxRow(chunk);
        code.store.push_back(moveRowsToGm(l.selected, l.t.dx + (plane * g.h + first) * g.w * pb, static_cast<std::uint32_t>(end - first),
                                          g.w * pb, g.w * pb));
        if (chunk + 1 < l.chunksPerPlane && l.carriedRows() > 0)  // the next chunk's first rows, kept
            emitVectorRange(v, VectorOp::Muls, DataType::Fp32, {.dst = l.selectedF32, .src0 = l.dxF32 + l.chunkRows * g.sh * g.w * pf},
                            l.carriedRows() * g.w * kArgmaxPoolC0, 1.0f);
        if (last) return;
        prepareChunk(v, (chunk + 1) % l.chunksPerPlane);
        clearMask(v);
    }

    // Before a chunk's grad move: its fp32 dx rows zeroed, the carried rows put back, grad cleared.
    void prepareChunk(std::vector<Instruction>& v, std::uint64_t chunk) const {
        const TikGradLayout& l = *l_;
        emitVectorRange(v, VectorOp::Duplicate, DataType::Fp32, {.dst = l.dxF32}, l.bufferRows * l.g.w * kArgmaxPoolC0, 0.0f);
        if (chunk > 0 && l.carriedRows() > 0)
            emitVectorRange(v, VectorOp::Muls, DataType::Fp32, {.dst = l.dxF32, .src0 = l.selectedF32},
                            l.carriedRows() * l.g.w * kArgmaxPoolC0, 1.0f);
        emitVectorRange(v, VectorOp::Duplicate, l.g.dtype, {.dst = l.grad}, l.selectPositions * kArgmaxPoolC0, 0.0f);
    }
    void clearMask(std::vector<Instruction>& v) const {
        emitVectorRange(v, VectorOp::Duplicate, DataType::Int16, {.dst = l_->mask}, l_->selectPositions, 0.0f);
    }

    std::shared_ptr<const TikGradLayout> l_;
    UnitRange planes_;
};

}  // namespace

LoweredKernel lowerMaxPoolGradWithArgmaxTik(const OpInstance& op, const ChipConfig& chip, const ArgmaxPoolGeometry& g,
                                            const ArgmaxGradTensors& t, std::uint64_t workBytes) {
    auto l = std::make_shared<TikGradLayout>();
    l->g = g;
    l->t = t;
    const VectorPlacement placement = vectorPlacement(chip);
    if (placement.ubBytes <= kTikGradReservedUbBytes) throwLoweringError(op, "UB smaller than the kernel's reserve");
    // Elements of one UB part in the kernel's dtype; the fp32 parts hold as many fp32.
    const std::uint64_t part = (placement.ubBytes - kTikGradReservedUbBytes) / bytesOf(g.dtype) / kTikGradUbParts;
    auto dxRows = [&](std::uint64_t rows) { return g.kh > g.sh ? (rows - 1) * g.sh + g.kh : rows * g.sh; };
    auto fits = [&](std::uint64_t rows, std::uint64_t dxRowCount) {
        return dxRowCount * g.w * kArgmaxPoolC0 <= part && alignUp(rows * g.outW, 16) * kArgmaxPoolC0 <= part;
    };
    if (fits(g.outH, g.h)) {  // tiling mode 0: the whole plane
        l->chunkRows = g.outH;
        l->bufferRows = g.h;
    } else {  // mode 1: the most output rows whose dx rows fit
        std::uint64_t rows = 0;
        while (rows < g.outH && fits(rows + 1, dxRows(rows + 1))) ++rows;
        if (rows == 0) throwLoweringError(op, "one output row's dx rows do not fit a UB part (a cut of W is not modelled)");
        l->chunkRows = rows;
        l->bufferRows = dxRows(rows);
    }
    l->chunksPerPlane = ceilDiv(g.outH, l->chunkRows);
    l->selectPositions = alignUp(l->chunkRows * g.outW, 16);
    const std::uint64_t partBytes = alignUp(part * bytesOf(g.dtype), kUbBlockBytes);
    UbAllocator ub(placement.ubBytes, op.name);
    l->grad = ub.allocate(partBytes, "grad (ub_a)");
    l->selected = ub.allocate(partBytes, "selected grad, fp16 dx (ub_b)");
    l->mask = ub.allocate(partBytes, "mask (ub_c)");
    l->dxF32 = ub.allocate(2 * partBytes, "fp32 dx rows (ub_d)");
    l->selectedF32 = ub.allocate(2 * partBytes, "fp32 selected grad, carried rows (ub_e)");
    l->zeros = ub.allocate(kVectorRepeatBytes, "zero repeat");
    l->cmpmask = ub.allocate(kUbBlockBytes, "CMPMASK stand-in");
    return tiledVectorKernel<TikGradTiles>(op, placement, l, workBytes, g.planes);
}

}  // namespace ascendsim
