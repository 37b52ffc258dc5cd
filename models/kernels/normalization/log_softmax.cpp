// LogSoftmaxV2 and LogSoftmaxGrad over the last axis (docs/op-catalog.md), in fp32 on the row
// kernel (vector_tiling_rows.h), as the CNN samples' classifier heads run them ([32, 1000]):
//   LogSoftmaxV2:   y = x − max − ln Σ exp(x − max)   (max, subtract, exp, sum, ln, subtract);
//   LogSoftmaxGrad: dx = dy − exp(y) · Σ dy            (sum, exp, multiply by the row's sum, subtract),
// with inputs dy, y (the forward output) in the order torch_npu records them.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/reduction/dsl_reduce_dispatch.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

// Rows of the last axis: every dim before it is a row. Only the last axis (−1 or rank − 1).
std::uint64_t lastAxisRows(const OpInstance& op, const TensorInfo& x) {
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    const auto axes = op.intsAttr("axis", {});
    std::int64_t axis = axes.empty() ? op.intAttr("axis", -1) : axes.front();
    if (axis < 0) axis += rank;
    if (rank == 0 || axis != rank - 1) throwLoweringError(op, "only the last axis is modelled");
    if (!isFloat(x.dtype)) throwLoweringError(op, "x must be a float tensor");
    return static_cast<std::uint64_t>(x.elementCount() / x.shape.back());
}

std::vector<LoweredKernel> lowerLogSoftmax(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    RowKernelSpec spec;
    spec.rows = lastAxisRows(op, x);
    spec.length = static_cast<std::uint64_t>(x.shape.back());
    spec.rowInputs = {x};
    spec.rowOutputs = {op.outputs[0]};
    spec.temps = 1;
    spec.valueTemps = 2;
    spec.compute = [](RowTile& t) {
        const auto in = t.inputs[0], out = t.outputs[0], e = t.temps[0];
        const auto rowMax = t.valueTemps[0], logSum = t.valueTemps[1];
        t.reduce(VectorOp::ReduceMax, in, rowMax);
        t.withValues(VectorOp::Sub, out, in, rowMax);
        t.flat(VectorOp::Exp, e, out);
        t.reduce(VectorOp::ReduceSum, e, logSum);
        t.values(VectorOp::Ln, logSum, logSum);
        t.withValues(VectorOp::Sub, out, out, logSum);
    };
    LoweredKernel kernel = lowerRowKernel(op, chip, std::move(spec));
    prependDslReduceDispatch(kernel, chip);
    return {std::move(kernel)};
}

std::vector<LoweredKernel> lowerLogSoftmaxGrad(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 1);
    const TensorInfo& dy = op.inputs[0];
    if (op.inputs[1].shape != dy.shape) throwLoweringError(op, "dy and y must have the same shape");
    RowKernelSpec spec;
    spec.rows = lastAxisRows(op, dy);
    spec.length = static_cast<std::uint64_t>(dy.shape.back());
    spec.rowInputs = {dy, op.inputs[1]};
    spec.rowOutputs = {op.outputs[0]};
    spec.temps = 1;
    spec.valueTemps = 1;
    spec.compute = [](RowTile& t) {
        const auto grad = t.inputs[0], y = t.inputs[1], out = t.outputs[0], e = t.temps[0];
        const auto gradSum = t.valueTemps[0];
        t.reduce(VectorOp::ReduceSum, grad, gradSum);
        t.flat(VectorOp::Exp, e, y);
        t.withValues(VectorOp::Mul, e, e, gradSum);
        t.flat(VectorOp::Sub, out, grad, e);
    };
    LoweredKernel kernel = lowerRowKernel(op, chip, std::move(spec));
    prependDslReduceDispatch(kernel, chip);
    return {std::move(kernel)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("LogSoftmaxV2", lowerLogSoftmax);
ASCENDSIM_REGISTER_KERNEL("LogSoftmaxGrad", lowerLogSoftmaxGrad);

}  // namespace ascendsim
