// Optimizer updates (docs/op-catalog.md): ApplyMomentum and ApplyAdamW, elementwise over the
// parameter with [1]-tensor hyper-parameters broadcast as Scalar values (prepared once per block).
#include "models/kernels/elementwise/adamw_bias_correction.h"
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/chained_stream.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

void requireSameShape(const OpInstance& op, std::initializer_list<std::size_t> inputs) {
    for (std::size_t i : inputs)
        if (op.inputs[i].elementCount() != op.inputs[0].elementCount())
            throwLoweringError(op, "input " + std::to_string(i) + " must have var's shape");
}

// accum = accum·momentum + grad; var −= lr·accum (Nesterov: var −= lr·grad + lr·momentum·accum).
std::vector<LoweredKernel> lowerApplyMomentum(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 5, 2);
    requireSameShape(op, {1, 3});
    const TensorInfo& var = op.inputs[0];
    ElementwiseProgram p(op, vectorComputeType(op, var.dtype), {}, var.elementCount());
    const Value v = p.elements(var, {});
    const Value accum = p.elements(op.inputs[1], {});
    const Value lr = p.scalar(op.inputs[2]);
    const Value grad = p.elements(op.inputs[3], {});
    const Value momentum = p.scalar(op.inputs[4]);
    const Value newAccum = p.binary(VectorOp::Add, p.binary(VectorOp::Mul, accum, momentum), grad);
    Value step = p.binary(VectorOp::Mul, newAccum, lr);
    if (op.boolAttr("use_nesterov", false))
        step = p.binary(VectorOp::Add, p.binary(VectorOp::Mul, grad, lr),
                        p.binary(VectorOp::Mul, step, momentum));
    p.store(p.binary(VectorOp::Sub, v, step), op.outputs[0]);
    p.store(newAccum, op.outputs[1]);
    return {p.lower(chip)};
}

// AdamW with decoupled weight decay (torch.optim.AdamW):
//   var ← var·(1 − lr·wd); m ← β1·m + (1−β1)·g; v ← β2·v + (1−β2)·g²;
//   var ← var − lr/(1−β1^t) · m / (√v / √(1−β2^t) + ε).
std::vector<LoweredKernel> lowerApplyAdamW(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 11, 3);
    requireSameShape(op, {1, 2, 10});
    const TensorInfo& var = op.inputs[0];
    ElementwiseProgram p(op, vectorComputeType(op, var.dtype), {}, var.elementCount());
    const Value param = p.elements(var, {});
    const Value m = p.elements(op.inputs[1], {});
    const Value v = p.elements(op.inputs[2], {});
    const Value beta1Power = p.scalar(op.inputs[3]);
    const Value beta2Power = p.scalar(op.inputs[4]);
    const Value lr = p.scalar(op.inputs[5]);
    const Value weightDecay = p.scalar(op.inputs[6]);
    const Value beta1 = p.scalar(op.inputs[7]);
    const Value beta2 = p.scalar(op.inputs[8]);
    const Value epsilon = p.scalar(op.inputs[9]);
    const Value grad = p.elements(op.inputs[10], {});
    auto oneMinus = [&](Value s) { return p.unary(VectorOp::Adds, p.unary(VectorOp::Muls, s, -1.0f), 1.0f); };
    const Value decay = oneMinus(p.binary(VectorOp::Mul, lr, weightDecay));
    const Value stepSize = p.binary(VectorOp::Div, lr, oneMinus(beta1Power));
    const Value correction2 = p.unary(VectorOp::Sqrt, oneMinus(beta2Power));

    const Value newM = p.binary(VectorOp::Add, p.binary(VectorOp::Mul, m, beta1),
                                p.binary(VectorOp::Mul, grad, oneMinus(beta1)));
    const Value gradSquared = p.binary(VectorOp::Mul, grad, grad);
    const Value newV = p.binary(VectorOp::Add, p.binary(VectorOp::Mul, v, beta2),
                                p.binary(VectorOp::Mul, gradSquared, oneMinus(beta2)));
    const Value denominator =
        p.binary(VectorOp::Add, p.binary(VectorOp::Div, p.unary(VectorOp::Sqrt, newV), correction2), epsilon);
    const Value update = p.binary(VectorOp::Mul, p.binary(VectorOp::Div, newM, denominator), stepSize);
    p.store(p.binary(VectorOp::Sub, p.binary(VectorOp::Mul, param, decay), update), op.outputs[0]);
    p.store(newM, op.outputs[1]);
    p.store(newV, op.outputs[2]);
    return {p.lower(chip)};
}

// CANN's ApplyAdamWV2 (aclnnApplyAdamWV2; ops-nn apply_adam_w_v2_fp.h): var, m, v, grad and a
// [1] step; lr, β1, β2, ε and the weight decay are attributes the kernel gets in its tiling data.
// Each block first runs the bias corrections' prologue (adamw_bias_correction.h), then AdamW's
// update over its tiles with the per-launch factors as immediates: var·(1 − lr·wd), the lerp of m
// towards grad, v·β2 + (1 − β2)·grad², and var − step size · m / (√v / √bc2 + ε).
std::vector<LoweredKernel> lowerApplyAdamWV2(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 5, 3);
    requireSameShape(op, {1, 2, 3});
    if (op.inputs[4].elementCount() != 1) throwLoweringError(op, "step must hold one element");
    const TensorInfo& var = op.inputs[0];
    ElementwiseProgram p(op, vectorComputeType(op, var.dtype), {}, var.elementCount());
    const Value param = p.elements(var, {});
    const Value m = p.elements(op.inputs[1], {});
    const Value v = p.elements(op.inputs[2], {});
    const Value grad = p.elements(op.inputs[3], {});
    const auto attr = [&](const char* name, double fallback) { return static_cast<float>(op.floatAttr(name, fallback)); };
    const float lr = attr("lr", 1e-3), beta1 = attr("beta1", 0.9), beta2 = attr("beta2", 0.999);
    const float epsilon = attr("epsilon", 1e-8), weightDecay = attr("weight_decay", 1e-2);
    // m ← m + (grad − m)·(1 − β1); v ← v·β2 + grad²·(1 − β2); denominator √v·(1/√bc2) + ε.
    const Value newM = p.binary(VectorOp::Add, m,
                                p.unary(VectorOp::Muls, p.binary(VectorOp::Sub, grad, m), 1.0f - beta1));
    const Value newV = p.binary(VectorOp::Add, p.unary(VectorOp::Muls, v, beta2),
                                p.unary(VectorOp::Muls, p.binary(VectorOp::Mul, grad, grad), 1.0f - beta2));
    const Value denominator =
        p.unary(VectorOp::Adds, p.unary(VectorOp::Muls, p.unary(VectorOp::Sqrt, newV), 1.0f), epsilon);
    const Value update = p.unary(VectorOp::Muls, p.binary(VectorOp::Div, newM, denominator), lr);
    p.store(p.binary(VectorOp::Sub, p.unary(VectorOp::Muls, param, 1.0f - lr * weightDecay), update), op.outputs[0]);
    p.store(newM, op.outputs[1]);
    p.store(newV, op.outputs[2]);
    LoweredKernel kernel = p.lower(chip);
    prependToEveryBlock(kernel, [prologue = adamWBiasCorrectionPrologue(chip)](const BlockProgramRequest&) {
        return prologue;
    });
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ApplyMomentum", lowerApplyMomentum);
ASCENDSIM_REGISTER_KERNEL("ApplyAdamW", lowerApplyAdamW);
ASCENDSIM_REGISTER_KERNEL("ApplyAdamWV2", lowerApplyAdamWV2);

}  // namespace ascendsim
