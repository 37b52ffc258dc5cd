// SoftmaxCrossEntropyWithLogits (docs/op-catalog.md), in fp32 per row of [N, C]:
// loss = −Σ labels·log_softmax(logits), backprop = softmax(logits) − labels.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerSoftmaxCrossEntropy(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 2);
    const TensorInfo& logits = op.inputs[0];
    if (logits.shape.size() != 2 || op.inputs[1].shape != logits.shape)
        throwLoweringError(op, "logits and labels must both be [N, C]");
    if (!isFloat(logits.dtype)) throwLoweringError(op, "logits must be a float tensor");
    RowKernelSpec spec;
    spec.rows = static_cast<std::uint64_t>(logits.shape[0]);
    spec.length = static_cast<std::uint64_t>(logits.shape[1]);
    spec.rowInputs = {logits, op.inputs[1]};
    spec.rowOutputs = {op.outputs[1]};
    spec.valueOutputs = {op.outputs[0]};
    spec.temps = 2;
    spec.valueTemps = 2;
    spec.compute = [](RowTile& t) {
        const auto x = t.inputs[0], labels = t.inputs[1], backprop = t.outputs[0], loss = t.valueOutputs[0];
        const auto shifted = t.temps[0], e = t.temps[1];
        const auto rowMax = t.valueTemps[0], rowSum = t.valueTemps[1];
        t.reduce(VectorOp::ReduceMax, x, rowMax);
        t.withValues(VectorOp::Sub, shifted, x, rowMax);
        t.flat(VectorOp::Exp, e, shifted);
        t.reduce(VectorOp::ReduceSum, e, rowSum);
        t.withValues(VectorOp::Div, backprop, e, rowSum);
        t.flat(VectorOp::Sub, backprop, backprop, labels);
        t.values(VectorOp::Ln, rowMax, rowSum);  // log Σ exp, reusing the max slot
        t.withValues(VectorOp::Sub, shifted, shifted, rowMax);
        t.flat(VectorOp::Mul, e, shifted, labels);
        t.reduce(VectorOp::ReduceSum, e, loss);
        t.values(VectorOp::Muls, loss, loss, 0, -1.0f);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("SoftmaxCrossEntropyWithLogits", lowerSoftmaxCrossEntropy);

}  // namespace ascendsim
