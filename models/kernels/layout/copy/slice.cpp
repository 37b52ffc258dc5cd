// Slice (docs/op-catalog.md, "Ops of the LLM samples"): y = x[offsets : offsets + size] per dim,
// as CANN's Slice moves it: strided GM→UB bursts of the kept part of each row, then UB→GM dense.
// It is the elementwise stream of a Copy over y's rows, reading x at x's strides from the
// offset's address (elementwise_program.h); no arithmetic, so it runs in x's own dtype.
// A slice whose kept rows are shorter than one 32 B block (and whose elements are not 16-bit) is
// CANN's strided_slice small-last-dim mode instead (SmallRowSliceStream below).
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

// CANN's TIK strided_slice (impl/dynamic/strided_slice.py, CANN 8.1.RC1, `_do_small_last_dim`,
// tiling mode 1; 32-bit and 8-bit types also take it for mode 3, which 16-bit types run as a
// vnchwconv transpose instead) when y's rows are shorter than a block: a core takes
// ceil(rows / cores) consecutive rows; per row it moves the row GM → a one-block tmp_ub (a
// data_move_pad of the row's bytes) and the scalar unit waits for it and copies its elements
// one by one into a dense UB row (`ub[count + i] = tmp_ub[i]`), so the next row's move waits for
// the copy; the dense row is stored as one move once UB is full or the core's rows are done. The
// Qwen3 [4,24] → [4,1] fp32 rows show it (docs/fidelity.md §153): MTE3 busy 224 cycles for one
// 16 B store, MTE2 784 for four one-row moves, where a burst per row cost both.
// The elements the scalar unit copies are timing only (as Index's, advanced_index.cpp): the dense
// row holds no values in the functional model.
constexpr std::uint64_t kStridedSliceReservedUbBytes = 382;  // strided_slice.py Constant.Tiling_UB_SIZE
constexpr std::uint32_t kSliceScalarCopyCyclesPerElement = 2;    // one set_as, as Index's (advanced_index.cpp)
constexpr std::uint8_t kSliceRowLoaded = 0, kSliceDenseRowStored = 1;

struct SmallRowSlice {
    std::uint64_t xGm = 0, yGm = 0;        // x at the slice's start, y
    std::uint64_t rows = 0, rowBytes = 0, rowElements = 0, elementBytes = 4;
    std::vector<std::int64_t> outerDims, outerStrides;  // y's rows in x, in elements
    std::uint64_t rowsPerStore = 0;        // the dense UB row's capacity in rows
    std::uint64_t tmpUb = 0, denseUb = 0;

    std::uint64_t rowGm(std::uint64_t row) const {
        std::int64_t offset = 0;
        for (std::size_t i = outerDims.size(); i-- > 0;) {
            offset += static_cast<std::int64_t>(row % static_cast<std::uint64_t>(outerDims[i])) * outerStrides[i];
            row /= static_cast<std::uint64_t>(outerDims[i]);
        }
        return xGm + static_cast<std::uint64_t>(offset) * elementBytes;
    }
};

class SmallRowSliceStream final : public TiledInstructionStream {
public:
    SmallRowSliceStream(std::shared_ptr<const SmallRowSlice> s, UnitRange rows) : s_(std::move(s)), rows_(rows) {}

protected:
    std::uint64_t tileCount() const override { return ceilDiv(rows_.size(), s_->rowsPerStore); }

    void emitTile(std::uint64_t tile, ProgramBuilder& b) override {
        const SmallRowSlice& s = *s_;
        const std::uint64_t first = rows_.begin + tile * s.rowsPerStore;
        const std::uint64_t count = std::min(s.rowsPerStore, rows_.end - first);
        b.scalar(kScalarCyclesPerTile);
        if (tile > 0) b.waitFlag(Pipe::Mte3, Pipe::Scalar, kSliceDenseRowStored);  // the dense row was stored
        for (std::uint64_t row = first; row < first + count; ++row) {
            b.out().push_back(moveRowsToUb(s.rowGm(row), s.tmpUb, 1, s.rowBytes, s.rowBytes));
            b.handoff(Pipe::Mte2, Pipe::Scalar, kSliceRowLoaded);
            const auto elements = static_cast<std::uint16_t>(s.rowElements);
            b.out().push_back(Instruction::scalar(ScalarWork{.cycles = kSliceScalarCopyCyclesPerElement * elements,
                                                             .loads = elements, .stores = elements,
                                                             .memory = MemSpace::UB,
                                                             .bytesRead = static_cast<std::uint32_t>(s.rowBytes),
                                                             .bytesWritten = static_cast<std::uint32_t>(s.rowBytes)}));
        }
        b.handoff(Pipe::Scalar, Pipe::Mte3, kSliceDenseRowStored);
        const std::uint64_t bytes = count * s.rowBytes;
        b.out().push_back(moveRowsToGm(s.denseUb, s.yGm + first * s.rowBytes, 1, bytes, bytes));
        b.setFlag(Pipe::Mte3, Pipe::Scalar, kSliceDenseRowStored);
    }

    void emitEpilogue(ProgramBuilder& b) override {  // every flag set is waited for
        if (tileCount() > 0) b.waitFlag(Pipe::Mte3, Pipe::Scalar, kSliceDenseRowStored);
    }

private:
    std::shared_ptr<const SmallRowSlice> s_;
    UnitRange rows_;
};

LoweredKernel lowerSmallRowSlice(const OpInstance& op, const ChipConfig& chip, SmallRowSlice spec) {
    const VectorPlacement placement = vectorPlacement(chip);
    if (placement.ubBytes < kStridedSliceReservedUbBytes + 2 * kUbBlockBytes) throwLoweringError(op, "UB is too small");
    // ub_size: UB less the tiling's reserve in whole blocks, less tmp_ub's block.
    const std::uint64_t denseBytes =
        (placement.ubBytes - kStridedSliceReservedUbBytes) / kUbBlockBytes * kUbBlockBytes - kUbBlockBytes;
    spec.rowsPerStore = std::max<std::uint64_t>(1, denseBytes / spec.rowBytes);
    spec.tmpUb = 0;
    spec.denseUb = kUbBlockBytes;
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, spec.rows * spec.rowBytes, spec.rows);
    auto layout = std::make_shared<const SmallRowSlice>(std::move(spec));
    kernel.program = [layout, blockDim = kernel.blockDim](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        // out_loops = ceil(rows / cores) consecutive rows a core, the last cores fewer or none.
        const std::uint64_t perBlock = ceilDiv(layout->rows, blockDim);
        const std::uint64_t begin = std::min(layout->rows, r.blockIdx * perBlock);
        return std::make_unique<SmallRowSliceStream>(layout, UnitRange{begin, std::min(layout->rows, begin + perBlock)});
    };
    return kernel;
}

std::vector<LoweredKernel> lowerSlice(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& y = op.outputs[0];
    const std::size_t rank = x.shape.size();
    const auto offsets = op.intsAttr("offsets", std::vector<std::int64_t>(rank, 0));
    if (rank == 0 || offsets.size() != rank || y.shape.size() != rank)
        throwLoweringError(op, "offsets and y must have x's rank " + std::to_string(rank));
    if (bytesOf(x.dtype) > 4) throwLoweringError(op, "64-bit elements are not modelled");
    std::vector<std::int64_t> strides(rank, 1);
    for (std::size_t i = rank; i-- > 1;) strides[i - 1] = strides[i] * x.shape[i];
    std::int64_t start = 0;
    for (std::size_t i = 0; i < rank; ++i) {
        if (offsets[i] < 0 || offsets[i] + y.shape[i] > x.shape[i])
            throwLoweringError(op, "dim " + std::to_string(i) + ": offset + size exceeds x");
        start += offsets[i] * strides[i];
    }
    // Rows are y's trailing dims from the last one y does not keep whole: a dim kept whole makes
    // the one before it contiguous in x, so both are one row (a slice that keeps every dim is
    // one run, not a burst per x row). Every other dim walks x at x's strides.
    std::size_t rowDims = 1;
    while (rowDims < rank && y.shape[rank - rowDims] == x.shape[rank - rowDims]) ++rowDims;
    std::int64_t rowLength = 1;
    for (std::size_t i = rank - rowDims; i < rank; ++i) rowLength *= y.shape[i];
    std::vector<std::int64_t> outerDims, outerStrides;
    for (std::size_t i = 0; i + rowDims < rank; ++i) {
        if (y.shape[i] == 1) continue;
        outerDims.push_back(y.shape[i]);
        outerStrides.push_back(strides[i]);
    }
    TensorInfo source = x;
    source.deviceAddr += static_cast<std::uint64_t>(start) * bytesOf(x.dtype);
    const std::uint64_t elementBytes = bytesOf(x.dtype);
    const auto rowBytes = static_cast<std::uint64_t>(rowLength) * elementBytes;
    if (!outerDims.empty() && rowBytes < kUbBlockBytes && elementBytes != 2) {
        SmallRowSlice spec;
        spec.xGm = source.deviceAddr;
        spec.yGm = y.deviceAddr;
        spec.rows = static_cast<std::uint64_t>(y.elementCount()) / static_cast<std::uint64_t>(rowLength);
        spec.rowBytes = rowBytes;
        spec.rowElements = static_cast<std::uint64_t>(rowLength);
        spec.elementBytes = elementBytes;
        spec.outerDims = outerDims;
        spec.outerStrides = outerStrides;
        return {lowerSmallRowSlice(op, chip, std::move(spec))};
    }
    ElementwiseProgram program(op, x.dtype, outerDims, rowLength);
    program.store(program.elements(source, outerStrides), y);  // a move (ElementwisePlan::movesOnly)
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Slice", lowerSlice);

}  // namespace ascendsim
