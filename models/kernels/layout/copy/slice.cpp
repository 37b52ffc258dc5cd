// Slice (docs/op-catalog.md, "Ops of the LLM samples"): y = x[offsets : offsets + size] per dim,
// as CANN's Slice moves it: strided GM→UB bursts of the kept part of each row, then UB→GM dense.
// It is the elementwise stream of a Copy over y's rows, reading x at x's strides from the
// offset's address (elementwise_program.h); no arithmetic, so it runs in x's own dtype.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

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
    ElementwiseProgram program(op, x.dtype, outerDims, rowLength);
    program.store(program.elements(source, outerStrides), y);  // a move (ElementwisePlan::movesOnly)
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Slice", lowerSlice);

}  // namespace ascendsim
