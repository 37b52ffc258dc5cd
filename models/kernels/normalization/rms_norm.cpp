// RmsNorm over the last dim (docs/op-catalog.md), in fp32: rstd = rsqrt(Σx²/L + ε), y = x·rstd·γ.
// A second output, if the op has one, receives rstd per row (as CANN's RmsNorm does).
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerRmsNorm(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype) || x.shape.empty()) throwLoweringError(op, "x must be a float tensor of rank ≥ 1");
    const auto length = static_cast<std::uint64_t>(x.shape.back());
    if (op.inputs[1].elementCount() != x.shape.back()) throwLoweringError(op, "gamma must have the last dim's length");
    RowKernelSpec spec;
    spec.rows = static_cast<std::uint64_t>(x.elementCount()) / std::max<std::uint64_t>(length, 1);
    spec.length = length;
    spec.rowInputs = {x};
    spec.vectorInputs = {op.inputs[1]};
    spec.rowOutputs = {op.outputs[0]};
    const bool storesRstd = op.outputs.size() > 1;
    if (storesRstd) spec.valueOutputs = {op.outputs[1]};
    spec.temps = 1;
    spec.valueTemps = 1;
    // CANN's RmsNorm (ops-nn norm/rms_norm, rms_norm_base.h BUFFER_NUM = 1) keeps one buffer per
    // queue: its merge-N loop loads, computes and stores a tile of rows in turn (docs/fidelity.md §71).
    spec.buffers = 1;
    const float inverseLength = 1.0f / static_cast<float>(length);
    const auto epsilon = static_cast<float>(op.floatAttr("epsilon", 1e-6));
    spec.compute = [inverseLength, epsilon, storesRstd](RowTile& t) {
        const auto in = t.inputs[0], out = t.outputs[0], scaled = t.temps[0];
        const auto rstd = storesRstd ? t.valueOutputs[0] : t.valueTemps[0];
        t.flat(VectorOp::Mul, scaled, in, in);
        t.reduce(VectorOp::ReduceSum, scaled, rstd);
        t.values(VectorOp::Muls, rstd, rstd, 0, inverseLength);
        t.values(VectorOp::Adds, rstd, rstd, 0, epsilon);
        t.values(VectorOp::Rsqrt, rstd, rstd);
        t.withValues(VectorOp::Mul, scaled, in, rstd);
        t.withVector(VectorOp::Mul, out, scaled, t.vectors[0]);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("RmsNorm", lowerRmsNorm);

}  // namespace ascendsim
