// Unary math ops of the transformer training graphs (docs/op-catalog.md, "Ops of the LLM
// samples"): Exp, Log, Abs, Muls, Pows, Sin, Cos, as vector instruction sequences over the
// double-buffered elementwise program, computed in fp32 for bf16 inputs (elementwise_broadcast.h).
//
// The vector unit has no sine instruction (hardware.md §2.6 lists the transcendental class as
// exp/ln/sqrt/rsqrt/reciprocal), so Sin and Cos are what Ascend C's Sin/Cos APIs compile to:
// a range reduction by multiples of the period and an odd/even polynomial, all Muls/Adds/Mul.
#include <array>
#include <cmath>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

// Adding and subtracting 1.5·2²³ rounds an fp32 |v| < 2²² to the nearest integer (the fp32
// mantissa has 23 bits): the round-to-nearest of vadds, without a conversion instruction.
constexpr float kRoundMagic = 12582912.0f;
// 2π split into a head exact in fp32 and a tail (Cody–Waite), so x − k·2π loses no bits for
// the k of |x| up to a few thousand (RoPE angles of 4096 positions).
constexpr float kTwoPiHead = 6.28125f;
constexpr float kTwoPiTail = 1.9353071795864769253e-3f;
constexpr float kInverseTwoPi = 0.15915494309189533577f;

ElementwiseProgram floatUnaryProgram(const OpInstance& op) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype)) throwLoweringError(op, "needs a float dtype");
    if (op.outputs[0].elementCount() != x.elementCount()) throwLoweringError(op, "y must have x's shape");
    return ElementwiseProgram(op, vectorComputeType(op, x.dtype), {}, x.elementCount());
}

std::vector<LoweredKernel> lowerUnary(const OpInstance& op, const ChipConfig& chip, VectorOp vectorOp,
                                      float scalar) {
    auto program = floatUnaryProgram(op);
    const Value x = program.elements(op.inputs[0], {});
    program.store(program.unary(vectorOp, x, scalar), op.outputs[0]);
    return {program.lower(chip)};
}

// r = x − round(x / 2π)·2π ∈ [−π, π].
Value reduceToPeriod(ElementwiseProgram& program, Value x) {
    Value k = program.unary(VectorOp::Muls, x, kInverseTwoPi);
    k = program.unary(VectorOp::Adds, k, kRoundMagic);
    k = program.unary(VectorOp::Adds, k, -kRoundMagic);
    Value r = program.binary(VectorOp::Sub, x, program.unary(VectorOp::Muls, k, kTwoPiHead));
    return program.binary(VectorOp::Sub, r, program.unary(VectorOp::Muls, k, kTwoPiTail));
}

// Σ c_i·t^i by Horner's rule, highest coefficient first: p = p·t + c.
Value horner(ElementwiseProgram& program, Value t, const float* coefficients, std::size_t count) {
    Value p = program.unary(VectorOp::Muls, t, coefficients[0]);
    p = program.unary(VectorOp::Adds, p, coefficients[1]);
    for (std::size_t i = 2; i < count; ++i) {
        p = program.binary(VectorOp::Mul, p, t);
        p = program.unary(VectorOp::Adds, p, coefficients[i]);
    }
    return p;
}

// Taylor coefficients in r² up to r¹⁷ (sin) and r¹⁸ (cos): on [−π, π] the first omitted terms
// are π¹⁹/19! ≈ 2.2e-8 and π²⁰/20! ≈ 3.5e-9, below fp32 resolution.
constexpr std::array<float, 9> kSinCoefficients = {
    1.0f / 355687428096000.0f, -1.0f / 1307674368000.0f, 1.0f / 6227020800.0f, -1.0f / 39916800.0f,
    1.0f / 362880.0f,          -1.0f / 5040.0f,          1.0f / 120.0f,        -1.0f / 6.0f, 1.0f};
constexpr std::array<float, 10> kCosCoefficients = {
    -1.0f / 6402373705728000.0f, 1.0f / 20922789888000.0f, -1.0f / 87178291200.0f, 1.0f / 479001600.0f,
    -1.0f / 3628800.0f,          1.0f / 40320.0f,          -1.0f / 720.0f,         1.0f / 24.0f,
    -1.0f / 2.0f,                1.0f};

std::vector<LoweredKernel> lowerSinOrCos(const OpInstance& op, const ChipConfig& chip, bool sine) {
    auto program = floatUnaryProgram(op);
    const Value r = reduceToPeriod(program, program.elements(op.inputs[0], {}));
    const Value r2 = program.binary(VectorOp::Mul, r, r);
    Value y = sine ? horner(program, r2, kSinCoefficients.data(), kSinCoefficients.size())
                   : horner(program, r2, kCosCoefficients.data(), kCosCoefficients.size());
    if (sine) y = program.binary(VectorOp::Mul, y, r);
    program.store(y, op.outputs[0]);
    return {program.lower(chip)};
}

// Pows(x, exponent [1]): exponent 2 and 3 are products (CANN's Pows takes this path for
// integral exponents it can see, as the sample's grad-norm Pows(norm, 2.0) does); otherwise
// exp(e·ln x), defined for x > 0.
std::vector<LoweredKernel> lowerPows(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype)) throwLoweringError(op, "needs a float dtype");
    ElementwiseProgram program(op, vectorComputeType(op, x.dtype), {}, x.elementCount());
    const Value base = program.elements(x, {});
    const double exponent = op.floatAttr("exponent", 2.0);
    Value y;
    if (exponent == 2.0 || exponent == 3.0) {
        y = program.binary(VectorOp::Mul, base, base);
        if (exponent == 3.0) y = program.binary(VectorOp::Mul, y, base);
    } else {
        y = program.unary(VectorOp::Ln, base);
        y = program.unary(VectorOp::Muls, y, static_cast<float>(exponent));
        y = program.unary(VectorOp::Exp, y);
    }
    program.store(y, op.outputs[0]);
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Exp", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerUnary(op, chip, VectorOp::Exp, 0.0f);
});
ASCENDSIM_REGISTER_KERNEL("Log", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerUnary(op, chip, VectorOp::Ln, 0.0f);
});
ASCENDSIM_REGISTER_KERNEL("Abs", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerUnary(op, chip, VectorOp::Abs, 0.0f);
});
ASCENDSIM_REGISTER_KERNEL("Muls", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerUnary(op, chip, VectorOp::Muls, static_cast<float>(op.floatAttr("value", 1.0)));
});
ASCENDSIM_REGISTER_KERNEL("Sin", [](const OpInstance& op, const ChipConfig& chip) { return lowerSinOrCos(op, chip, true); });
ASCENDSIM_REGISTER_KERNEL("Cos", [](const OpInstance& op, const ChipConfig& chip) { return lowerSinOrCos(op, chip, false); });
ASCENDSIM_REGISTER_KERNEL("Pows", lowerPows);

}  // namespace ascendsim
