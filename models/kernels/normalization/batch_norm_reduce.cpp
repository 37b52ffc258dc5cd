// Per-channel reductions of batch-norm training (docs/op-catalog.md): BNTrainingReduce
// (sum, square_sum of x) and BNTrainingUpdateGrad (diff_scale = Σ dy·(x−mean)·rstd,
// diff_offset = Σ dy). Blocks own channels; a tile loads up to R of channel c's N planes
// (H·W elements each, C·H·W apart in GM), reduces them to one value per output, and MTE3 adds it
// into the fp32 result (the channel's first tile writes, later tiles accumulate atomically).
// When one plane does not fit in UB, a tile is one chunk of one plane instead, and the chunks'
// fp32 partial sums accumulate the same way.
#include <algorithm>
#include <memory>

#include "models/kernels/normalization/channel_vector_ops.h"
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;

struct BnReduceLayout {
    bool gradient = false;  // BNTrainingUpdateGrad
    std::uint64_t n = 0, c = 0, planeElements = 0;
    float epsilon = 1e-5f;
    DataType dtype = kF32;
    std::uint64_t x = 0, dy = 0, mean = 0, variance = 0, out0 = 0, out1 = 0;  // GM
    std::uint64_t planesPerTile = 0, pitch = 0;
    std::uint64_t chunkElements = 0, chunksPerPlane = 1;  // chunkElements = planeElements unless split
    std::uint64_t halfGroupBytes = 256;
    std::uint64_t channelsPerBlock = 0;  // capacity of the block's statistics
    // UB (see the tile comment for the bank slots)
    std::uint64_t xStage = 0, dyStage = 0, stageStride = 0, xF32 = 0, dyF32 = 0, centred = 0, squares = 0;
    std::uint64_t foldA = 0, foldB = 0, firstSums = 0;
    std::uint64_t stats = 0, gatherTable = 0, channelValues = 0;
    std::uint64_t results = 0;  // 2 outputs × 2 halves × 1 block
};

class BnReduceTiles final : public TileSource {
public:
    BnReduceTiles(std::shared_ptr<const BnReduceLayout> layout, UnitRange channels)
        : l_(std::move(layout)),
          channels_(channels),
          tilesPerChannel_(ceilDiv(l_->n, l_->planesPerTile) * l_->chunksPerPlane) {}

    std::uint64_t tileCount() const override { return channels_.size() * tilesPerChannel_; }

    // Zeroes the stage padding between planes (never written by loads, summed by the folds).
    // Gradient: the block's batch_mean and rstd = rsqrt(batch_variance + ε), once per block,
    // and the Gather offsets that broadcast one channel's mean and rstd.
    void setup(TileCode& code) override {
        const BnReduceLayout& l = *l_;
        if (l.chunksPerPlane == 1 && l.pitch != l.planeElements) {
            emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = l.xStage},
                            2 * l.stageStride / bytesOf(l.dtype), 0.0f);
            if (l.gradient)
                emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = l.dyStage},
                                2 * l.stageStride / bytesOf(l.dtype), 0.0f);
        }
        if (!l.gradient || channels_.size() == 0) return;
        const std::uint64_t count = channels_.size(), rstd = l.stats + l.channelsPerBlock * 4;
        for (std::uint64_t k = 0; k < 2; ++k)
            code.load.push_back(Instruction::move({.src = MemSpace::GM, .dst = MemSpace::UB,
                                                   .srcAddr = (k ? l.variance : l.mean) + channels_.begin * 4,
                                                   .dstAddr = k ? rstd : l.stats,
                                                   .burstBytes = static_cast<std::uint32_t>(count * 4),
                                                   .srcType = kF32, .dstType = kF32}));
        emitVectorRange(code.compute, VectorOp::Adds, kF32, {.dst = rstd, .src0 = rstd}, count, l.epsilon);
        emitVectorRange(code.compute, VectorOp::Rsqrt, kF32, {.dst = rstd, .src0 = rstd}, count);
        emitChannelBroadcastTables(code.compute, l.gatherTable, 2, l.channelsPerBlock * 4);
    }

    // One channel's planes (or a chunk of one plane). Bank slots: x in fp32 0, dy in fp32 1,
    // x − mean 2, dy·(x − mean) over x, squares 2, fold scratch 4 and 3: every binary op reads its
    // two tiles from opposite group halves and writes a third slot.
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const BnReduceLayout& l = *l_;
        const std::uint64_t channel = channels_.begin + index / tilesPerChannel_;
        const std::uint64_t inChannel = index % tilesPerChannel_;
        const std::uint64_t firstPlane = inChannel / l.chunksPerPlane * l.planesPerTile;
        const std::uint64_t chunk = inChannel % l.chunksPerPlane, firstElement = chunk * l.chunkElements;
        const std::uint64_t rowElements = std::min(l.chunkElements, l.planeElements - firstElement);
        const auto planes = static_cast<std::uint32_t>(std::min(l.planesPerTile, l.n - firstPlane));
        const std::uint64_t eb = bytesOf(l.dtype), count = planes == 1 ? rowElements : planes * l.pitch;
        const std::uint64_t planeBytes = l.planeElements * eb, rowBytes = rowElements * eb;
        auto loadPlanes = [&](std::uint64_t gm, std::uint64_t stage) {
            DataMove m{.src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = gm + (firstPlane * l.c + channel) * planeBytes + firstElement * eb;
            m.dstAddr = stage + half * l.stageStride;
            m.burstCount = planes;
            m.burstBytes = static_cast<std::uint32_t>(rowBytes);
            m.srcGapBytes = static_cast<std::uint32_t>(l.c * planeBytes - rowBytes);
            m.dstGapBytes = static_cast<std::uint32_t>((l.pitch - rowElements) * eb);
            code.load.push_back(Instruction::move(m));
            return m.dstAddr;
        };
        auto toF32 = [&](std::uint64_t staged, std::uint64_t f32) {
            if (l.dtype == kF32) return staged;
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = f32, .src0 = staged}, count, 0.0f, l.dtype);
            return f32;
        };
        std::vector<Instruction>& v = code.compute;
        const std::uint64_t x = toF32(loadPlanes(l.x, l.xStage), l.xF32);
        std::uint64_t sums[2] = {0, 0};  // one repeat of partial sums per output
        if (l.gradient) {
            const std::uint64_t dy = toF32(loadPlanes(l.dy, l.dyStage), l.dyF32);
            const std::uint64_t mean = l.channelValues, rstd = l.channelValues + kChannelBroadcastBytes;
            emitChannelBroadcast(v, mean, l.stats, channel - channels_.begin, l.gatherTable, 2);
            emitBroadcastOp(v, VectorOp::Sub, l.centred, x, mean, count, l.halfGroupBytes);
            const std::uint64_t product = x;  // x is dead after the subtraction
            emitVectorRange(v, VectorOp::Mul, kF32, {.dst = product, .src0 = l.centred, .src1 = dy}, count);
            // diff_scale = rstd·Σ dy·(x − mean): rstd is applied to the 64 partials only.
            const std::uint64_t partials = emitSumFold(v, product, count, l.foldA, l.foldB);
            emitVectorRange(v, VectorOp::Mul, kF32, {.dst = l.firstSums, .src0 = partials, .src1 = rstd},
                            elementsPerRepeat(kF32));
            sums[1] = emitSumFold(v, dy, count, l.foldA, l.foldB);
        } else {
            emitVectorRange(v, VectorOp::Mul, kF32, {.dst = l.squares, .src0 = x, .src1 = x}, count);
            const std::uint64_t partials = emitSumFold(v, x, count, l.foldA, l.foldB);
            emitVectorRange(v, VectorOp::Copy, kF32, {.dst = l.firstSums, .src0 = partials}, elementsPerRepeat(kF32));
            sums[1] = emitSumFold(v, l.squares, count, l.foldA, l.foldB);
        }
        sums[0] = l.firstSums;
        // Output 0: Σx (reduce) or Σdy·x̂ (grad); output 1: Σx² (reduce) or Σdy (grad).
        for (std::uint64_t k = 0; k < 2; ++k) {
            const std::uint64_t result = l.results + (k * 2 + half) * kUbBlockBytes;
            VectorInstr sum{.op = VectorOp::ReduceSum, .dtype = kF32, .srcType = kF32, .dst = result, .src0 = sums[k]};
            sum.mask = static_cast<std::uint16_t>(elementsPerRepeat(kF32));
            v.push_back(Instruction::vector(sum));
            code.store.push_back(Instruction::move({.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = result,
                                                    .dstAddr = (k ? l.out1 : l.out0) + channel * 4, .burstBytes = 4,
                                                    .srcType = kF32, .dstType = kF32, .atomicAdd = inChannel > 0}));
        }
        code.scalarCycles = planes;
    }

private:
    std::shared_ptr<const BnReduceLayout> l_;
    UnitRange channels_;
    std::uint64_t tilesPerChannel_;
};

// Lays out every UB buffer for tiles of `tileElements` (see BnReduceTiles::tile for the slots);
// returns false when they do not fit.
bool layOut(BnReduceLayout& l, const ChipConfig& chip, std::uint64_t ubBytes, std::uint64_t tileElements) {
    BankSlotAllocator ub(chip);
    const std::uint64_t eb = bytesOf(l.dtype), f32Bytes = tileElements * 4;
    l.halfGroupBytes = ub.halfGroupBytes();
    l.stageStride = ub.slotStride(alignUp(tileElements * eb, kUbBlockBytes));
    l.xStage = ub.allocate(2 * l.stageStride, castStageSlot(0, eb != 4));  // x planes
    l.xF32 = eb != 4 ? ub.allocate(f32Bytes, 0) : 0;  // x planes in fp32
    if (l.gradient) {
        l.dyStage = ub.allocate(2 * l.stageStride, castStageSlot(1, eb != 4));  // dy planes
        l.dyF32 = eb != 4 ? ub.allocate(f32Bytes, 1) : 0;  // dy planes in fp32
        l.centred = ub.allocate(f32Bytes, 2);  // x - mean
        l.stats = ub.allocate(2 * l.channelsPerBlock * 4, 0);  // channel statistics
        l.gatherTable = ub.allocate(channelBroadcastTableBytes(2), 0);  // broadcast offsets
        l.channelValues = ub.allocate(2 * kChannelBroadcastBytes, 0);  // channel mean and rstd
    }
    l.squares = l.gradient ? 0 : ub.allocate(f32Bytes, 2);  // squares
    l.foldA = ub.allocate(sumFoldScratchBytes(tileElements), 4);  // fold partials
    l.foldB = ub.allocate(sumFoldScratchBytes(tileElements), 3);  // fold partials
    l.firstSums = ub.allocate(kVectorRepeatBytes, 5);  // output 0 partial sums
    l.results = ub.allocate(4 * kUbBlockBytes, 0);  // channel results
    return ub.fits(ubBytes);
}

std::vector<LoweredKernel> lowerBnReduce(const OpInstance& op, const ChipConfig& chip, bool gradient) {
    requireOperands(op, gradient ? 4 : 1, 2);
    const TensorInfo& x = op.inputs[gradient ? 1 : 0];
    if (x.shape.size() != 4 || !isFloat(x.dtype)) throwLoweringError(op, "x must be a float [N,C,H,W] tensor");
    for (const auto& out : op.outputs)
        if (out.dtype != kF32) throwLoweringError(op, "outputs must be fp32");
    auto l = std::make_shared<BnReduceLayout>();
    l->gradient = gradient;
    l->n = static_cast<std::uint64_t>(x.shape[0]);
    l->c = static_cast<std::uint64_t>(x.shape[1]);
    l->planeElements = static_cast<std::uint64_t>(x.shape[2] * x.shape[3]);
    l->dtype = x.dtype == DataType::Bf16 || x.dtype == DataType::Fp16 ? x.dtype : kF32;
    l->epsilon = static_cast<float>(op.floatAttr("epsilon", 1e-5));
    l->x = x.deviceAddr;
    if (gradient) {
        l->dy = op.inputs[0].deviceAddr, l->mean = op.inputs[2].deviceAddr, l->variance = op.inputs[3].deviceAddr;
        if (op.inputs[0].dtype != x.dtype) throwLoweringError(op, "dy and x must have the same dtype");
        if (op.inputs[2].dtype != kF32 || op.inputs[3].dtype != kF32) throwLoweringError(op, "batch_mean/variance must be fp32");
    }
    l->out0 = op.outputs[0].deviceAddr, l->out1 = op.outputs[1].deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t inputs = gradient ? 2 : 1;
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, x.bytes() * inputs, l->c);
    l->channelsPerBlock = alignUp(ceilDiv(l->c, kernel.blockDim), elementsPerBlock(kF32));

    // Whole planes per tile, as many as fit; else one plane in chunks of whole fp32 repeats (so
    // every chunk but the last is block-aligned in UB for x, dy and their fp32 copies).
    const std::uint64_t eb = bytesOf(l->dtype);
    l->pitch = l->chunkElements = l->planeElements;
    if (l->chunksPerPlane == 1 && l->planeElements * eb % kUbBlockBytes != 0)
        l->pitch = alignUp(l->planeElements, kUbBlockBytes / eb);
    l->planesPerTile = 0;
    for (std::uint64_t planes = l->n; planes > 0 && l->planesPerTile == 0; planes = planes * 3 / 4) {
        if (layOut(*l, chip, placement.ubBytes, planes * l->pitch)) l->planesPerTile = planes;
    }
    if (l->planesPerTile == 0) {
        const std::uint64_t granule = elementsPerRepeat(kF32);
        std::uint64_t chunk = alignUp(l->planeElements, granule);
        while (chunk > granule && !layOut(*l, chip, placement.ubBytes, chunk)) chunk -= granule;
        if (!layOut(*l, chip, placement.ubBytes, chunk))
            throwLoweringError(op, "a 64-element chunk of an H·W plane does not fit in UB");
        l->chunkElements = l->pitch = chunk;
        l->chunksPerPlane = ceilDiv(l->planeElements, chunk);
        l->planesPerTile = 1;
    }
    // The largest plane count that fits (the loop above steps down coarsely).
    while (l->chunksPerPlane == 1 && l->planesPerTile < l->n &&
           layOut(*l, chip, placement.ubBytes, (l->planesPerTile + 1) * l->pitch))
        ++l->planesPerTile;
    layOut(*l, chip, placement.ubBytes, l->planesPerTile * l->pitch);

    kernel.program = doubleBufferedBlockShares<BnReduceTiles, BnReduceLayout>(l, l->c, kernel.blockDim);
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("BNTrainingReduce", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerBnReduce(op, chip, false);
});
ASCENDSIM_REGISTER_KERNEL("BNTrainingUpdateGrad", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerBnReduce(op, chip, true);
});

}  // namespace ascendsim
