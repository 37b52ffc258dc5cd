// ConcatD (docs/op-catalog.md, "Ops of the LLM samples"): y = concat(x_0, x_1, ..) along
// `concat_dim`, as CANN's ConcatD moves it: each input's rows into UB and out to their columns of
// y's rows (strided UB→GM bursts). One elementwise stream over y's outer rows: the row is cut into
// parts of g elements (g = gcd of the inputs' row lengths), part j of input i is a strided read of
// x_i and a strided write into y. Runs in the inputs' own dtype (no arithmetic).
#include <numeric>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kMaxParts = 16;  // UB values per row tile (keeps tiles deep enough)

std::vector<LoweredKernel> lowerConcat(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.empty() || op.outputs.empty()) throwLoweringError(op, "needs at least one input and an output");
    const TensorInfo& y = op.outputs[0];
    const auto rank = static_cast<std::int64_t>(y.shape.size());
    std::int64_t dim = op.intAttr("concat_dim", 0);
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) throwLoweringError(op, "concat_dim is out of range");
    const DataType dtype = op.inputs[0].dtype;
    if (bytesOf(dtype) > 4) throwLoweringError(op, "64-bit elements are not modelled");
    std::int64_t outer = 1;
    for (std::int64_t i = 0; i < dim; ++i) outer *= y.shape[static_cast<std::size_t>(i)];
    const std::int64_t outRow = y.elementCount() / std::max<std::int64_t>(outer, 1);
    std::vector<std::int64_t> rows;
    std::int64_t g = 0, total = 0;
    for (const auto& x : op.inputs) {
        if (x.dtype != dtype) throwLoweringError(op, "all inputs must share a dtype");
        const std::int64_t row = x.elementCount() / std::max<std::int64_t>(outer, 1);
        rows.push_back(row);
        total += row;
        g = std::gcd(g, row);
    }
    if (total != outRow || g == 0) throwLoweringError(op, "the inputs' sizes along concat_dim do not add up to y's");
    if (g * static_cast<std::int64_t>(bytesOf(dtype)) % 32 != 0 || total / g > kMaxParts)
        throwLoweringError(op, "the inputs' rows must cut into at most " + std::to_string(kMaxParts) +
                                   " parts of whole 32 B blocks");
    ElementwiseProgram program(op, dtype, {outer}, g);
    std::int64_t column = 0;
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
        for (std::int64_t part = 0; part < rows[i] / g; ++part) {
            TensorInfo source = op.inputs[i];
            source.deviceAddr += static_cast<std::uint64_t>(part * g) * bytesOf(dtype);
            TensorInfo target = y;
            target.deviceAddr += static_cast<std::uint64_t>(column) * bytesOf(dtype);
            program.store(program.elements(source, {rows[i]}), target,  // a move (ElementwisePlan::movesOnly)
                          static_cast<std::uint64_t>(outRow));
            column += g;
        }
    }
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ConcatD", lowerConcat);

}  // namespace ascendsim
