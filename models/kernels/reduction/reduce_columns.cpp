#include "models/kernels/reduction/reduce_columns.h"
#include "models/kernels/reduction/dsl_reduce_dispatch.h"
#include "models/kernels/reduction/reduce_tensors.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;

struct ColumnLayout {
    VectorOp op = VectorOp::Add;  // the elementwise fold (Add or Max)
    bool mean = false;
    std::uint64_t outer = 0, reduced = 0, inner = 0;
    std::uint64_t chunk = 0, rowsPerTile = 0;  // tile = rowsPerTile rows × chunk columns
    DataType inType = kF32, outType = kF32;
    std::uint64_t x = 0, y = 0;
    std::uint64_t stage = 0, stageStride = 0, work = 0, outStage = 0, outStride = 0;

    std::uint64_t chunksPerRow() const { return ceilDiv(inner, chunk); }
    std::uint64_t tilesPerChunk() const { return ceilDiv(reduced, rowsPerTile); }
};

class ColumnTiles final : public TileSource {
public:
    ColumnTiles(std::shared_ptr<const ColumnLayout> layout, UnitRange units) : l_(std::move(layout)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size() * l_->tilesPerChunk(); }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const ColumnLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index / l.tilesPerChunk();
        const std::uint64_t firstRow = index % l.tilesPerChunk() * l.rowsPerTile;
        const std::uint64_t a = unit / l.chunksPerRow(), col = unit % l.chunksPerRow() * l.chunk;
        const std::uint64_t cols = std::min(l.chunk, l.inner - col);
        const std::uint64_t rows = std::min(l.rowsPerTile, l.reduced - firstRow);
        const std::uint64_t inBytes = bytesOf(l.inType), pitch = l.chunk;
        DataMove in{.src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.inType, .dstType = l.inType};
        in.srcAddr = l.x + ((a * l.reduced + firstRow) * l.inner + col) * inBytes;
        in.dstAddr = l.stage + half * l.stageStride;
        in.burstCount = static_cast<std::uint32_t>(rows);
        in.burstBytes = static_cast<std::uint32_t>(cols * inBytes);
        in.srcGapBytes = static_cast<std::uint32_t>((l.inner - cols) * inBytes);
        in.dstGapBytes = static_cast<std::uint32_t>((pitch - cols) * inBytes);
        code.load.push_back(Instruction::move(in));
        std::uint64_t work = in.dstAddr;
        if (l.inType != kF32) {
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.work, .src0 = work}, rows * pitch, 0.0f, l.inType);
            work = l.work;
        }
        // Halving tree: rows [0, h) op= rows [m−h, m) until one row is left.
        for (std::uint64_t m = rows; m > 1;) {
            const std::uint64_t h = m / 2;
            emitVectorRange(code.compute, l.op, kF32, {.dst = work, .src0 = work, .src1 = work + (m - h) * pitch * 4}, h * pitch);
            m -= h;
        }
        if (l.mean) emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = work, .src0 = work}, pitch, 1.0f / static_cast<float>(l.reduced));
        const std::uint64_t out = l.outStage + half * l.outStride;
        if (l.outType != kF32)
            emitVectorRange(code.compute, VectorOp::Cast, l.outType, {.dst = out, .src0 = work}, pitch, 0.0f, kF32);
        else
            emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = out, .src0 = work}, pitch);
        const std::uint64_t outBytes = bytesOf(l.outType);
        code.store.push_back(Instruction::move({.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = out,
                                                .dstAddr = l.y + (a * l.inner + col) * outBytes,
                                                .burstBytes = static_cast<std::uint32_t>(cols * outBytes),
                                                .srcType = l.outType, .dstType = l.outType, .atomicAdd = firstRow > 0}));
        code.scalarCycles = static_cast<std::uint32_t>(rows);
    }

private:
    std::shared_ptr<const ColumnLayout> l_;
    UnitRange units_;
};

// CANN's reduce schedule splits the kept axis over every core of the kind before it widens a
// block's chunk: the columns of each of the `outer` rows go to ⌈cores / outer⌉ blocks in whole
// 32 B granules. Real rows (docs/fidelity.md §68): ReduceSum [32, 1000] and [32, 4096] fp32 over
// axis 0 run at block dim 42 and 47 on the 910B2's 48 AIV (24 and 88 columns a block) and at 32 on
// the 910A's 32 cores (32 and 128 columns): ⌈1000 / 48⌉ = 21 → 24, ⌈1000 / 24⌉ = 42;
// ⌈4096 / 48⌉ = 86 → 88, ⌈4096 / 88⌉ = 47; ⌈1000 / 32⌉ = 32 and ⌈4096 / 32⌉ = 128 → 32 blocks.
std::uint64_t columnsPerCore(std::uint64_t inner, std::uint64_t outer, std::uint32_t cores, std::uint64_t granule) {
    const std::uint64_t blocksPerRow = ceilDiv(std::max<std::uint64_t>(cores, 1), std::max<std::uint64_t>(outer, 1));
    return alignUp(ceilDiv(inner, blocksPerRow), granule);
}

}  // namespace

LoweredKernel lowerColumnReduction(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp, bool mean,
                                   std::uint64_t outer, std::uint64_t reduced, std::uint64_t inner) {
    const VectorPlacement placement = vectorPlacement(chip);
    auto l = std::make_shared<ColumnLayout>();
    const ReduceTensors tensors = reduceTensors(op, reduceOp);
    l->op = tensors.fold;
    l->mean = mean;
    l->outer = outer, l->reduced = reduced, l->inner = inner;
    l->inType = tensors.inType, l->outType = tensors.outType, l->x = tensors.x, l->y = tensors.y;
    const std::uint64_t inBytes = bytesOf(l->inType), outBytes = bytesOf(l->outType);
    const std::uint64_t perElement = 2 * inBytes + 4;  // staged halves + fp32 work
    const std::uint64_t budget = placement.ubBytes - 8 * kUbBlockBytes;
    // Chunk columns so that the whole R fits when it can (Max must), else use the widest chunk.
    const std::uint64_t granule = kUbBlockBytes / std::min<std::uint64_t>(inBytes, outBytes);
    const std::uint64_t fullChunk = alignUp(inner, granule);
    // The widest whole-granule chunk that fits: rounding the fitting width up overflowed the UB by
    // up to a granule (ReduceMax [32, 1000] fp32 on a 192 KiB UB: 504 columns, 197568 > 196352 B).
    const std::uint64_t fittingColumns = budget / (perElement * reduced + 2 * outBytes);
    std::uint64_t chunk = std::min(fullChunk, std::max(granule, fittingColumns / granule * granule));
    if (chunk * (perElement * reduced + 2 * outBytes) > budget) {
        if (l->op == VectorOp::Max) throwLoweringError(op, "ReduceMax over " + std::to_string(reduced) + " rows does not fit in UB");
        chunk = std::min(fullChunk, alignUp(2048, granule));
    }
    chunk = std::min(chunk, columnsPerCore(inner, outer, placement.coreCount, granule));
    l->chunk = chunk;
    l->rowsPerTile = std::min(reduced, std::max<std::uint64_t>((budget - 2 * chunk * outBytes) / (chunk * perElement), 1));
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageStride = alignUp(l->rowsPerTile * chunk * inBytes, kUbBlockBytes);
    l->stage = ub.allocate(2 * l->stageStride, "input rows");
    l->work = inBytes == 4 ? 0 : ub.allocate(l->rowsPerTile * chunk * 4, "fp32 rows");
    l->outStride = alignUp(chunk * outBytes, kUbBlockBytes);
    l->outStage = ub.allocate(2 * l->outStride, "output chunk");

    LoweredKernel kernel = tiledVectorKernel<ColumnTiles>(op, placement, l, op.inputs[0].bytes(), outer * l->chunksPerRow());
    prependDslReduceDispatch(kernel, chip);
    return kernel;
}

}  // namespace ascendsim
