// MaxPoolGradWithArgmaxV1 on NC1HWC0 with C0 = 16 (max_pool_argmax_geometry.h): dx = Σ over the
// window taps of the gradient where the forward's argmax bit is set, scattered to the tap's input
// position. x is an input for its shape only: the mask says where each window's maximum was. CANN
// runs fp16 with its TIK kernel (max_pool_argmax_tik.h) and fp32 with the DSL's
// schedule, this file's form (argmaxPoolPacking). A unit is a band of dx rows of one plane; like
// MaxPoolGrad (max_pool_grad_layout.h) it loads every window that touches the band and drops
// contributions outside it, so no two units write the same dx element. Per tile:
//   MTE2: dy rows of those windows (one burst) and their mask entries, one burst per tap;
//   V:    dx rows zeroed; per tap one vsel of dy by the tap's bits over all the windows' lanes, its
//         condition read from the mask in UB repeat after repeat (the real rows' vector time
//         matches this, docs/fidelity.md §62), and per window row a block-strided Add into the
//         tap's input positions (stride sw);
//   MTE3: the band's dx rows, one burst.
// Before each tap's vector work the scalar unit runs the DSL's col2img loop for that tap, its
// sh·sw stride-phase iterations (max_pool_grad_dsl_loop.h): the real rows are scalar-bound.
// A PipeBarrier<PIPE_V> separates each vector step from the one whose results it reads (the Adds
// after the select and after the previous tap's Adds), as in MaxPoolWithArgmaxV1
// (max_pool_with_argmax.cpp).
// Select takes its condition from a UB tile rather than bits: the work and bytes are modelled,
// the selected values are not the mask's.
#include <algorithm>
#include <memory>

#include "models/kernels/pooling/max_pool_argmax_geometry.h"
#include "models/kernels/pooling/max_pool_argmax_tik.h"
#include "models/kernels/pooling/max_pool_grad_dsl_loop.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;


struct ArgmaxGradLayout {
    ArgmaxPoolGeometry g;
    std::uint64_t dy = 0, mask = 0, dx = 0;
    std::uint64_t bandRows = 0, bandsPerPlane = 0, maxWindowRows = 0;
    std::uint64_t dyStage = 0, dyHalf = 0, maskStage = 0, maskHalf = 0, acc = 0, accHalf = 0;
    std::uint64_t contribution = 0, zeros = 0;
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
        const Instruction afterWrites = Instruction::barrier(Pipe::Vector);
        const std::uint64_t rows = std::max(accRows, b.h1 - firstRow);
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = acc}, rows * g.w * kArgmaxPoolC0, 0.0f);
        for (std::uint64_t tap = 0; tap < g.taps() && entries > 0; ++tap) {
            const std::uint64_t i = tap / g.kw, j = tap % g.kw;
            code.compute.push_back(Instruction::scalar(dslCol2ImgTapScalarCycles(g.sh, g.sw)));
            emitVectorRange(code.compute, VectorOp::Select, kF32,
                            {.dst = l.contribution, .src0 = dyBuf, .src1 = l.zeros, .src1IsBlock = true}, entries * kArgmaxPoolC0);
            code.compute.push_back(afterWrites);  // the Adds read the contribution and the previous tap's sums
            for (std::uint64_t r = 0; r < b.windows; ++r) {
                const std::uint64_t at = acc + ((r * g.sh + i) * g.w + j) * pf;
                emitPositions(code.compute, VectorOp::Add, kF32,
                              {.dst = at, .src0 = at, .src1 = l.contribution + r * g.outW * pf, .dstStride = g.sw, .src0Stride = g.sw},
                              g.outW);
            }
        }
        const std::uint64_t bandAt = acc + (b.h0 - firstRow) * g.w * pf, bandElements = (b.h1 - b.h0) * g.w * kArgmaxPoolC0;
        code.store.push_back(moveRowsToGm(bandAt, l.dx + (plane * g.h + b.h0) * g.w * pb, 1, bandElements * 4, bandElements * 4));
    }

private:
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
    const std::uint64_t workBytes = grad.bytes() + op.outputs[0].bytes();
    if (argmaxPoolPacking(g.dtype) == PositionPacking::BlockStrided)
        return {lowerMaxPoolGradWithArgmaxTik(
            op, chip, g, {.dy = grad.deviceAddr, .mask = op.inputs[2].deviceAddr, .dx = op.outputs[0].deviceAddr},
            workBytes)};
    l->dy = grad.deviceAddr;
    l->mask = op.inputs[2].deviceAddr;
    l->dx = op.outputs[0].deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t pb = g.positionBytes(), pf = kArgmaxPoolC0 * 4;
    auto windowRows = [&](std::uint64_t bandRows) { return std::min(g.outH, bandRows / g.sh + ceilDiv(g.kh, g.sh) + 1); };
    auto bytesFor = [&](std::uint64_t bandRows) {
        const std::uint64_t windows = windowRows(bandRows), entries = windows * g.outW;
        const std::uint64_t accRows = std::max((windows - 1) * g.sh + g.kh, bandRows + g.kh);
        return 2 * entries * pb + 2 * g.taps() * alignUp(entries * 2, kUbBlockBytes) + 2 * accRows * g.w * pf + entries * pf + 1024;
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
    l->contribution = ub.allocate(alignUp(entries * pf, kUbBlockBytes), "selected grad (fp32)");
    l->zeros = ub.allocate(kUbBlockBytes, "zero block");
    const std::uint64_t units = g.planes * l->bandsPerPlane;
    return {tiledVectorKernel<ArgmaxGradTiles>(op, placement, l, workBytes, units)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("MaxPoolGradWithArgmaxV1", lowerMaxPoolGradWithArgmax);

}  // namespace ascendsim
