// MaxPoolGradWithArgmaxV1 on NC1HWC0 with C0 = 16 (max_pool_argmax_geometry.h): dx = Σ over the
// window taps of the gradient where the forward's argmax bit is set, scattered to the tap's input
// position. x is an input for its shape only: the mask says where each window's maximum was. A
// unit is a band of dx rows of one plane; like MaxPoolGrad (max_pool_grad_layout.h) it loads every
// window that touches the band and drops contributions outside it, so no two units write the same
// dx element. Per tile:
//   MTE2: dy rows of those windows (one burst) and their mask entries, one burst per tap;
//   V:    dx rows zeroed; per tap the select of dy by the tap's bits, one repeat at a time (see
//         below), the selected values to fp32 (fp16 inputs), and per window row a block-strided Add
//         into the tap's input positions (stride sw); then the band's rows back to the dtype;
//   MTE3: the band's dx rows, one burst.
// A PipeBarrier<PIPE_V> separates each vector step from the one whose results it reads (the
// conversion after the select, the Adds after both and after the previous tap's Adds, the final
// conversion after the last Adds), as in MaxPoolWithArgmaxV1 (max_pool_with_argmax.cpp).
// The select, by the kernel's form (argmaxPoolPacking):
//   TIK (fp16): vsel in mode 0 takes its condition from the CMPMASK register, which holds one
//     repeat's bits, so the kernel loads it from the tap's mask (mov_tensor_to_cmpmask, 8 uint16
//     for 128 fp16 lanes = 8 positions) before every one-repeat vsel, then converts the selected
//     values to fp32 (TIK's max_pool_grad_with_argmax for the v100 profile, CANN 8.1: a loop over
//     the windows' lanes, 128 at a time; docs/fidelity.md §62);
//   DSL (fp32): one vsel over all the windows' lanes, its condition read from the mask in UB
//     repeat after repeat (the real rows' vector time matches this, §62).
// The ISA model has no CMPMASK: the register load is issued as a one-repeat uint16 Copy of the
// block holding the mask entries, and Select takes its condition from a UB tile rather than bits:
// the work and bytes are modelled, the selected values are not the mask's.
#include <algorithm>
#include <memory>

#include "models/kernels/pooling/max_pool_argmax_geometry.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;

struct ArgmaxGradLayout {
    ArgmaxPoolGeometry g;
    std::uint64_t dy = 0, mask = 0, dx = 0;
    std::uint64_t bandRows = 0, bandsPerPlane = 0, maxWindowRows = 0;
    std::uint64_t dyStage = 0, dyHalf = 0, maskStage = 0, maskHalf = 0, acc = 0, accHalf = 0;
    std::uint64_t outStage = 0, outHalf = 0, selected = 0, contribution = 0, zeros = 0, cmpmask = 0;
};

struct GradBand {
    std::uint64_t h0 = 0, h1 = 0, ohLo = 0, windows = 0;
};

GradBand bandOf(const ArgmaxGradLayout& l, std::uint64_t band) {
    const ArgmaxPoolGeometry& g = l.g;
    GradBand b;
    b.h0 = band * l.bandRows;
    b.h1 = std::min(g.h, b.h0 + l.bandRows);
    b.ohLo = b.h0 + 1 >= g.kh ? ceilDiv(b.h0 + 1 - g.kh, g.sh) : 0;
    const std::uint64_t ohHi = std::min(g.outH - 1, (b.h1 - 1) / g.sh);
    b.windows = ohHi >= b.ohLo ? ohHi - b.ohLo + 1 : 0;
    return b;
}

class ArgmaxGradTiles final : public TileSource {
public:
    ArgmaxGradTiles(std::shared_ptr<const ArgmaxGradLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    void setup(TileCode& code) override {
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l_->zeros}, elementsPerBlock(kF32), 0.0f);
    }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const ArgmaxGradLayout& l = *l_;
        const ArgmaxPoolGeometry& g = l.g;
        const std::uint64_t unit = units_.begin + index, plane = unit / l.bandsPerPlane;
        const GradBand b = bandOf(l, unit % l.bandsPerPlane);
        const std::uint64_t pb = g.positionBytes(), pf = kArgmaxPoolC0 * 4, entries = b.windows * g.outW;
        const std::uint64_t dyBuf = l.dyStage + half * l.dyHalf, maskBuf = l.maskStage + half * l.maskHalf;
        const std::uint64_t acc = l.acc + half * l.accHalf, firstRow = b.ohLo * g.sh;
        const std::uint64_t accRows = b.windows == 0 ? 0 : (b.windows - 1) * g.sh + g.kh;
        const std::uint64_t tapBytes = alignUp(l.maxWindowRows * g.outW * 2, kUbBlockBytes);
        if (entries > 0) {
            code.load.push_back(moveRowsToUb(l.dy + (plane * g.outH + b.ohLo) * g.outW * pb, dyBuf, 1, entries * pb, entries * pb));
            for (std::uint64_t tap = 0; tap < g.taps(); ++tap) {
                const std::uint64_t gm = l.mask + ((plane * g.taps() + tap) * g.maskTapEntries() + b.ohLo * g.outW) * 2;
                code.load.push_back(moveRowsToUb(gm, maskBuf + tap * tapBytes, 1, entries * 2, entries * 2));
            }
        }
        const bool cast = g.dtype != kF32;
        const Instruction afterWrites = Instruction::barrier(Pipe::Vector);
        const std::uint64_t rows = std::max(accRows, b.h1 - firstRow);
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = acc}, rows * g.w * kArgmaxPoolC0, 0.0f);
        for (std::uint64_t tap = 0; tap < g.taps() && entries > 0; ++tap) {
            const std::uint64_t i = tap / g.kw, j = tap % g.kw;
            emitSelect(code.compute, g.dtype, cast ? l.selected : l.contribution, dyBuf, maskBuf + tap * tapBytes, entries);
            if (cast) {
                code.compute.push_back(afterWrites);  // the conversion reads the selected values
                emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.contribution, .src0 = l.selected}, entries * kArgmaxPoolC0,
                                0.0f, g.dtype);
            }
            code.compute.push_back(afterWrites);  // the Adds read the contribution and the previous tap's sums
            for (std::uint64_t r = 0; r < b.windows; ++r) {
                const std::uint64_t at = acc + ((r * g.sh + i) * g.w + j) * pf;
                emitPositions(code.compute, VectorOp::Add, kF32,
                              {.dst = at, .src0 = at, .src1 = l.contribution + r * g.outW * pf, .dstStride = g.sw, .src0Stride = g.sw},
                              g.outW);
            }
        }
        const std::uint64_t bandAt = acc + (b.h0 - firstRow) * g.w * pf, bandElements = (b.h1 - b.h0) * g.w * kArgmaxPoolC0;
        std::uint64_t out = bandAt;
        if (cast) {
            code.compute.push_back(afterWrites);  // the conversion reads the last tap's sums
            out = l.outStage + half * l.outHalf;
            emitVectorRange(code.compute, VectorOp::Cast, g.dtype, {.dst = out, .src0 = bandAt}, bandElements, 0.0f, kF32);
        }
        code.store.push_back(moveRowsToGm(out, l.dx + (plane * g.h + b.h0) * g.w * pb, 1, bandElements * bytesOf(g.dtype),
                                          bandElements * bytesOf(g.dtype)));
    }

private:
    // dst = the tap's bits ? dy : 0 over `entries` positions: one pass (DSL) or one repeat per
    // CMPMASK load (TIK).
    void emitSelect(std::vector<Instruction>& v, DataType dtype, std::uint64_t dst, std::uint64_t dy, std::uint64_t bits,
                    std::uint64_t entries) const {
        if (argmaxPoolPacking(dtype) == PositionPacking::OnePerRepeat) {
            emitVectorRange(v, VectorOp::Select, dtype, {.dst = dst, .src0 = dy, .src1 = l_->zeros, .src1IsBlock = true},
                            entries * kArgmaxPoolC0);
            return;
        }
        const std::uint64_t pb = l_->g.positionBytes(), perRepeat = kVectorRepeatBytes / pb;
        for (std::uint64_t p = 0; p < entries; p += perRepeat) {
            const std::uint64_t n = std::min(perRepeat, entries - p);
            // UB operands are 32 B aligned: the stand-in reads the block holding the entries.
            const std::uint64_t entriesAt = bits + p * 2, block = entriesAt - entriesAt % kUbBlockBytes;
            emitVectorRange(v, VectorOp::Copy, DataType::Int16, {.dst = l_->cmpmask, .src0 = block}, n);
            emitVectorRange(v, VectorOp::Select, dtype, {.dst = dst + p * pb, .src0 = dy + p * pb, .src1 = l_->zeros, .src1IsBlock = true},
                            n * kArgmaxPoolC0);
        }
    }

    std::shared_ptr<const ArgmaxGradLayout> l_;
    UnitRange units_;
};

std::vector<LoweredKernel> lowerMaxPoolGradWithArgmax(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.size() != 3 || op.outputs.size() != 1) throwLoweringError(op, "needs x, grad, argmax and the output dx");
    auto l = std::make_shared<ArgmaxGradLayout>();
    l->g = argmaxPoolGeometry(op, op.inputs[0]);
    const ArgmaxPoolGeometry& g = l->g;
    const TensorInfo& grad = op.inputs[1];
    if (grad.shape != std::vector<std::int64_t>{op.inputs[0].shape[0], op.inputs[0].shape[1],
                                                static_cast<std::int64_t>(g.outH), static_cast<std::int64_t>(g.outW)} ||
        grad.dtype != g.dtype)
        throwLoweringError(op, "grad must be y's shape [N,C,Ho,Wo] in x's dtype");
    if (op.inputs[2].bytes() < g.planes * g.taps() * g.maskTapEntries() * 2)
        throwLoweringError(op, "argmax must hold N·C1·kh·kw·(⌈Ho·Wo/16⌉+1)·16 uint16");
    l->dy = grad.deviceAddr;
    l->mask = op.inputs[2].deviceAddr;
    l->dx = op.outputs[0].deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t pb = g.positionBytes(), pf = kArgmaxPoolC0 * 4;
    const bool cast = g.dtype != DataType::Fp32;
    auto windowRows = [&](std::uint64_t bandRows) { return std::min(g.outH, bandRows / g.sh + ceilDiv(g.kh, g.sh) + 1); };
    auto bytesFor = [&](std::uint64_t bandRows) {
        const std::uint64_t windows = windowRows(bandRows), entries = windows * g.outW;
        const std::uint64_t accRows = std::max((windows - 1) * g.sh + g.kh, bandRows + g.kh);
        return 2 * entries * pb + 2 * g.taps() * alignUp(entries * 2, kUbBlockBytes) + 2 * accRows * g.w * pf +
               (cast ? 2 * bandRows * g.w * pb + entries * pb : 0) + entries * pf + 1024;
    };
    l->bandRows = g.h;
    while (l->bandRows > 1 && bytesFor(l->bandRows) > placement.ubBytes) --l->bandRows;
    if (bytesFor(l->bandRows) > placement.ubBytes) throwLoweringError(op, "one dx row does not fit in UB");
    l->bandsPerPlane = ceilDiv(g.h, l->bandRows);
    l->maxWindowRows = windowRows(l->bandRows);
    const std::uint64_t entries = l->maxWindowRows * g.outW;
    UbAllocator ub(placement.ubBytes, op.name);
    l->dyHalf = alignUp(entries * pb, kUbBlockBytes);
    l->dyStage = ub.allocate(2 * l->dyHalf, "grad rows");
    l->maskHalf = g.taps() * alignUp(entries * 2, kUbBlockBytes);
    l->maskStage = ub.allocate(2 * l->maskHalf, "tap masks");
    l->accHalf = alignUp(std::max((l->maxWindowRows - 1) * g.sh + g.kh, l->bandRows + g.kh) * g.w * pf, kUbBlockBytes);
    l->acc = ub.allocate(2 * l->accHalf, "dx rows (fp32)");
    if (cast) {
        l->outHalf = alignUp(l->bandRows * g.w * pb, kUbBlockBytes);
        l->outStage = ub.allocate(2 * l->outHalf, "dx rows");
        l->selected = ub.allocate(alignUp(entries * pb, kUbBlockBytes), "selected grad");
    }
    l->contribution = ub.allocate(alignUp(entries * pf, kUbBlockBytes), "selected grad (fp32)");
    l->zeros = ub.allocate(kUbBlockBytes, "zero block");
    l->cmpmask = ub.allocate(kUbBlockBytes, "CMPMASK stand-in");
    const std::uint64_t units = g.planes * l->bandsPerPlane;
    return {tiledVectorKernel<ArgmaxGradTiles>(op, placement, l, grad.bytes() + op.outputs[0].bytes(), units)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("MaxPoolGradWithArgmaxV1", lowerMaxPoolGradWithArgmax);

}  // namespace ascendsim
