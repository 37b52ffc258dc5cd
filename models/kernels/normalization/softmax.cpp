// SoftmaxV2 (docs/op-catalog.md), in fp32: max, subtract, exp, sum, divide. x is viewed as
// [outer, L, inner] around the softmax axis: over the last axis (inner = 1) every row of L is one
// row of the row kernel; over another axis the reductions run across rows (softmax_columns.h).
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/normalization/softmax_columns.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

struct AxisView {
    std::uint64_t outer = 1, length = 1, inner = 1;
};

AxisView axisView(const OpInstance& op, const TensorInfo& x, std::int64_t axis) {
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    AxisView view;
    if (rank == 0) return view;
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) throwLoweringError(op, "axis out of range");
    for (std::int64_t d = 0; d < rank; ++d) {
        const auto size = static_cast<std::uint64_t>(x.shape[static_cast<std::size_t>(d)]);
        (d < axis ? view.outer : d == axis ? view.length : view.inner) *= size;
    }
    return view;
}

LoweredKernel lowerLastAxisSoftmax(const OpInstance& op, const ChipConfig& chip,
                                   const AxisView& view) {
    RowKernelSpec spec;
    spec.rows = view.outer;
    spec.length = view.length;
    spec.rowInputs = {op.inputs[0]};
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
    return lowerRowKernel(op, chip, std::move(spec));
}

std::vector<LoweredKernel> lowerSoftmax(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype)) throwLoweringError(op, "x must be a float tensor");
    const auto axes = op.intsAttr("axis", {});
    const std::int64_t axis = axes.empty() ? op.intAttr("axis", -1) : axes.front();
    const AxisView view = axisView(op, x, axis);
    if (view.inner == 1 || view.length == 1) {
        // A size-1 axis still goes through the row kernel: every row of one element becomes 1.
        const AxisView rows{.outer = view.outer * (view.length == 1 ? view.inner : 1),
                            .length = view.length,
                            .inner = 1};
        return {lowerLastAxisSoftmax(op, chip, rows)};
    }
    return {lowerSoftmaxAcrossRows(op, chip, view.outer, view.length, view.inner)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("SoftmaxV2", lowerSoftmax);

}  // namespace ascendsim
