// GatherV2 (docs/op-catalog.md): table viewed as [O, V, E] around `axis` (O, E: the products of
// the dims before and after it), y[o, i, :] = table[o, indices[i], :]; axis 0 (O = 1) is the
// embedding lookup. Output rows (o, i) are split over blocks; a tile never crosses an o, so its
// indices are one contiguous run and its moves index from table + o·V·rowBytes.
// Modelled like an Ascend C kernel: each tile copies R indices GM→UB (MTE2), the scalar unit waits
// for them and reads each one (R scalar DCache loads), then issues one GM→UB DataMove per row from
// table + index × rowBytes (the indexed-source DataMove of instruction.h), and MTE3 writes the R
// gathered rows out as one dense store. Tiles are double buffered (vector_tiling_stream.h); the
// vector pipe copies the rows from the input queue's buffer to the output queue's (VECIN →
// VECOUT), bit-exactly as int32 words, so MTE2 can refill one while MTE3 drains the other.
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/indexing/indexed_rows.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// Rows per tile at most: keeps one tile's program (one move per row) a bounded chunk and the
// scalar load count within ScalarWork's 16-bit field.
constexpr std::uint64_t kMaxRowsPerTile = 256;

struct GatherLayout : IndexedRowsGeometry {  // rows: the table's; accesses: the lookups
    std::uint64_t table = 0, indices = 0, y = 0;
    std::uint64_t rowsPerTile = 0;
    std::uint64_t ubIndices = 0, indexStride = 0, ubRows = 0, ubOut = 0, rowsStride = 0;
};

class GatherTiles final : public TileSource {
  public:
    GatherTiles(std::shared_ptr<const GatherLayout> layout, UnitRange lookups)
        : l_(std::move(layout)),
          tileStarts_(indexedTileStarts(lookups, l_->rowsPerTile, l_->indexCount)) {}
    std::uint64_t tileCount() const override { return tileStarts_.size() - 1; }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const GatherLayout& l = *l_;
        const std::uint64_t first = tileStarts_[index];
        const std::uint64_t rows = tileStarts_[index + 1] - first;
        const std::uint64_t outer = first / l.indexCount, firstIndex = first % l.indexCount;
        const std::uint64_t ubIndices = l.ubIndices + half * l.indexStride,
                            ubRows = l.ubRows + half * l.rowsStride;
        const auto event = static_cast<std::uint8_t>(half);
        code.load.push_back(moveRowsToUb(l.indices + firstIndex * l.indexBytes, ubIndices, 1,
                                         rows * l.indexBytes, rows * l.indexBytes));
        // The scalar unit reads the indices MTE2 just wrote.
        code.load.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Scalar, event));
        code.load.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Scalar, event));
        code.load.push_back(scalarIndexReads(rows, l.indexBytes));
        for (std::uint64_t r = 0; r < rows; ++r) {
            DataMove m{
                .src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = l.table + outer * l.rows * l.rowBytes;
            m.dstAddr = ubRows + r * l.rowPitch;
            m.burstBytes = static_cast<std::uint32_t>(l.rowBytes);
            m.indexAddr = ubIndices + r * l.indexBytes;
            m.indexBytes = static_cast<std::uint8_t>(l.indexBytes);
            m.indexedRowBytes = l.rowBytes;
            m.indexedRows = l.rows;
            code.load.push_back(Instruction::move(m));
        }
        const std::uint64_t ubOut = l.ubOut + half * l.rowsStride;
        emitVectorRange(code.compute, VectorOp::Copy, DataType::Int32,
                        {.dst = ubOut, .src0 = ubRows}, rows * l.rowPitch / 4);
        code.store.push_back(moveRowsToGm(ubOut, l.y + first * l.rowBytes,
                                          static_cast<std::uint32_t>(rows), l.rowBytes,
                                          l.rowPitch));
    }

  private:
    std::shared_ptr<const GatherLayout> l_;
    std::vector<std::uint64_t> tileStarts_;  // first output row of each tile, then the end
};

std::vector<LoweredKernel> lowerGather(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 1);
    const TensorInfo& table = op.inputs[0];
    const TensorInfo& indices = op.inputs[1];
    auto l = std::make_shared<GatherLayout>();
    static_cast<IndexedRowsGeometry&>(*l) = indexedRowsGeometry(op, table, indices);
    if (op.outputs[0].dtype != table.dtype ||
        static_cast<std::uint64_t>(op.outputs[0].elementCount()) != l->accesses * l->inner)
        throwLoweringError(op,
                           "y must be [table dims before axis, indices.., table dims after axis] "
                           "of the table's dtype");
    l->table = table.deviceAddr, l->indices = indices.deviceAddr, l->y = op.outputs[0].deviceAddr;

    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t budget = placement.ubBytes - 4 * kUbBlockBytes;
    const std::uint64_t perRow = 2 * (2 * l->rowPitch + l->indexBytes);
    if (l->rowBytes == 0 || perRow > budget)
        throwLoweringError(op, "one table row does not fit in UB");
    l->rowsPerTile =
        std::max<std::uint64_t>(1, std::min({budget / perRow, kMaxRowsPerTile, l->accesses}));
    UbAllocator ub(placement.ubBytes, op.name);
    l->indexStride = alignUp(l->rowsPerTile * l->indexBytes, kUbBlockBytes);
    l->ubIndices = ub.allocate(2 * l->indexStride, "indices");
    l->rowsStride = l->rowsPerTile * l->rowPitch;
    l->ubRows = ub.allocate(2 * l->rowsStride, "gathered rows");
    l->ubOut = ub.allocate(2 * l->rowsStride, "output rows");

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, op.outputs[0].bytes(),
                                           std::max<std::uint64_t>(1, l->accesses));
    kernel.program = doubleBufferedBlockShares<GatherTiles, GatherLayout>(l, l->accesses, kernel.blockDim);
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("GatherV2", lowerGather);

}  // namespace ascendsim
