// SoftmaxV2 over the last axis (docs/op-catalog.md), in fp32: max, subtract, exp, sum, divide.
#include "models/kernels/elementwise_broadcast.h"
#include "models/kernels/vector_tiling_rows.h"

namespace ascendsim {

namespace {

// The [rows, L] view of a reduction over `axis` when every dim after it is 1, else LoweringError.
std::pair<std::uint64_t, std::uint64_t> lastAxisView(const OpInstance& op, const TensorInfo& x, std::int64_t axis) {
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    if (rank == 0) return {1, 1};
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) throwLoweringError(op, "axis out of range");
    for (std::int64_t d = axis + 1; d < rank; ++d)
        if (x.shape[static_cast<std::size_t>(d)] != 1)
            throwLoweringError(op, "softmax over a non-last axis is not modelled (transpose first)");
    const auto length = static_cast<std::uint64_t>(x.shape[static_cast<std::size_t>(axis)]);
    return {static_cast<std::uint64_t>(x.elementCount()) / std::max<std::uint64_t>(length, 1), length};
}

std::vector<LoweredKernel> lowerSoftmax(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype)) throwLoweringError(op, "x must be a float tensor");
    std::int64_t axis = -1;
    const auto axes = op.intsAttr("axis", {});
    axis = axes.empty() ? op.intAttr("axis", -1) : axes.front();
    const auto [rows, length] = lastAxisView(op, x, axis);
    RowKernelSpec spec;
    spec.rows = rows;
    spec.length = length;
    spec.rowInputs = {x};
    spec.rowOutputs = {op.outputs[0]};
    spec.temps = 1;
    spec.valueTemps = 2;
    spec.compute = [](RowTile& t) {
        const auto in = t.inputs[0], out = t.outputs[0], e = t.temps[0];
        const auto rowMax = t.valueTemps[0], rowSum = t.valueTemps[1];
        t.reduce(VectorOp::ReduceMax, in, rowMax);
        t.withValues(VectorOp::Sub, e, in, rowMax);
        t.flat(VectorOp::Exp, e, e);
        t.reduce(VectorOp::ReduceSum, e, rowSum);
        t.withValues(VectorOp::Div, out, e, rowSum);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("SoftmaxV2", lowerSoftmax);

}  // namespace ascendsim
