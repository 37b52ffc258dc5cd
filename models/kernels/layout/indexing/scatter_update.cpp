// ScatterUpdate (docs/op-catalog.md): var viewed as [O, V, E] around `axis`, updates as [O, I, E];
// var[o, indices[i], :] = updates[o, i, :] in place (the KV-cache write of generation, torch_npu's
// scatter_update_ / npu_scatter_nd_update_), the reverse of GatherV2's lookup. Like an Ascend C
// kernel: each tile copies R indices and R update rows GM→UB (MTE2, the rows as one dense burst),
// the scalar unit reads the indices, the vector pipe copies rows and indices from the input
// queue's buffers to the output queue's (VECIN → VECOUT, as int32 words), and MTE3 writes each row
// to var + o·V·rowBytes + index × rowBytes (the indexed-destination DataMove of instruction.h).
// Tiles never cross an o (one contiguous run of indices) and are double buffered.
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/indexing/indexed_rows.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// Rows per tile at most: one tile's program (one move per row) stays a bounded chunk.
constexpr std::uint64_t kMaxRowsPerTile = 256;

struct ScatterLayout : IndexedRowsGeometry {  // rows: var's; accesses: the row writes
    std::uint64_t var = 0, indices = 0, updates = 0;
    std::uint64_t rowsPerTile = 0;
    std::uint64_t ubIndices = 0, ubOutIndices = 0, indexStride = 0, ubRows = 0, ubOut = 0,
                  rowsStride = 0;
};

class ScatterTiles final : public TileSource {
  public:
    ScatterTiles(std::shared_ptr<const ScatterLayout> layout, UnitRange writes)
        : l_(std::move(layout)),
          tileStarts_(indexedTileStarts(writes, l_->rowsPerTile, l_->indexCount)) {}
    std::uint64_t tileCount() const override { return tileStarts_.size() - 1; }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const ScatterLayout& l = *l_;
        const std::uint64_t first = tileStarts_[index], rows = tileStarts_[index + 1] - first;
        const std::uint64_t outer = first / l.indexCount, firstIndex = first % l.indexCount;
        const std::uint64_t indexBytes = rows * l.indexBytes;
        const std::uint64_t ubIndices = l.ubIndices + half * l.indexStride,
                            ubOutIndices = l.ubOutIndices + half * l.indexStride;
        const std::uint64_t ubRows = l.ubRows + half * l.rowsStride,
                            ubOut = l.ubOut + half * l.rowsStride;
        const auto event = static_cast<std::uint8_t>(half);
        code.load.push_back(moveRowsToUb(l.indices + firstIndex * l.indexBytes, ubIndices, 1,
                                         indexBytes, indexBytes));
        code.load.push_back(moveRowsToUb(l.updates + first * l.rowBytes, ubRows,
                                         static_cast<std::uint32_t>(rows), l.rowBytes, l.rowPitch));
        // The scalar unit reads the indices MTE2 just wrote to compute the destinations.
        code.load.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Scalar, event));
        code.load.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Scalar, event));
        code.load.push_back(scalarIndexReads(rows, l.indexBytes));
        emitVectorRange(code.compute, VectorOp::Copy, DataType::Int32,
                        {.dst = ubOut, .src0 = ubRows}, rows * l.rowPitch / 4);
        emitVectorRange(code.compute, VectorOp::Copy, DataType::Int32,
                        {.dst = ubOutIndices, .src0 = ubIndices},
                        alignUp(indexBytes, kUbBlockBytes) / 4);
        for (std::uint64_t r = 0; r < rows; ++r) {
            DataMove m{
                .src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = ubOut + r * l.rowPitch;
            m.dstAddr = l.var + outer * l.rows * l.rowBytes;
            m.burstBytes = static_cast<std::uint32_t>(l.rowBytes);
            m.indexAddr = ubOutIndices + r * l.indexBytes;
            m.indexBytes = static_cast<std::uint8_t>(l.indexBytes);
            m.indexedRowBytes = l.rowBytes;
            m.indexedRows = l.rows;
            m.indexDestination = true;
            code.store.push_back(Instruction::move(m));
        }
    }

  private:
    std::shared_ptr<const ScatterLayout> l_;
    std::vector<std::uint64_t> tileStarts_;  // first write of each tile, then the end
};

std::vector<LoweredKernel> lowerScatterUpdate(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 3, 1);
    const TensorInfo& var = op.inputs[0];
    const TensorInfo& indices = op.inputs[1];
    const TensorInfo& updates = op.inputs[2];
    auto l = std::make_shared<ScatterLayout>();
    static_cast<IndexedRowsGeometry&>(*l) = indexedRowsGeometry(op, var, indices);
    if (updates.dtype != var.dtype ||
        static_cast<std::uint64_t>(updates.elementCount()) != l->accesses * l->inner)
        throwLoweringError(op,
                           "updates must be [var dims before axis, indices.., var dims after axis] "
                           "of var's dtype");
    if (op.outputs[0].deviceAddr != var.deviceAddr || op.outputs[0].bytes() != var.bytes())
        throwLoweringError(op, "the output must be var itself (an in-place update)");
    l->var = var.deviceAddr, l->indices = indices.deviceAddr, l->updates = updates.deviceAddr;

    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t budget = placement.ubBytes - 8 * kUbBlockBytes;
    const std::uint64_t perRow = 2 * (2 * l->rowPitch + 2 * l->indexBytes);
    if (l->rowBytes == 0 || perRow > budget) throwLoweringError(op, "one row does not fit in UB");
    l->rowsPerTile = std::max<std::uint64_t>(
        1, std::min({budget / perRow, kMaxRowsPerTile, std::max<std::uint64_t>(l->accesses, 1)}));
    UbAllocator ub(placement.ubBytes, op.name);
    l->indexStride = alignUp(l->rowsPerTile * l->indexBytes, kUbBlockBytes);
    l->ubIndices = ub.allocate(2 * l->indexStride, "indices");
    l->ubOutIndices = ub.allocate(2 * l->indexStride, "indices for the stores");
    l->rowsStride = l->rowsPerTile * l->rowPitch;
    l->ubRows = ub.allocate(2 * l->rowsStride, "update rows");
    l->ubOut = ub.allocate(2 * l->rowsStride, "rows to store");

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim =
        chooseVectorBlockDim(op, placement, updates.bytes(), std::max<std::uint64_t>(1, l->accesses));
    kernel.program = doubleBufferedBlockShares<ScatterTiles, ScatterLayout>(l, l->accesses, kernel.blockDim);
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ScatterUpdate", lowerScatterUpdate);

}  // namespace ascendsim
