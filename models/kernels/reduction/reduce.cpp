// ReduceSum, ReduceMean, ReduceMax (docs/op-catalog.md). The reduced axes must be contiguous once
// size-1 dims are ignored; the input is then [A, R, B]. B = 1 reduces rows (vector_tiling_rows),
// B > 1 folds rows of columns (reduce_columns). Mean scales by 1/R in fp32.
#include <algorithm>
#include <set>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/reduction/reduce_columns.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerReduce(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp, bool mean) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    vectorComputeType(op, x.dtype);
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    const auto axesAttr = op.intsAttr("axes", {});
    if (op.attrs.find("axes") == op.attrs.end()) throwLoweringError(op, "attribute axes is required");
    std::set<std::int64_t> axes;
    for (auto a : axesAttr) {
        const std::int64_t axis = a < 0 ? a + rank : a;
        if (axis < 0 || axis >= rank) throwLoweringError(op, "axis " + std::to_string(a) + " out of range");
        axes.insert(axis);
    }
    if (axesAttr.empty())  // ONNX/TF convention: no axes reduces everything
        for (std::int64_t d = 0; d < rank; ++d) axes.insert(d);
    std::uint64_t outer = 1, reduced = 1, inner = 1;
    int phase = 0;  // 0: before the reduced run, 1: inside it, 2: after it
    for (std::int64_t d = 0; d < rank; ++d) {
        const auto size = static_cast<std::uint64_t>(x.shape[static_cast<std::size_t>(d)]);
        if (size == 1) continue;
        const bool isReduced = axes.count(d) > 0;
        if (isReduced && phase == 2) throwLoweringError(op, "reducing non-adjacent axes is not modelled");
        if (isReduced) phase = 1;
        else if (phase == 1) phase = 2;
        (isReduced ? reduced : phase == 0 ? outer : inner) *= size;
    }
    if (inner > 1 && reduced > 1) return {lowerColumnReduction(op, chip, reduceOp, mean, outer, reduced, inner)};
    RowKernelSpec spec;
    spec.rows = outer * inner;
    spec.length = reduced;
    spec.rowInputs = {x};
    spec.valueOutputs = {op.outputs[0]};
    const float scale = mean ? 1.0f / static_cast<float>(reduced) : 1.0f;
    spec.compute = [reduceOp, mean, scale](RowTile& t) {
        t.reduce(reduceOp, t.inputs[0], t.valueOutputs[0]);
        if (mean) t.values(VectorOp::Muls, t.valueOutputs[0], t.valueOutputs[0], 0, scale);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ReduceSum", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerReduce(op, chip, VectorOp::ReduceSum, false);
});
ASCENDSIM_REGISTER_KERNEL("ReduceMean", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerReduce(op, chip, VectorOp::ReduceSum, true);
});
ASCENDSIM_REGISTER_KERNEL("ReduceMax", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerReduce(op, chip, VectorOp::ReduceMax, false);
});

}  // namespace ascendsim
