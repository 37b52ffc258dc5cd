// torch's advanced indexing of single elements (docs/op-catalog.md): Index (aclnnIndex, y[k] =
// x[i0[k], i1[k], ...]) and IndexPutV2 (aclnnIndexPutImpl, self[i0[k], i1[k], ...] = values[k],
// or += with accumulate), one int32/int64 index tensor per indexed leading dim of x / self, the
// trailing dims not indexed (each access is one element here: as many index tensors as dims).
// As CANN's kernels work, elements are split over the blocks; per tile of up to 256 elements:
// - MTE2 copies the tile's indices (and for IndexPutV2 its values) GM → UB;
// - the scalar unit waits for them, reads every index (one GetValue per index tensor and element)
//   and computes each element's GM address;
// - Index: one GM → UB DataMove per element into its own 32 B slot (the DMA's granule), then the
//   vector unit gathers the slots into a dense row that MTE3 stores;
// - IndexPutV2: the vector unit spreads the values into 32 B slots, and MTE3 writes each element
//   to its address with a DataCopyPad of one element (atomic add with accumulate).
// The element addresses depend on index values the timing model does not have: the moves are the
// indexed DataMoves of instruction.h (a pseudo-random element of the whole tensor per read).
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/indexed_rows.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// Elements per tile at most (as GatherV2's rows per tile: one move per element keeps a tile's
// program a bounded chunk).
constexpr std::uint64_t kMaxElementsPerTile = 256;

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
    std::uint64_t halfBytes = 0;  // indices, slots, dense row
};

class IndexTiles final : public TileSource {
public:
    IndexTiles(std::shared_ptr<const IndexLayout> layout, UnitRange elements) : l_(std::move(layout)), elements_(elements) {}
    std::uint64_t tileCount() const override { return ceilDiv(elements_.size(), l_->elementsPerTile); }
    void setup(TileCode& code) override {  // the slot offset table, built once
        emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Int32, {.dst = tableAddr()}, l_->elementsPerTile);
    }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const IndexLayout& l = *l_;
        const std::uint64_t first = elements_.begin + index * l.elementsPerTile;
        const std::uint64_t count = std::min(l.elementsPerTile, elements_.end - first);
        const std::uint64_t indices = half * l.halfBytes;
        const std::uint64_t indexStride = alignUp(l.elementsPerTile * l.indexBytes, kUbBlockBytes);
        const std::uint64_t slots = indices + l.indexGm.size() * indexStride;
        const std::uint64_t dense = slots + l.elementsPerTile * kUbBlockBytes;
        for (std::size_t i = 0; i < l.indexGm.size(); ++i) {
            const std::uint64_t bytes = count * l.indexBytes;
            code.load.push_back(moveRowsToUb(l.indexGm[i] + first * l.indexBytes, indices + i * indexStride,
                                             1, bytes, bytes));
        }
        if (l.put) code.load.push_back(moveRowsToUb(l.denseGm + first * l.elementBytes, dense, 1, count * l.elementBytes,
                                                    count * l.elementBytes));
        const auto event = static_cast<std::uint8_t>(half);
        code.load.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Scalar, event));
        code.load.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Scalar, event));
        code.load.push_back(scalarIndexReads(count * l.indexGm.size(), l.indexBytes));
        IndexedRowMove move{.toUb = !l.put, .dtype = l.dtype, .gm = l.tensorGm, .rowBytes = l.elementBytes,
                            .indexBytes = l.indexBytes, .rows = l.tensorElements, .atomicAdd = l.accumulate};
        auto& moves = l.put ? code.store : code.load;
        for (std::uint64_t k = 0; k < count; ++k) {
            move.ub = slots + k * kUbBlockBytes;
            move.indexAddr = indices + k * l.indexBytes;
            moves.push_back(indexedRowMove(move));
        }
        // Slots ↔ dense row: one gather of 32-bit words through an offset table (slot k at k·32 B).
        const VectorRange r = l.put ? VectorRange{.dst = slots, .src0 = dense, .src1 = tableAddr()}
                                    : VectorRange{.dst = dense, .src0 = slots, .src1 = tableAddr()};
        emitVectorRange(code.compute, VectorOp::Gather, l.elementBytes == 4 ? DataType::Int32 : DataType::Int16, r,
                        l.put ? count * kUbBlockBytes / l.elementBytes : count);
        if (!l.put) code.store.push_back(moveRowsToGm(dense, l.denseGm + first * l.elementBytes, 1, count * l.elementBytes,
                                                      count * l.elementBytes));
    }

private:
    std::uint64_t tableAddr() const { return 2 * l_->halfBytes; }
    std::shared_ptr<const IndexLayout> l_;
    UnitRange elements_;
};

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
    l->elementsPerTile = std::min(kMaxElementsPerTile, ceilDiv(accesses, kernel.blockDim));
    l->halfBytes = indexTensors * alignUp(l->elementsPerTile * l->indexBytes, kUbBlockBytes) +
                   l->elementsPerTile * kUbBlockBytes + alignUp(l->elementsPerTile * l->elementBytes, kUbBlockBytes);
    kernel.program = doubleBufferedBlockShares<IndexTiles>(std::shared_ptr<const IndexLayout>(l), accesses, kernel.blockDim);
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
