// LayerNorm over the last dim (docs/op-catalog.md), in fp32:
// mean = ΣX/L, xc = x − mean, rstd = rsqrt(Σxc²/L + ε), y = xc·rstd·γ + β.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerLayerNorm(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 3, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype) || x.shape.empty()) throwLoweringError(op, "x must be a float tensor of rank ≥ 1");
    const auto length = static_cast<std::uint64_t>(x.shape.back());
    if (op.inputs[1].elementCount() != x.shape.back() || op.inputs[2].elementCount() != x.shape.back())
        throwLoweringError(op, "gamma and beta must have the last dim's length");
    RowKernelSpec spec;
    spec.rows = static_cast<std::uint64_t>(x.elementCount()) / std::max<std::uint64_t>(length, 1);
    spec.length = length;
    spec.rowInputs = {x};
    spec.vectorInputs = {op.inputs[1], op.inputs[2]};
    spec.rowOutputs = {op.outputs[0]};
    spec.temps = 1;
    spec.valueTemps = 2;
    const float inverseLength = 1.0f / static_cast<float>(length);
    const auto epsilon = static_cast<float>(op.floatAttr("epsilon", 1e-5));
    spec.compute = [inverseLength, epsilon](RowTile& t) {
        const auto in = t.inputs[0], out = t.outputs[0], centred = t.temps[0];
        const auto mean = t.valueTemps[0], rstd = t.valueTemps[1];
        t.reduce(VectorOp::ReduceSum, in, mean);
        t.values(VectorOp::Muls, mean, mean, 0, inverseLength);
        t.withValues(VectorOp::Sub, centred, in, mean);
        t.flat(VectorOp::Mul, out, centred, centred);
        t.reduce(VectorOp::ReduceSum, out, rstd);
        t.values(VectorOp::Muls, rstd, rstd, 0, inverseLength);
        t.values(VectorOp::Adds, rstd, rstd, 0, epsilon);
        t.values(VectorOp::Rsqrt, rstd, rstd);
        t.withValues(VectorOp::Mul, centred, centred, rstd);
        t.withVector(VectorOp::Mul, centred, centred, t.vectors[0]);
        t.withVector(VectorOp::Add, out, centred, t.vectors[1]);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("LayerNorm", lowerLayerNorm);

}  // namespace ascendsim
