// GatherV2 (docs/op-catalog.md): table viewed as [O, V, E] around `axis` (O, E: the products of
// the dims before and after it), y[o, i, :] = table[o, indices[i], :]; axis 0 (O = 1) is the
// embedding lookup. Output rows (o, i) are split over blocks; a tile never crosses an o, so its
// indices are one contiguous run and its moves index from table + o·V·rowBytes.
// Modelled as CANN 8.1 runs it on the 910B (docs/fidelity.md §177): gather_v2.py sends bf16 tables
// to gather_v2_dsl, and the prebuilt 910B binaries (kernel/config/ascend910b/gather_v2.json) are
// the float16 / float32 / ... DSL kernels matched by dtype size, so every GatherV2 runs the TBE DSL
// gather schedule (tbe/dsl/unify_schedule/vector/gather/gather_schedule.py) with the tiling of its
// C++ AutoTiling (op_tiling gather_dsl.cc, GatherDsl::DoTiling):
// - blocks: block_factor = ceil(lookups / cores) consecutive lookups each (BlockThirdAxis), so
//   the last block takes what is left (4096 over 40: 39 blocks of 103, one of 79);
// - the double-buffered schedule (DB_SCHEDULE, `_do_double_buffer`): UB holds two indices
//   buffers and two gather buffers, each gather buffer 32 B / indexBytes times its indices
//   buffer (`_cal_storage_bound`, `_do_storage_bound`); a UB tile (ub_factor) is the block's
//   lookups cut into equal parts that fit one gather buffer;
// - per tile: MTE2 copies the tile's indices GM→UB (DMA_COPY), the scalar unit waits for them and
//   per row reads its index and issues one GM→UB DataMove of the row from table + index × rowBytes
//   (the indexed-source DataMove of instruction.h) into the gather buffer, and MTE3 writes the
//   tile's rows out as one store from that same buffer (no UB → UB copy); the next tile fills the
//   other buffer pair while this one drains.
// Tables whose rows are not 32 B multiples take other DSL schedules (remove-pad, base-tail) that
// are not modelled: they run this one with rows padded to 32 B in UB.
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/indexing/indexed_rows.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

struct GatherLayout : IndexedRowsGeometry {  // rows: the table's; accesses: the lookups
    std::uint64_t table = 0, indices = 0, y = 0;
    std::uint64_t blockFactor = 0;  // lookups a block (block_factor)
    std::uint64_t rowsPerTile = 0;  // lookups a UB tile (ub_factor)
    std::uint64_t ubIndices = 0, indexStride = 0, ubRows = 0, rowsStride = 0;
};

class GatherTiles final : public TileSource {
  public:
    GatherTiles(std::shared_ptr<const GatherLayout> layout, UnitRange lookups)
        : l_(std::move(layout)),
          tileStarts_(indexedTileStarts(lookups, l_->rowsPerTile, l_->indexCount)) {}
    std::uint64_t tileCount() const override { return tileStarts_.size() - 1; }
    bool movesOnly() const override { return true; }  // MTE3 stores the buffer the gathers filled

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
        IndexedRowMove move{.toUb = true, .dtype = l.dtype, .gm = l.table + outer * l.rows * l.rowBytes,
                            .rowBytes = l.rowBytes, .indexBytes = l.indexBytes, .rows = l.rows};
        for (std::uint64_t r = 0; r < rows; ++r) {  // each row's move follows its index's read
            code.load.push_back(scalarIndexReads(1, l.indexBytes));
            move.ub = ubRows + r * l.rowPitch;
            move.indexAddr = ubIndices + r * l.indexBytes;
            code.load.push_back(indexedRowMove(move));
        }
        code.store.push_back(moveRowsToGm(ubRows, l.y + first * l.rowBytes,
                                          static_cast<std::uint32_t>(rows), l.rowBytes,
                                          l.rowPitch));
    }

  private:
    std::shared_ptr<const GatherLayout> l_;
    std::vector<std::uint64_t> tileStarts_;  // first output row of each tile, then the end
};

// The bytes of one indices buffer of the DSL's double-buffered schedule: UB split into one
// indices share and 32 B / indexBytes gather shares (gather_schedule.py `_cal_storage_bound`:
// coexisting quantity ub_block / indices dtype + 1), rounded down to 32 B, halved for the
// double buffer (`_do_storage_bound`).
std::uint64_t gatherIndicesBufferBytes(std::uint64_t ubBytes, std::uint64_t indexBytes) {
    const std::uint64_t gatherShares = kUbBlockBytes / indexBytes;
    return ubBytes / (gatherShares + 1) / kUbBlockBytes * kUbBlockBytes / 2;
}

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
    l->indexStride = gatherIndicesBufferBytes(placement.ubBytes, l->indexBytes);
    l->rowsStride = l->indexStride * (kUbBlockBytes / l->indexBytes);
    const std::uint64_t rowsPerBuffer = l->rowsStride / std::max<std::uint64_t>(1, l->rowPitch);
    if (l->rowBytes == 0 || rowsPerBuffer == 0)
        throwLoweringError(op, "one table row does not fit in a gather buffer of UB");
    const std::uint64_t lookups = std::max<std::uint64_t>(1, l->accesses);
    const std::uint32_t chosen = chooseVectorBlockDim(op, placement, op.outputs[0].bytes(), lookups);
    l->blockFactor = ceilDiv(lookups, chosen);
    // GatherDsl::BlockThirdAxis: as few equal UB tiles of the block's lookups as fit the buffer.
    const std::uint64_t tilesPerBlock = ceilDiv(l->blockFactor, rowsPerBuffer);
    l->rowsPerTile = ceilDiv(l->blockFactor, tilesPerBlock);
    UbAllocator ub(placement.ubBytes, op.name);
    l->ubIndices = ub.allocate(2 * l->indexStride, "indices");
    l->ubRows = ub.allocate(2 * l->rowsStride, "gathered rows");

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = static_cast<std::uint32_t>(ceilDiv(lookups, l->blockFactor));
    std::shared_ptr<const GatherLayout> layout = l;
    kernel.program = [layout](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        return std::make_unique<DoubleBufferedStream>(std::make_unique<GatherTiles>(
            layout, blockFactorShare(layout->accesses, layout->blockFactor, r.blockIdx)));
    };
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("GatherV2", lowerGather);

}  // namespace ascendsim
