// SwiGlu and SwiGluGrad (docs/op-catalog.md, "Ops of the LLM samples"), CANN's fused MLP
// activation over the last dim: x = [a | b] (two halves of width H),
//   y  = silu(a)·b,  silu(a) = a·σ(a),  σ(a) = 1 / (1 + exp(−a));
//   da = dy·b·σ(a)·(1 + a·(1 − σ(a))),  db = dy·silu(a)   → dx = [da | db].
// Computed in fp32 on the vector unit; each output row reads its two halves as strided rows of x
// (elementwise_program.h), so x is read once and never copied.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

struct GluHalves {
    std::int64_t rows = 0, half = 0;
    TensorInfo a, b;  // x viewed at its two halves (row stride 2H)
};

GluHalves gluHalves(const OpInstance& op, const TensorInfo& x) {
    if (!isFloat(x.dtype) || x.shape.empty()) throwLoweringError(op, "x must be a float tensor of rank ≥ 1");
    const std::int64_t width = x.shape.back();
    if (width % 2 != 0) throwLoweringError(op, "the last dim of x must be even (two halves)");
    if (op.intAttr("dim", -1) != -1 && op.intAttr("dim", -1) != static_cast<std::int64_t>(x.shape.size()) - 1)
        throwLoweringError(op, "only dim = -1 (the last dim) is modelled");
    GluHalves g;
    g.half = width / 2;
    g.rows = x.elementCount() / width;
    g.a = x;
    g.b = x;
    g.b.deviceAddr += static_cast<std::uint64_t>(g.half) * bytesOf(x.dtype);
    return g;
}

// σ(a) = 1 / (1 + exp(−a)).
Value sigmoid(ElementwiseProgram& p, Value a) {
    Value t = p.unary(VectorOp::Muls, a, -1.0f);
    t = p.unary(VectorOp::Exp, t);
    t = p.unary(VectorOp::Adds, t, 1.0f);
    return p.unary(VectorOp::Reciprocal, t);
}

std::vector<LoweredKernel> lowerSwiGlu(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const GluHalves g = gluHalves(op, op.inputs[0]);
    if (op.outputs[0].elementCount() != g.rows * g.half) throwLoweringError(op, "y must be x with its last dim halved");
    ElementwiseProgram p(op, vectorComputeType(op, op.inputs[0].dtype), {g.rows}, g.half);
    const Value a = p.elements(g.a, {2 * g.half});
    const Value b = p.elements(g.b, {2 * g.half});
    const Value silu = p.binary(VectorOp::Mul, a, sigmoid(p, a));
    p.store(p.binary(VectorOp::Mul, silu, b), op.outputs[0]);
    return {p.lower(chip)};
}

std::vector<LoweredKernel> lowerSwiGluGrad(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 1);
    const TensorInfo& dy = op.inputs[0];
    const GluHalves g = gluHalves(op, op.inputs[1]);
    if (dy.elementCount() != g.rows * g.half) throwLoweringError(op, "dy must be x with its last dim halved");
    if (op.outputs[0].elementCount() != op.inputs[1].elementCount()) throwLoweringError(op, "dx must have x's shape");
    ElementwiseProgram p(op, vectorComputeType(op, op.inputs[1].dtype), {g.rows}, g.half);
    const Value grad = p.elements(dy, {g.half});
    const Value a = p.elements(g.a, {2 * g.half});
    const Value b = p.elements(g.b, {2 * g.half});
    const Value sig = sigmoid(p, a);
    const Value silu = p.binary(VectorOp::Mul, a, sig);
    // σ'·a + σ = σ·(1 + a − a·σ) = σ + silu·(1 − σ)
    Value oneMinusSig = p.unary(VectorOp::Adds, p.unary(VectorOp::Muls, sig, -1.0f), 1.0f);
    Value dsilu = p.binary(VectorOp::Add, sig, p.binary(VectorOp::Mul, silu, oneMinusSig));
    Value da = p.binary(VectorOp::Mul, p.binary(VectorOp::Mul, grad, b), dsilu);
    Value db = p.binary(VectorOp::Mul, grad, silu);
    TensorInfo dxB = op.outputs[0];
    dxB.deviceAddr += static_cast<std::uint64_t>(g.half) * bytesOf(dxB.dtype);
    p.store(da, op.outputs[0], static_cast<std::uint64_t>(2 * g.half));
    p.store(db, dxB, static_cast<std::uint64_t>(2 * g.half));
    return {p.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("SwiGlu", lowerSwiGlu);
ASCENDSIM_REGISTER_KERNEL("SwiGluGrad", lowerSwiGluGrad);

}  // namespace ascendsim
