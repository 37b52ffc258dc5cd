#include "models/kernels/elementwise/adamw_bias_correction.h"

#include <algorithm>
#include <array>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

// A named namespace: unity builds put this file's helpers beside other kernels' (kBaseUb...).
namespace adamw_prologue {

// One step of Ascend C's float Power of a tensor by a scalar on the 220x (CANN 8.1 highlevel_api
// impl/math/power/power_float_impl.h CommonPowerF and power_v220_impl.h, read for structure):
// every step is a one-repeat vector instruction; `fenced` when a PipeBarrier<PIPE_V> follows it.
// CompareScalar is the model's compare, the mask And / Or its binary And / Or, the float-to-float
// Casts (CAST_RINT, CAST_FLOOR) its Cast and the sign bit's ShiftRight a unary-rate Muls.
struct PowerStep {
    VectorOp op;
    bool fenced;
};

constexpr std::array<PowerStep, 40> kFloatPowerSteps{{
    // InitDst: exp(y · ln |x|)
    {VectorOp::Abs, true}, {VectorOp::Ln, true}, {VectorOp::Mul, true}, {VectorOp::Exp, true},
    // DetermineSign
    {VectorOp::Abs, true}, {VectorOp::Cast, true}, {VectorOp::Muls, true}, {VectorOp::Cast, true},
    {VectorOp::Muls, true}, {VectorOp::Sub, true}, {VectorOp::Muls, true}, {VectorOp::Adds, true},
    {VectorOp::Cast, true},
    // GenMaskForSign (GrepSignBit: ShiftRight, CompareScalar)
    {VectorOp::Muls, true}, {VectorOp::CompareGt, true}, {VectorOp::Abs, true}, {VectorOp::Cast, true},
    {VectorOp::Sub, true}, {VectorOp::Abs, true}, {VectorOp::CompareGt, true}, {VectorOp::And, true},
    // VselPowerTensorScalar, Mul
    {VectorOp::Select, true}, {VectorOp::Mul, true},
    // GenMaskForOne
    {VectorOp::Abs, true}, {VectorOp::CompareGt, true}, {VectorOp::CompareGt, true}, {VectorOp::And, true},
    {VectorOp::CompareGt, true}, {VectorOp::CompareGt, true}, {VectorOp::Or, true}, {VectorOp::And, true},
    {VectorOp::Select, true},
    // GenMaskForNan
    {VectorOp::Abs, true}, {VectorOp::CompareGt, true}, {VectorOp::Or, false}, {VectorOp::CompareGt, false},
    {VectorOp::CompareGt, true}, {VectorOp::Or, true}, {VectorOp::Or, true},
    {VectorOp::Select, true},
}};

// 8 floats (BLOCK_SIZE_FOR_FLOAT32): one 32 B block, one repeat.
constexpr std::uint16_t kPowerElements = 8;
constexpr std::uint64_t kBaseUb = 0, kResultUb = kUbBlockBytes, kTemporaryUb = 2 * kUbBlockBytes;
constexpr std::uint32_t kStepBytes = 8;  // int64 step
// Init's scalar statements after the two powers (step size, 1 / √bc2, 1 − lr·wd, 1 − β1, 1 − β2,
// β2, ε and the five UB offsets), one scalar instruction each.
constexpr std::uint32_t kInitScalarStatements = 12;

Instruction oneBlock(VectorOp op, std::uint64_t dst, std::uint64_t src0, std::uint64_t src1) {
    VectorInstr v;
    v.op = op;
    v.dtype = DataType::Fp32;
    v.srcType = DataType::Fp32;
    v.dst = dst;
    v.src0 = src0;
    v.src1 = src1;
    v.repeats = 1;
    v.mask = kPowerElements;
    v.scalar = 1.0f;
    return Instruction::vector(v);
}

void appendScalarPow(std::vector<Instruction>& code, std::uint32_t scalarCycles) {
    code.push_back(Instruction::barrier(Pipe::Vector));
    code.push_back(oneBlock(VectorOp::Duplicate, kBaseUb, kBaseUb, kBaseUb));
    code.push_back(Instruction::barrier(Pipe::Vector));
    for (const PowerStep& step : kFloatPowerSteps) {
        code.push_back(oneBlock(step.op, kTemporaryUb, kBaseUb, kResultUb));
        if (step.fenced) code.push_back(Instruction::barrier(Pipe::Vector));
    }
    code.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Scalar, 0));
    code.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Scalar, 0));
    code.push_back(Instruction::scalar(
        ScalarWork{.cycles = scalarCycles, .loads = 1, .memory = MemSpace::UB, .bytesRead = sizeof(float)}));
    code.push_back(Instruction::barrier(Pipe::All));
}

}  // namespace adamw_prologue

std::vector<Instruction> adamWBiasCorrectionPrologue(const ChipConfig& chip) {
    const std::uint32_t scalarCycles = std::max<std::uint32_t>(chip.scalarCyclesPerInstruction, 1);
    std::vector<Instruction> code;
    // step_ = gmStep_.GetValue(0): a scalar load through the DCache (its GM access is not modelled:
    // countScalarMemory), then step_ += 1.
    code.push_back(Instruction::scalar(ScalarWork{
        .cycles = 2 * scalarCycles, .loads = 1, .memory = MemSpace::GM, .bytesRead = adamw_prologue::kStepBytes}));
    adamw_prologue::appendScalarPow(code, scalarCycles);  // β1^step
    adamw_prologue::appendScalarPow(code, scalarCycles);  // β2^step
    code.push_back(Instruction::scalar(adamw_prologue::kInitScalarStatements * scalarCycles));
    return code;
}

}  // namespace ascendsim
