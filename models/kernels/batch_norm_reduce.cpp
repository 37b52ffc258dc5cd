// Per-channel reductions of batch-norm training (docs/op-catalog.md): BNTrainingReduce
// (sum, square_sum of x) and BNTrainingUpdateGrad (diff_scale = Σ dy·(x−mean)·rstd,
// diff_offset = Σ dy). Blocks own channels; a tile loads up to R of channel c's N planes
// (H·W elements each, C·H·W apart in GM), reduces them to one value per output, and MTE3 adds it
// into the fp32 result (the channel's first tile writes, later tiles accumulate atomically).
// When one plane does not fit in UB, a tile is one chunk of one plane instead, and the chunks'
// fp32 partial sums accumulate the same way.
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise_broadcast.h"
#include "models/kernels/vector_tiling.h"
#include "models/kernels/vector_tiling_stream.h"

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
    // UB
    std::uint64_t xStage = 0, dyStage = 0, stageStride = 0, xF32 = 0, dyF32 = 0, product = 0;
    std::uint64_t statsStage = 0, rstdBlock = 0, meanBlock = 0, zeroTable = 0;
    std::uint64_t planeSums = 0, scratch = 0, results = 0;  // results: 2 outputs × 2 halves × 1 block
};

class BnReduceTiles final : public TileSource {
public:
    BnReduceTiles(std::shared_ptr<const BnReduceLayout> layout, UnitRange channels)
        : l_(std::move(layout)),
          channels_(channels),
          tilesPerChannel_(ceilDiv(l_->n, l_->planesPerTile) * l_->chunksPerPlane) {}

    std::uint64_t tileCount() const override { return channels_.size() * tilesPerChannel_; }

    void setup(TileCode& code) override {
        if (l_->gradient)
            emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Int32, {.dst = l_->zeroTable},
                            elementsPerBlock(kF32), 0.0f);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const BnReduceLayout& l = *l_;
        const std::uint64_t channel = channels_.begin + index / tilesPerChannel_;
        const std::uint64_t inChannel = index % tilesPerChannel_;
        const std::uint64_t firstPlane = inChannel / l.chunksPerPlane * l.planesPerTile;
        const std::uint64_t chunk = inChannel % l.chunksPerPlane, firstElement = chunk * l.chunkElements;
        const std::uint64_t rowElements = std::min(l.chunkElements, l.planeElements - firstElement);
        const auto planes = static_cast<std::uint32_t>(std::min(l.planesPerTile, l.n - firstPlane));
        const std::uint64_t eb = bytesOf(l.dtype), count = planes * l.pitch;
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
        const std::uint64_t x = toF32(loadPlanes(l.x, l.xStage), l.xF32);
        std::uint64_t q0 = x;  // BNTrainingReduce: Σx and Σx²
        if (l.gradient) {
            const std::uint64_t stats = l.statsStage + half * 2 * kUbBlockBytes;
            for (std::uint64_t k = 0; k < 2; ++k)
                code.load.push_back(Instruction::move({.src = MemSpace::GM, .dst = MemSpace::UB,
                                                       .srcAddr = (k ? l.variance : l.mean) + channel * 4,
                                                       .dstAddr = stats + k * kUbBlockBytes, .burstBytes = 4,
                                                       .srcType = kF32, .dstType = kF32}));
            const std::uint64_t dy = toF32(loadPlanes(l.dy, l.dyStage), l.dyF32);
            // rstd = rsqrt(var + ε) and mean, each broadcast into a block.
            emitVectorRange(code.compute, VectorOp::Adds, kF32, {.dst = stats + kUbBlockBytes, .src0 = stats + kUbBlockBytes}, 1, l.epsilon);
            emitVectorRange(code.compute, VectorOp::Rsqrt, kF32, {.dst = stats + kUbBlockBytes, .src0 = stats + kUbBlockBytes}, 1);
            emitExpandToBlocks(code.compute, kF32, l.meanBlock, stats, 1, l.zeroTable);
            emitExpandToBlocks(code.compute, kF32, l.rstdBlock, stats + kUbBlockBytes, 1, l.zeroTable);
            emitVectorRange(code.compute, VectorOp::Sub, kF32, {.dst = l.product, .src0 = x, .src1 = l.meanBlock, .src1IsBlock = true}, count);
            emitVectorRange(code.compute, VectorOp::Mul, kF32, {.dst = l.product, .src0 = l.product, .src1 = l.rstdBlock, .src1IsBlock = true}, count);
            emitVectorRange(code.compute, VectorOp::Mul, kF32, {.dst = l.product, .src0 = l.product, .src1 = dy}, count);
            q0 = dy;  // diff_offset = Σdy is the second output; diff_scale the first
        } else {
            emitVectorRange(code.compute, VectorOp::Mul, kF32, {.dst = l.product, .src0 = x, .src1 = x}, count);
        }
        // Output 0: Σx (reduce) or Σdy·x̂ (grad); output 1: Σx² (reduce) or Σdy (grad).
        const std::uint64_t sources[2] = {l.gradient ? l.product : q0, l.gradient ? q0 : l.product};
        for (std::uint64_t k = 0; k < 2; ++k) {
            const std::uint64_t result = l.results + (k * 2 + half) * kUbBlockBytes;
            emitReduceRows(code.compute, VectorOp::ReduceSum, kF32, sources[k], planes, rowElements,
                           l.pitch * 4, l.scratch, l.planeSums);
            emitReduceAll(code.compute, VectorOp::ReduceSum, kF32, l.planeSums, planes, l.scratch, result);
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
    const std::uint64_t eb = bytesOf(l->dtype), inputs = gradient ? 2 : 1;
    const std::uint64_t perElement = inputs * (2 * eb + (eb == 4 ? 0 : 4)) + 4;
    const std::uint64_t fixed = 64 * kUbBlockBytes;
    auto perRowBytes = [&](std::uint64_t pitch) {
        return pitch * perElement + 4 + reduceRowsScratchBytes(kF32, 2, pitch) / 2;
    };
    l->chunkElements = l->planeElements;
    l->pitch = alignUp(l->planeElements, kUbBlockBytes / eb);
    if (fixed + perRowBytes(l->pitch) > placement.ubBytes) {
        // Split each plane into chunks of whole fp32 repeats (so every chunk but the last is
        // block-aligned in UB for x, dy and their fp32 copies), the largest that fit.
        const std::uint64_t granule = elementsPerRepeat(kF32);
        std::uint64_t chunk = (placement.ubBytes - std::min(placement.ubBytes, fixed)) / perElement / granule * granule;
        while (chunk > 0 && fixed + perRowBytes(chunk) > placement.ubBytes) chunk -= granule;
        if (chunk == 0) throwLoweringError(op, "a 64-element chunk of an H·W plane does not fit in UB");
        l->chunkElements = l->pitch = chunk;
        l->chunksPerPlane = ceilDiv(l->planeElements, chunk);
    }
    l->planesPerTile = l->chunksPerPlane > 1
                           ? 1
                           : std::min<std::uint64_t>((placement.ubBytes - fixed) / perRowBytes(l->pitch), l->n);

    UbAllocator ub(placement.ubBytes, op.name);
    const std::uint64_t tileElements = l->planesPerTile * l->pitch;
    l->stageStride = alignUp(tileElements * eb, kUbBlockBytes);
    l->xStage = ub.allocate(2 * l->stageStride, "x planes");
    if (eb != 4) l->xF32 = ub.allocate(tileElements * 4, "x planes in fp32");
    if (gradient) {
        l->dyStage = ub.allocate(2 * l->stageStride, "dy planes");
        if (eb != 4) l->dyF32 = ub.allocate(tileElements * 4, "dy planes in fp32");
        l->statsStage = ub.allocate(4 * kUbBlockBytes, "channel statistics");
        l->meanBlock = ub.allocate(kUbBlockBytes, "mean block");
        l->rstdBlock = ub.allocate(kUbBlockBytes, "rstd block");
        l->zeroTable = ub.allocate(kUbBlockBytes, "zero offsets");
    }
    l->product = ub.allocate(tileElements * 4, "products");
    l->planeSums = ub.allocate(l->planesPerTile * 4, "plane sums");
    l->scratch = ub.allocate(std::max(reduceRowsScratchBytes(kF32, static_cast<std::uint32_t>(l->planesPerTile), l->pitch),
                                      reduceRowsScratchBytes(kF32, 1, l->planesPerTile)),
                             "reduction partials");
    l->results = ub.allocate(4 * kUbBlockBytes, "channel results");

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, x.bytes() * inputs, l->c);
    const std::uint32_t blockDim = kernel.blockDim;
    std::shared_ptr<const BnReduceLayout> shared = l;
    kernel.program = [shared, blockDim](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
        return std::make_unique<DoubleBufferedStream>(
            std::make_unique<BnReduceTiles>(shared, blockShare(shared->c, blockDim, request.blockIdx)));
    };
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
