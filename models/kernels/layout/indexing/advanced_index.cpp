// torch's advanced indexing of single elements (docs/op-catalog.md): Index (aclnnIndex, y[k] =
// x[i0[k], i1[k], ...]) and IndexPutV2 (aclnnIndexPutImpl, self[i0[k], i1[k], ...] = values[k],
// or += with accumulate), one int32/int64 index tensor per indexed leading dim of x / self, the
// trailing dims not indexed (each access is one element here: as many index tensors as dims).
// Elements split over the blocks; per tile of up to 256 elements MTE2 copies the tile's indices
// GM → UB and the scalar unit waits for them. Then every element moves alone, and each waits for
// the one before it (docs/fidelity.md §40):
// - IndexPutV2 (CANN's TIK kernel index_put_v2, its move-pad path for one-element tails): per
//   element the scalar unit reads the indices and computes the address (the index plus the dim,
//   modulo the dim, times the stride), MTE2 copies the element's value GM → one UB buffer
//   (DataCopyPad), MTE3 writes it to its address (DataCopyPad; atomic add with accumulate). The
//   read and the write share that buffer: the write waits for the read (MTE2 → MTE3) and the next
//   element's read for the write (MTE3 → MTE2), so reads and writes alternate.
// - Index (CANN's TIK kernel index.py, index_compute_first_axis_core: every dim indexed, one
//   element per access): the elements are cut into tasks of 128 (TASK_ALIGN), task t runs on
//   block t % blocks (its task_schedule), so with fewer tasks than blocks the first blocks take
//   128 elements each and the rest idle (docs/fidelity.md §99). Per element the scalar unit
//   computes the address, MTE2 copies the element into one UB slot (data_move_pad into tmp_ub,
//   its own 32 B), and the scalar unit waits for it and copies it into the task's dense row
//   (set_as), so the next read starts after the copy. MTE3 stores the row once a task.
// The element addresses depend on index values the timing model does not have: the moves are the
// indexed DataMoves of instruction.h (a pseudo-random element of the whole tensor per access).
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/indexing/indexed_rows.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

// IndexPutV2's elements per tile at most (as GatherV2's rows per tile: a tile's indices stay a
// bounded buffer; its host tiling's UB share is not read).
constexpr std::uint64_t kMaxElementsPerTile = 256;
// Index's task: TASK_ALIGN of CANN's index.py, the elements one task gathers and stores at once.
constexpr std::uint64_t kIndexTaskElements = 128;
// Flag event ids: the tile's indices, the element buffer, the dense row.
constexpr std::uint8_t kIndicesLoaded = 0, kElementBuffer = 1, kDenseRow = 2;

struct IndexLayout {
    bool put = false;
    bool accumulate = false;
    DataType dtype = DataType::Fp32;
    std::uint64_t elementBytes = 4;
    std::uint64_t tensorGm = 0, tensorElements = 0;  // x (Index) or self (IndexPutV2)
    std::uint64_t denseGm = 0;                        // y (Index) or values (IndexPutV2)
    std::vector<std::uint64_t> indexGm;
    std::uint64_t indexBytes = 8;
    std::uint64_t elementsPerTile = 0;
    // UB: the index buffers, the one-element buffer, the dense row (Index).
    std::uint64_t indexStride = 0, elementUb = 0, denseUb = 0;
};

class AdvancedIndexStream final : public TiledInstructionStream {
public:
    AdvancedIndexStream(std::shared_ptr<const IndexLayout> layout, std::vector<UnitRange> tiles)
        : l_(std::move(layout)), tiles_(std::move(tiles)) {}

protected:
    std::uint64_t tileCount() const override { return tiles_.size(); }

    void emitTile(std::uint64_t tile, ProgramBuilder& b) override {
        const IndexLayout& l = *l_;
        const std::uint64_t first = tiles_[tile].begin;
        const std::uint64_t count = tiles_[tile].size();
        b.scalar(kScalarCyclesPerTile);
        if (!l.put && tile > 0) b.waitFlag(Pipe::Mte3, Pipe::Scalar, kDenseRow);  // the row is stored
        for (std::size_t i = 0; i < l.indexGm.size(); ++i) {
            const std::uint64_t bytes = count * l.indexBytes;
            b.out().push_back(moveRowsToUb(l.indexGm[i] + first * l.indexBytes, i * l.indexStride, 1, bytes, bytes));
        }
        b.handoff(Pipe::Mte2, Pipe::Scalar, kIndicesLoaded);
        IndexedRowMove move{.toUb = !l.put, .dtype = l.dtype, .gm = l.tensorGm, .ub = l.elementUb,
                            .rowBytes = l.elementBytes, .indexBytes = l.indexBytes, .rows = l.tensorElements,
                            .atomicAdd = l.accumulate};
        for (std::uint64_t k = 0; k < count; ++k) {
            b.out().push_back(scalarIndexReads(l.indexGm.size(), l.indexBytes));
            move.indexAddr = k * l.indexBytes;
            if (l.put) {
                if (tile > 0 || k > 0) b.waitFlag(Pipe::Mte3, Pipe::Mte2, kElementBuffer);  // the last write left
                const std::uint64_t value = l.denseGm + (first + k) * l.elementBytes;
                b.out().push_back(moveRowsToUb(value, l.elementUb, 1, l.elementBytes, l.elementBytes));
                b.handoff(Pipe::Mte2, Pipe::Mte3, kElementBuffer);
                b.out().push_back(indexedRowMove(move));
                b.setFlag(Pipe::Mte3, Pipe::Mte2, kElementBuffer);
            } else {
                b.out().push_back(indexedRowMove(move));
                b.handoff(Pipe::Mte2, Pipe::Scalar, kElementBuffer);
                b.out().push_back(Instruction::scalar(ScalarWork{.cycles = 2, .loads = 1, .stores = 1, .memory = MemSpace::UB,
                                                                 .bytesRead = static_cast<std::uint32_t>(l.elementBytes),
                                                                 .bytesWritten = static_cast<std::uint32_t>(l.elementBytes)}));
            }
        }
        if (!l.put) {
            b.handoff(Pipe::Scalar, Pipe::Mte3, kDenseRow);
            const std::uint64_t bytes = count * l.elementBytes;
            b.out().push_back(moveRowsToGm(l.denseUb, l.denseGm + first * l.elementBytes, 1, bytes, bytes));
            b.setFlag(Pipe::Mte3, Pipe::Scalar, kDenseRow);
        }
    }

    void emitEpilogue(ProgramBuilder& b) override {  // every flag set is waited for
        if (tileCount() == 0) return;
        if (l_->put) b.waitFlag(Pipe::Mte3, Pipe::Mte2, kElementBuffer);
        else b.waitFlag(Pipe::Mte3, Pipe::Scalar, kDenseRow);
    }

private:
    std::shared_ptr<const IndexLayout> l_;
    std::vector<UnitRange> tiles_;  // the block's runs of elements, one tile each
};

// The runs of elements block `blockIdx` handles: Index's tasks of kIndexTaskElements dealt out
// round robin (CANN's task_schedule), IndexPutV2's equal block share cut into tiles.
std::vector<UnitRange> blockTiles(const IndexLayout& l, std::uint64_t accesses, std::uint32_t blockDim, std::uint32_t blockIdx) {
    std::vector<UnitRange> tiles;
    if (!l.put) {
        for (std::uint64_t task = blockIdx; task * l.elementsPerTile < accesses; task += blockDim)
            tiles.push_back({task * l.elementsPerTile, std::min(accesses, (task + 1) * l.elementsPerTile)});
        return tiles;
    }
    const UnitRange share = blockShare(accesses, blockDim, blockIdx);
    for (std::uint64_t first = share.begin; first < share.end; first += l.elementsPerTile)
        tiles.push_back({first, std::min(share.end, first + l.elementsPerTile)});
    return tiles;
}

std::vector<LoweredKernel> lowerAdvancedIndex(const OpInstance& op, const ChipConfig& chip, bool put) {
    const std::size_t leading = put ? 2 : 1;  // x | self, values
    requireOperands(op, leading + 1, 1);
    const TensorInfo& tensor = op.inputs[0];
    const TensorInfo& dense = put ? op.inputs[1] : op.outputs[0];
    const std::size_t indexTensors = op.inputs.size() - leading;
    if (indexTensors != tensor.shape.size())
        throwLoweringError(op, "one index tensor per dim of " + tensor.name + " is modelled (" + std::to_string(tensor.shape.size()) +
                                   " dims, " + std::to_string(indexTensors) + " index tensors)");
    if (bytesOf(tensor.dtype) != 4 && bytesOf(tensor.dtype) != 2) throwLoweringError(op, "16- or 32-bit elements are modelled");
    if (dense.dtype != tensor.dtype) throwLoweringError(op, "values / y must have the indexed tensor's dtype");
    auto l = std::make_shared<IndexLayout>();
    l->put = put;
    l->accumulate = put && op.boolAttr("accumulate", false);
    l->dtype = tensor.dtype;
    l->elementBytes = bytesOf(tensor.dtype);
    l->tensorGm = tensor.deviceAddr;
    l->tensorElements = static_cast<std::uint64_t>(tensor.elementCount());
    l->denseGm = dense.deviceAddr;
    const std::uint64_t accesses = static_cast<std::uint64_t>(dense.elementCount());
    for (std::size_t i = leading; i < op.inputs.size(); ++i) {
        const TensorInfo& index = op.inputs[i];
        if (index.dtype != DataType::Int64 && index.dtype != DataType::Int32) throwLoweringError(op, "indices must be int32 or int64");
        if (static_cast<std::uint64_t>(index.elementCount()) != accesses)
            throwLoweringError(op, "every index tensor must have one index per element of " + dense.name);
        l->indexBytes = bytesOf(index.dtype);
        l->indexGm.push_back(index.deviceAddr);
    }
    if (accesses == 0) throwLoweringError(op, "nothing is indexed");
    const VectorPlacement placement = vectorPlacement(chip);
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, accesses * kUbBlockBytes, accesses);
    l->elementsPerTile = put ? std::min(kMaxElementsPerTile, ceilDiv(accesses, kernel.blockDim)) : kIndexTaskElements;
    l->indexStride = alignUp(l->elementsPerTile * l->indexBytes, kUbBlockBytes);
    l->elementUb = indexTensors * l->indexStride;
    l->denseUb = l->elementUb + kUbBlockBytes;
    std::shared_ptr<const IndexLayout> layout = l;
    kernel.program = [layout, accesses, blockDim = kernel.blockDim](const BlockProgramRequest& r)
        -> std::unique_ptr<InstructionStream> {
        return std::make_unique<AdvancedIndexStream>(layout, blockTiles(*layout, accesses, blockDim, r.blockIdx));
    };
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Index", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerAdvancedIndex(op, chip, /*put=*/false);
});
ASCENDSIM_REGISTER_KERNEL("IndexPutV2", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerAdvancedIndex(op, chip, /*put=*/true);
});

}  // namespace ascendsim
