// RotaryMul (docs/op-catalog.md): y = x·cos + rotate_half(x)·sin over rows of D, with
// rotate_half(x) = [−x[D/2:], x[:D/2]] and cos/sin [S, D] shared by every batch and head (row r of
// x = (b, n, s) reads table row s). Computed in fp32.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerRotaryMul(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 3, 1);
    const TensorInfo& x = op.inputs[0];
    if (x.shape.size() != 4 || !isFloat(x.dtype)) throwLoweringError(op, "x must be a float [B,N,S,D] tensor");
    const std::int64_t s = x.shape[2], d = x.shape[3];
    for (std::size_t i = 1; i < 3; ++i)
        if (op.inputs[i].elementCount() != s * d) throwLoweringError(op, "cos and sin must be [S, D]");
    // Each half row must start on a 32 B boundary in UB (fp32 working rows).
    if (d % 16 != 0) throwLoweringError(op, "D must be a multiple of 16");
    RowKernelSpec spec;
    spec.rows = static_cast<std::uint64_t>(x.elementCount() / d);
    spec.length = static_cast<std::uint64_t>(d);
    spec.rowInputs = {x, op.inputs[1], op.inputs[2]};
    spec.rowInputPeriods = {0, static_cast<std::uint64_t>(s), static_cast<std::uint64_t>(s)};
    spec.rowOutputs = {op.outputs[0]};
    spec.temps = 1;
    const std::uint64_t half = static_cast<std::uint64_t>(d / 2), halfBytes = half * 4;
    spec.compute = [half, halfBytes](RowTile& t) {
        const auto in = t.inputs[0], cos = t.inputs[1], sin = t.inputs[2], out = t.outputs[0], rotated = t.temps[0];
        t.slice(VectorOp::Muls, rotated, in + halfBytes, half, -1.0f);
        t.slice(VectorOp::Copy, rotated + halfBytes, in, half);
        t.flat(VectorOp::Mul, out, in, cos);
        t.flat(VectorOp::Mul, rotated, rotated, sin);
        t.flat(VectorOp::Add, out, out, rotated);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("RotaryMul", lowerRotaryMul);

}  // namespace ascendsim
