// MaxPoolGradWithArgmaxV1 on NC1HWC0 with C0 = 16 (max_pool_argmax_geometry.h): dx = Σ over the
// window taps of the gradient where the forward's argmax bit is set, scattered to the tap's input
// position. x is an input for its shape only: the mask says where each window's maximum was. CANN
// runs fp16 with its TIK kernel (max_pool_argmax_tik.h) and fp32 with the DSL's PoolingGradWithArg
// schedule, this file's form. Its compute (tbe/dsl/compute/max_pool_grad_with_argmax.py,
// max_pool_grad_with_argmax_3d) and schedule (unify_schedule/vector/pooling_grad_with_arg/
// pooling_grad_with_arg_schedule.py, CANN 8.1.RC1) give, per UB tile of dx rows
// (max_pool_grad_with_argmax_dsl_tiling.h) and per chunk of window taps (one chunk in COMMON):
//   MTE2: the argmax, one dma_copy of the chunk's taps (the cache read, emitted at its outer axis;
//         one burst a tap, its UB rows storage-aligned to 256 bits), and the tile's dy rows
//         (`grad_ub`, merge_hwo), one burst — both again for every chunk in WINDOW_SPLIT;
//   V:    `grad_sel`, one vsel a tap over the tile's positions (emitted at the hwo axis on the
//         910B), then `grad_split_hwo`, a UB → UB dma_copy of the selected rows (its op has no tag:
//         get_insn gives dma_copy); the dx tile zeroed once (the assist vector_dup the reduce
//         reuses); then the col2img reduce ordered (tap, stride_h_inner, stride_w_inner,
//         stride_h_outer, stride_w_outer, c0) and emitted at stride_h_outer under a store predicate:
//         per tap sh·sw scalar iterations (max_pool_grad_dsl_loop.h), and in the one whose phase
//         matches the tap a vector_add per dx row of that phase, one position a repeat
//         (PositionPacking::OnePerRepeat) stepping sw positions;
//   MTE3: the tile's dx rows, one burst.
// One buffer a node: a chunk's loads wait for the previous chunk's vector work, and a tile's
// vector work for the previous tile's store. A PipeBarrier<PIPE_V> separates each vector step from
// the one whose results it reads.
// Select takes its condition from a UB tile rather than bits: the work and bytes are modelled,
// the selected values are not the mask's.
#include <algorithm>
#include <memory>

#include "models/kernels/pooling/max_pool_argmax_geometry.h"
#include "models/kernels/pooling/max_pool_argmax_tik.h"
#include "models/kernels/pooling/max_pool_grad_dsl_loop.h"
#include "models/kernels/pooling/max_pool_grad_with_argmax_dsl_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;


struct ArgmaxGradLayout {
    ArgmaxPoolGeometry g;
    DslArgmaxGradTiling t;
    std::uint64_t dy = 0, mask = 0, dx = 0;
    std::uint64_t maskStage = 0, maskTapStride = 0, gradStage = 0, selected = 0, split = 0, acc = 0, zeros = 0;
};

// A UB tile: dx rows [h0, h1) of one plane and the dy rows [ohLo, ohLo + windows) whose windows reach them.
struct ArgmaxGradTile {
    std::uint64_t plane = 0, h0 = 0, h1 = 0, ohLo = 0, windows = 0;
};

ArgmaxGradTile argmaxGradTileOf(const ArgmaxGradLayout& l, std::uint64_t unit) {
    const ArgmaxPoolGeometry& g = l.g;
    const DslArgmaxGradTiling& t = l.t;
    ArgmaxGradTile u;
    u.plane = unit / t.tilesPerPlane();
    const std::uint64_t inPlane = unit % t.tilesPerPlane(), hBlock = inPlane / t.tilesPerHBlock, k = inPlane % t.tilesPerHBlock;
    const std::uint64_t blockTop = hBlock * t.hBlockRows, blockEnd = std::min(g.h, blockTop + t.hBlockRows);
    u.h0 = std::min(blockEnd, blockTop + k * t.tileRows);
    u.h1 = std::min(blockEnd, u.h0 + t.tileRows);
    u.ohLo = u.h0 + 1 >= g.kh ? ceilDiv(u.h0 + 1 - g.kh, g.sh) : 0;
    const std::uint64_t ohHi = u.h1 > 0 ? std::min(g.outH - 1, (u.h1 - 1) / g.sh) : 0;
    u.windows = u.h1 > u.h0 && ohHi >= u.ohLo ? ohHi - u.ohLo + 1 : 0;
    return u;
}

// The dy rows any tile selects: the most windows a tile's rows reach.
std::uint64_t argmaxGradMaxWindows(const ArgmaxGradLayout& l) {
    std::uint64_t most = 0;
    for (std::uint64_t unit = 0; unit < l.t.tilesPerPlane(); ++unit) most = std::max(most, argmaxGradTileOf(l, unit).windows);
    return most;
}

// One program tile per (UB tile, tap chunk).
class ArgmaxGradTiles final : public TileSource {
public:
    ArgmaxGradTiles(std::shared_ptr<const ArgmaxGradLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size() * chunks(); }
    std::uint32_t buffers() const override { return 1; }
    void setup(TileCode& code) override {
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l_->zeros}, elementsPerBlock(kF32), 0.0f);
    }
    void tile(std::uint64_t index, std::uint32_t, TileCode& code) override {
        const ArgmaxGradLayout& l = *l_;
        const ArgmaxPoolGeometry& g = l.g;
        const ArgmaxGradTile u = argmaxGradTileOf(l, units_.begin + index / chunks());
        const std::uint64_t chunk = index % chunks(), t0 = chunk * l.t.tapsPerChunk;
        const std::uint64_t t1 = std::min(g.taps(), t0 + l.t.tapsPerChunk), chunkTaps = t1 - t0;
        const std::uint64_t pb = g.positionBytes(), pf = kArgmaxPoolC0 * 4, entries = u.windows * g.outW;
        if (chunk == 0)
            emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l.acc}, (u.h1 - u.h0) * g.w * kArgmaxPoolC0, 0.0f);
        if (entries > 0) {
            const std::uint64_t maskGm = l.mask + ((u.plane * g.taps() + t0) * g.maskTapEntries() + u.ohLo * g.outW) * 2;
            code.load.push_back(moveStridedRowsToUb(maskGm, l.maskStage, static_cast<std::uint32_t>(chunkTaps), entries * 2,
                                                    g.maskTapEntries() * 2, l.maskTapStride));
            code.load.push_back(moveRowsToUb(l.dy + (u.plane * g.outH + u.ohLo) * g.outW * pb, l.gradStage, 1, entries * pb, entries * pb));
            const Instruction afterWrites = Instruction::barrier(Pipe::Vector);
            for (std::uint64_t k = 0; k < chunkTaps; ++k)
                emitVectorRange(code.compute, VectorOp::Select, kF32,
                                {.dst = l.selected + k * entries * pf, .src0 = l.gradStage, .src1 = l.zeros, .src1IsBlock = true},
                                entries * kArgmaxPoolC0);
            code.compute.push_back(afterWrites);
            code.compute.push_back(Instruction::move(DataMove{.src = MemSpace::UB, .dst = MemSpace::UB, .srcAddr = l.selected, .dstAddr = l.split,
                                                            .burstBytes = static_cast<std::uint32_t>(chunkTaps * entries * pf),
                                                            .srcType = kF32, .dstType = kF32}));
            code.compute.push_back(afterWrites);  // the Adds read the split rows
            for (std::uint64_t tap = t0; tap < t1; ++tap) {
                const std::uint64_t i = tap / g.kw, j = tap % g.kw, k = tap - t0;
                code.compute.push_back(Instruction::scalar(dslCol2ImgTapScalarCycles(g.sh, g.sw)));
                for (std::uint64_t r = 0; r < u.windows; ++r) {
                    const std::uint64_t hi = (u.ohLo + r) * g.sh + i;
                    if (hi < u.h0 || hi >= u.h1) continue;  // the tile's rows only
                    const std::uint64_t at = l.acc + ((hi - u.h0) * g.w + j) * pf;
                    emitPositions(code.compute, VectorOp::Add, kF32,
                                  {.dst = at, .src0 = at, .src1 = l.split + (k * entries + r * g.outW) * pf, .dstStride = g.sw, .src0Stride = g.sw},
                                  g.outW);
                }
                code.compute.push_back(afterWrites);  // the next tap adds into the same dx positions
            }
        }
        if (t1 == g.taps()) {
            const std::uint64_t bytes = (u.h1 - u.h0) * g.w * pb;
            code.store.push_back(moveRowsToGm(l.acc, l.dx + (u.plane * g.h + u.h0) * g.w * pb, 1, bytes, bytes));
        }
    }

private:
    std::uint64_t chunks() const { return l_->t.chunks(l_->g.taps()); }
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
    l->t = dslArgmaxGradTiling(g, placement.ubBytes, op.blockDim.value_or(0));
    const std::uint64_t pf = kArgmaxPoolC0 * 4, windows = argmaxGradMaxWindows(*l), entries = windows * g.outW;
    UbAllocator ub(placement.ubBytes, op.name);
    l->maskTapStride = alignUp(entries * 2, kUbBlockBytes);
    l->maskStage = ub.allocate(l->t.tapsPerChunk * l->maskTapStride, "argmax taps");
    l->gradStage = ub.allocate(alignUp(entries * pf, kUbBlockBytes), "grad rows (grad_ub)");
    l->selected = ub.allocate(alignUp(l->t.tapsPerChunk * entries * pf, kUbBlockBytes), "selected grad (grad_sel)");
    l->split = ub.allocate(alignUp(l->t.tapsPerChunk * entries * pf, kUbBlockBytes), "split rows (grad_split_hwo)");
    l->acc = ub.allocate(alignUp(l->t.tileRows * g.w * pf, kUbBlockBytes), "dx rows (res_fp32)");
    l->zeros = ub.allocate(kUbBlockBytes, "zero block");
    const std::uint64_t units = g.planes * l->t.tilesPerPlane();
    return {tiledVectorKernel<ArgmaxGradTiles>(op, placement, l, workBytes, units)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("MaxPoolGradWithArgmaxV1", lowerMaxPoolGradWithArgmax);

}  // namespace ascendsim
