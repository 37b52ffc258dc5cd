// Batch-norm application and gradient ops that are elementwise once per-channel values are known
// (docs/op-catalog.md): BNInfer, BNTrainingUpdate, BNTrainingReduceGrad. x is [N,C,H,W] (rows are
// (n, c) planes of H·W elements and channel parameters are Row values) or [N,C] (parameters are
// a repeated row). Computation is in fp32 like CANN's BN kernels.
#include <algorithm>
#include <memory>

#include "models/kernels/normalization/batch_norm_apply.h"
#include "models/kernels/normalization/channel_vector_ops.h"
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

struct ChannelView {
    std::vector<std::int64_t> outerDims;
    std::int64_t rowLength = 1;
    bool planes = true;  // rank 4: per-channel Row values; rank 2: a repeated row
    std::int64_t reducedCount = 1;  // N·H·W, the elements behind one channel statistic
};

ChannelView channelView(const OpInstance& op, const TensorInfo& x) {
    ChannelView view;
    if (x.shape.size() == 4) {
        view.outerDims = {x.shape[0], x.shape[1]};
        view.rowLength = x.shape[2] * x.shape[3];
        view.reducedCount = x.shape[0] * view.rowLength;
    } else if (x.shape.size() == 2) {
        view.outerDims = {x.shape[0]};
        view.rowLength = x.shape[1];
        view.planes = false;
        view.reducedCount = x.shape[0];
    } else {
        throwLoweringError(op, "x must be [N,C,H,W] or [N,C]");
    }
    return view;
}

Value channelParam(ElementwiseProgram& program, const ChannelView& view, const TensorInfo& tensor) {
    return view.planes ? program.rowValues(tensor, {0, 1}) : program.elements(tensor, {0});
}

ElementwiseProgram makeProgram(const OpInstance& op, const ChannelView& view) {
    if (!isFloat(op.inputs[0].dtype)) throwLoweringError(op, "x must be a float tensor");
    return ElementwiseProgram(op, DataType::Fp32, view.outerDims, view.rowLength);
}

std::vector<std::int64_t> denseStrides(const ChannelView& view) {
    return view.planes ? std::vector<std::int64_t>{view.outerDims[1] * view.rowLength, view.rowLength}
                       : std::vector<std::int64_t>{view.rowLength};
}

// y = x·a + b with a = scale·rsqrt(var + ε), b = offset − mean·a.
void applyNormalisation(ElementwiseProgram& p, Value x, Value mean, Value variance, Value scale, Value offset,
                        float epsilon, const TensorInfo& y) {
    const Value rstd = p.unary(VectorOp::Rsqrt, p.unary(VectorOp::Adds, variance, epsilon));
    const Value a = p.binary(VectorOp::Mul, scale, rstd);
    const Value b = p.binary(VectorOp::Sub, offset, p.binary(VectorOp::Mul, mean, a));
    p.store(p.binary(VectorOp::Add, p.binary(VectorOp::Mul, x, a), b), y);
}

// The channel-tile plan (batch_norm_apply.h): a tile holds one channel's planes (or a chunk of one
// plane), so the channel's coefficients are one broadcast value over the whole tile and every step
// is one instruction over it. A tile only gathers its channel's coefficients into broadcast
// buffers.
class BnApplyTiles final : public TileSource {
public:
    BnApplyTiles(std::shared_ptr<const BnApplyLayout> layout, UnitRange tiles)
        : l_(std::move(layout)), tiles_(tiles), channels_(groupsTouched(tiles, l_->tilesPerChannel())) {}
    std::uint64_t tileCount() const override { return tiles_.size(); }

    void setup(TileCode& code) override {
        if (channels_.count == 0) return;
        emitBnCoefficients(*l_, channels_.first, channels_.count, code);
        emitChannelBroadcastTables(code.compute, l_->tables, l_->coefCount(), l_->stride());
    }

    // An op with a broadcast coefficient writes the group half of its streamed source (the
    // broadcast is read from the other half) on another bank (emitBnApply: the bank slots).
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const BnApplyLayout& l = *l_;
        const std::uint64_t unit = tiles_.begin + index;
        const std::uint64_t channel = unit / l.tilesPerChannel(), inChannel = unit % l.tilesPerChannel();
        const std::uint64_t firstPlane = inChannel / l.chunksPerPlane * l.planesPerTile;
        const std::uint64_t firstElement = inChannel % l.chunksPerPlane * l.chunkElements;
        BnTileRows rows;
        rows.gmElement = (firstPlane * l.c + channel) * l.planeElements + firstElement;
        rows.rows = std::min(l.planesPerTile, l.n - firstPlane);
        rows.rowElements = std::min(l.chunkElements, l.planeElements - firstElement);
        rows.ubPitchElements = l.pitch;
        rows.count = rows.rows == 1 ? rows.rowElements : rows.rows * l.pitch;
        const std::uint64_t x = emitBnLoad(l, rows, l.x, l.xStage, l.a, half, code);
        emitChannelBroadcast(code.compute, l.broadcast, l.coefBuffer, channel - channels_.first, l.tables,
                             l.coefCount());
        emitBnApply(l, rows, x, half, [&](VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t k) {
            emitBroadcastOp(code.compute, op, dst, src, l.broadcast + k * kChannelBroadcastBytes, rows.count,
                            l.halfGroupBytes);
        }, code);
    }

private:
    std::shared_ptr<const BnApplyLayout> l_;
    UnitRange tiles_;
    GroupSpan channels_;
};

bool layOutApply(BnApplyLayout& l, const ChipConfig& chip, std::uint64_t ubBytes, std::uint64_t tileElements) {
    BankSlotAllocator ub(chip);
    const std::uint64_t f32Bytes = tileElements * 4;
    const bool cast = l.inType != DataType::Fp32;
    l.halfGroupBytes = ub.halfGroupBytes();
    l.stageStride = ub.slotStride(alignUp(tileElements * bytesOf(l.inType), kUbBlockBytes));
    l.xStage = ub.allocate(2 * l.stageStride, castStageSlot(0, cast));  // x planes
    if (l.kind == BnApplyKind::ReduceGrad) l.dyStage = ub.allocate(2 * l.stageStride, castStageSlot(1, cast));  // dy planes
    l.outStride = ub.slotStride(alignUp(tileElements * bytesOf(l.outType), kUbBlockBytes));
    l.outStage = ub.allocate(2 * l.outStride, l.kind == BnApplyKind::ReduceGrad ? 5 : 4);  // output planes
    l.a = ub.allocate(f32Bytes, 0);  // fp32 tile
    l.b = l.kind == BnApplyKind::ReduceGrad ? ub.allocate(f32Bytes, 1) : 0;  // fp32 tile
    l.t = ub.allocate(f32Bytes, 2);  // fp32 tile
    l.w = l.kind == BnApplyKind::ReduceGrad ? ub.allocate(f32Bytes, 3) : 0;  // fp32 tile
    l.paramStage = ub.allocate(l.params.size() * l.stride(), 4);  // channel parameters as loaded
    l.paramBuffer = ub.allocate((l.params.size() + 1) * l.stride(), 0);  // channel parameters
    l.coefBuffer = ub.allocate(l.coefCount() * l.stride(), 2);  // channel coefficients
    l.tables = ub.allocate(channelBroadcastTableBytes(l.coefCount()), 0);  // broadcast offsets
    l.broadcast = ub.allocate(l.coefCount() * kChannelBroadcastBytes, 0);  // broadcast coefficients
    return ub.fits(ubBytes);
}

// Whether a channel tile's moves carry several planes that are not whole 32 B blocks in x's or the
// output's dtype: one burst per plane, each padded to a block in UB.
bool channelTilesPadPlanes(const BnApplyLayout& l) {
    if (l.chunksPerPlane > 1 || l.planesPerTile < 2) return false;
    for (DataType t : {l.inType, l.outType})
        if (l.planeElements * bytesOf(t) % kUbBlockBytes != 0) return true;
    return false;
}

// x, dy and the output are [N,C,H,W]; `params` are the [C] fp32 inputs.
LoweredKernel lowerBnApply(const OpInstance& op, const ChipConfig& chip, BnApplyKind kind, const TensorInfo& x,
                           std::vector<TensorInfo> params) {
    auto l = std::make_shared<BnApplyLayout>();
    l->kind = kind;
    l->n = static_cast<std::uint64_t>(x.shape[0]), l->c = static_cast<std::uint64_t>(x.shape[1]);
    l->planeElements = static_cast<std::uint64_t>(x.shape[2] * x.shape[3]);
    l->inType = x.dtype, l->outType = op.outputs[0].dtype;
    for (DataType t : {l->inType, l->outType})
        if (t != DataType::Fp32 && t != DataType::Fp16 && t != DataType::Bf16)
            throwLoweringError(op, "x and the output must be fp32, fp16 or bf16");
    if (op.outputs[0].elementCount() != x.elementCount()) throwLoweringError(op, "the output must match x");
    l->epsilon = static_cast<float>(op.floatAttr("epsilon", 1e-5));
    l->inverseCount = 1.0f / static_cast<float>(l->n * l->planeElements);
    l->x = x.deviceAddr, l->out = op.outputs[0].deviceAddr;
    if (kind == BnApplyKind::ReduceGrad) {
        l->dy = op.inputs[0].deviceAddr;
        if (op.inputs[0].dtype != x.dtype || op.inputs[0].elementCount() != x.elementCount())
            throwLoweringError(op, "dy must match x");
    }
    for (const auto& p : params) {
        if (!isFloat(p.dtype) || p.elementCount() != x.shape[1])
            throwLoweringError(op, "per-channel inputs must be float [C] tensors");
        l->params.push_back(p.deviceAddr);
        l->paramTypes.push_back(p.dtype);
    }
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t inBytes = bytesOf(l->inType), outBytes = bytesOf(l->outType);
    auto fits = [&](std::uint64_t elements) { return layOutApply(*l, chip, placement.ubBytes, elements); };
    // Whole planes per tile, as many as fit; else one plane in chunks of whole fp32 repeats.
    auto sizeTiles = [&] {
        l->chunkElements = l->planeElements, l->chunksPerPlane = 1;
        l->pitch = alignUp(l->planeElements, kUbBlockBytes / std::min(inBytes, outBytes));
        l->planesPerTile = 0;
        for (std::uint64_t planes = l->n; planes > 0 && l->planesPerTile == 0; planes = planes * 3 / 4)
            if (fits(planes * l->pitch)) l->planesPerTile = planes;
        if (l->planesPerTile == 0) {
            std::uint64_t chunk = alignUp(l->planeElements, elementsPerRepeat(DataType::Fp32));
            while (chunk > elementsPerRepeat(DataType::Fp32) && !fits(chunk)) chunk -= elementsPerRepeat(DataType::Fp32);
            if (!fits(chunk)) throwLoweringError(op, "a 64-element chunk of an H·W plane does not fit in UB");
            l->chunkElements = l->pitch = chunk;
            l->chunksPerPlane = ceilDiv(l->planeElements, chunk);
            l->planesPerTile = 1;
        }
        while (l->chunksPerPlane == 1 && l->planesPerTile < l->n && fits((l->planesPerTile + 1) * l->pitch))
            ++l->planesPerTile;
    };
    // UB holds the coefficients of the channels a block's tiles touch, which depends on the tile
    // size through the block count: start from C spread over every core and grow until it holds.
    auto channelsFor = [&](std::uint64_t blocks, std::uint64_t tiles) {
        // A block's tiles span at most ceil(share / tilesPerChannel) + 1 channels.
        const std::uint64_t span = ceilDiv(ceilDiv(tiles, blocks), l->tilesPerChannel()) + 1;
        return alignUp(std::min(l->c, span), elementsPerBlock(DataType::Fp32));
    };
    l->channelsPerBlock = alignUp(std::min(l->c, ceilDiv(l->c, placement.coreCount) + 1), elementsPerBlock(DataType::Fp32));
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    const std::uint64_t workBytes = x.bytes() * (kind == BnApplyKind::ReduceGrad ? 3 : 2);
    std::uint64_t tiles = 0;
    for (;;) {
        sizeTiles();
        tiles = l->c * l->tilesPerChannel();
        kernel.blockDim = chooseVectorBlockDim(op, placement, workBytes, tiles);
        const std::uint64_t needed = channelsFor(kernel.blockDim, tiles);
        if (needed <= l->channelsPerBlock) break;
        l->channelsPerBlock = needed;
    }
    fits(l->planesPerTile * l->pitch);

    // Small planes: channel slabs when they fit and the busiest block issues fewer instructions,
    // or whenever a channel tile's planes are not whole 32 B blocks. CANN's BNInfer on NCHW is the
    // DSL's broadcast schedule over the fused [N, C, H·W] shape (bn_infer.py: ELEWISE_WITH_BROADCAST);
    // its UB tile is a contiguous run of that shape and it pads no row in UB (the default
    // BroadcastSchedule leaves _calc_ub_align empty), so it moves runs of planes, never one padded
    // burst a plane as a channel tile would (each such burst pays the path's padded-burst issue,
    // §74; docs/fidelity.md §87).
    BnApplyTiles channelBlock0(l, blockShare(tiles, kernel.blockDim, 0));
    auto slabs = std::make_shared<BnApplyLayout>(*l);
    SlabPlan slabPlan;
    if (planChannelSlabs(*slabs, op, chip, workBytes, slabPlan) &&
        (channelTilesPadPlanes(*l) || slabPlan.instructionsPerBlock < estimatedBlockInstructions(channelBlock0))) {
        kernel.blockDim = slabPlan.blockDim;
        kernel.program = channelSlabProgram(std::move(slabs), slabPlan);
        return kernel;
    }
    kernel.program = doubleBufferedBlockShares<BnApplyTiles, BnApplyLayout>(l, tiles, kernel.blockDim);
    return kernel;
}

std::vector<LoweredKernel> lowerBnInfer(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 5, 1);
    const ChannelView view = channelView(op, op.inputs[0]);
    if (view.planes)
        return {lowerBnApply(op, chip, BnApplyKind::Infer, op.inputs[0],
                             {op.inputs[1], op.inputs[2], op.inputs[3], op.inputs[4]})};
    auto p = makeProgram(op, view);
    const Value x = p.elements(op.inputs[0], denseStrides(view));
    const Value scale = channelParam(p, view, op.inputs[1]);
    const Value offset = channelParam(p, view, op.inputs[2]);
    const Value mean = channelParam(p, view, op.inputs[3]);
    const Value variance = channelParam(p, view, op.inputs[4]);
    applyNormalisation(p, x, mean, variance, scale, offset, static_cast<float>(op.floatAttr("epsilon", 1e-5)),
                       op.outputs[0]);
    return {p.lower(chip)};
}

// Training pass 2: mean = sum/M, var = square_sum/M − mean² (biased, as BN training uses).
std::vector<LoweredKernel> lowerBnTrainingUpdate(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 5, 1);
    const ChannelView view = channelView(op, op.inputs[0]);
    if (view.planes)
        return {lowerBnApply(op, chip, BnApplyKind::TrainingUpdate, op.inputs[0],
                             {op.inputs[1], op.inputs[2], op.inputs[3], op.inputs[4]})};
    auto p = makeProgram(op, view);
    const float inverseCount = 1.0f / static_cast<float>(view.reducedCount);
    const Value x = p.elements(op.inputs[0], denseStrides(view));
    const Value mean = p.unary(VectorOp::Muls, channelParam(p, view, op.inputs[1]), inverseCount);
    const Value meanOfSquares = p.unary(VectorOp::Muls, channelParam(p, view, op.inputs[2]), inverseCount);
    const Value variance = p.binary(VectorOp::Sub, meanOfSquares, p.binary(VectorOp::Mul, mean, mean));
    const Value scale = channelParam(p, view, op.inputs[3]);
    const Value offset = channelParam(p, view, op.inputs[4]);
    applyNormalisation(p, x, mean, variance, scale, offset, static_cast<float>(op.floatAttr("epsilon", 1e-5)),
                       op.outputs[0]);
    return {p.lower(chip)};
}

// dx = scale·rstd·(dy − diff_offset/M − (x − mean)·rstd·diff_scale/M).
std::vector<LoweredKernel> lowerBnTrainingReduceGrad(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 7, 1);
    const ChannelView view = channelView(op, op.inputs[1]);
    if (view.planes)
        return {lowerBnApply(op, chip, BnApplyKind::ReduceGrad, op.inputs[1],
                             {op.inputs[2], op.inputs[3], op.inputs[4], op.inputs[5], op.inputs[6]})};
    auto p = makeProgram(op, view);
    const float inverseCount = 1.0f / static_cast<float>(view.reducedCount);
    const Value dy = p.elements(op.inputs[0], denseStrides(view));
    const Value x = p.elements(op.inputs[1], denseStrides(view));
    const Value diffScale = channelParam(p, view, op.inputs[2]);
    const Value diffOffset = channelParam(p, view, op.inputs[3]);
    const Value scale = channelParam(p, view, op.inputs[4]);
    const Value mean = channelParam(p, view, op.inputs[5]);
    const Value variance = channelParam(p, view, op.inputs[6]);
    const float epsilon = static_cast<float>(op.floatAttr("epsilon", 1e-5));
    const Value rstd = p.unary(VectorOp::Rsqrt, p.unary(VectorOp::Adds, variance, epsilon));
    const Value gain = p.binary(VectorOp::Mul, scale, rstd);
    const Value offsetShare = p.unary(VectorOp::Muls, diffOffset, inverseCount);
    const Value scaleShare = p.unary(VectorOp::Muls, p.binary(VectorOp::Mul, rstd, diffScale), inverseCount);
    const Value centred = p.binary(VectorOp::Sub, x, mean);
    Value t = p.binary(VectorOp::Sub, dy, offsetShare);
    t = p.binary(VectorOp::Sub, t, p.binary(VectorOp::Mul, centred, scaleShare));
    p.store(p.binary(VectorOp::Mul, t, gain), op.outputs[0]);
    return {p.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("BNInfer", lowerBnInfer);
ASCENDSIM_REGISTER_KERNEL("BNTrainingUpdate", lowerBnTrainingUpdate);
ASCENDSIM_REGISTER_KERNEL("BNTrainingReduceGrad", lowerBnTrainingReduceGrad);

}  // namespace ascendsim
