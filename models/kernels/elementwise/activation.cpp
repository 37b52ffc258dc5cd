// Activations (docs/op-catalog.md): Relu, Gelu (tanh form, as CANN's Gelu), Swish (β = 1) and
// ReluGrad, as instruction sequences of the vector unit.
#include <cmath>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

// GELU tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) = x / (1 + exp(-2u)),
// u = √(2/π)·(x + 0.044715·x³): one Exp and one Div instead of a tanh.
constexpr float kGeluCubicCoefficient = 0.044715f;
const float kGeluMinusTwoSqrtTwoOverPi = static_cast<float>(-2.0 * std::sqrt(2.0 / M_PI));

ElementwiseProgram unaryProgram(const OpInstance& op, std::size_t inputs) {
    requireOperands(op, inputs, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype)) throwLoweringError(op, "needs a float dtype");
    for (std::size_t i = 1; i < inputs; ++i)
        if (op.inputs[i].elementCount() != x.elementCount())
            throwLoweringError(op, "inputs must have the same shape");
    return ElementwiseProgram(op, vectorComputeType(op, x.dtype), {}, x.elementCount());
}

std::vector<LoweredKernel> lowerRelu(const OpInstance& op, const ChipConfig& chip) {
    auto program = unaryProgram(op, 1);
    const Value x = program.elements(op.inputs[0], {});
    program.store(program.unary(VectorOp::Relu, x), op.outputs[0]);
    return {program.lower(chip)};
}

std::vector<LoweredKernel> lowerGelu(const OpInstance& op, const ChipConfig& chip) {
    auto program = unaryProgram(op, 1);
    const Value x = program.elements(op.inputs[0], {});
    Value t = program.binary(VectorOp::Mul, x, x);
    t = program.binary(VectorOp::Mul, t, x);
    t = program.unary(VectorOp::Muls, t, kGeluCubicCoefficient);
    t = program.binary(VectorOp::Add, t, x);
    t = program.unary(VectorOp::Muls, t, kGeluMinusTwoSqrtTwoOverPi);
    t = program.unary(VectorOp::Exp, t);
    t = program.unary(VectorOp::Adds, t, 1.0f);
    program.store(program.binary(VectorOp::Div, x, t), op.outputs[0]);
    return {program.lower(chip)};
}

// Swish(x) = x·sigmoid(x) = x / (1 + exp(-x)).
std::vector<LoweredKernel> lowerSwish(const OpInstance& op, const ChipConfig& chip) {
    auto program = unaryProgram(op, 1);
    const Value x = program.elements(op.inputs[0], {});
    const float beta = static_cast<float>(op.floatAttr("scale", 1.0));
    Value t = program.unary(VectorOp::Muls, x, -beta);
    t = program.unary(VectorOp::Exp, t);
    t = program.unary(VectorOp::Adds, t, 1.0f);
    program.store(program.binary(VectorOp::Div, x, t), op.outputs[0]);
    return {program.lower(chip)};
}

// dx = dy where x > 0, else 0: a compare to 0 gives 1/0, which scales dy.
std::vector<LoweredKernel> lowerReluGrad(const OpInstance& op, const ChipConfig& chip) {
    auto program = unaryProgram(op, 2);
    const Value dy = program.elements(op.inputs[0], {});
    const Value x = program.elements(op.inputs[1], {});
    const Value positive = program.binary(VectorOp::CompareGt, x, program.constant(0.0f));
    program.store(program.binary(VectorOp::Mul, dy, positive), op.outputs[0]);
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Relu", lowerRelu);
ASCENDSIM_REGISTER_KERNEL("Gelu", lowerGelu);
ASCENDSIM_REGISTER_KERNEL("Swish", lowerSwish);
ASCENDSIM_REGISTER_KERNEL("ReluGrad", lowerReluGrad);

}  // namespace ascendsim
