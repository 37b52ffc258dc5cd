// Batch-norm application and gradient ops that are elementwise once per-channel values are known
// (docs/op-catalog.md): BNInfer, BNTrainingUpdate, BNTrainingReduceGrad. x is [N,C,H,W] (rows are
// (n, c) planes of H·W elements and channel parameters are Row values) or [N,C] (parameters are
// a repeated row). Computation is in fp32 like CANN's BN kernels.
#include "models/kernels/elementwise_broadcast.h"
#include "models/kernels/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

struct ChannelView {
    std::vector<std::int64_t> outerDims;
    std::int64_t rowLength = 1;
    bool planes = true;  // rank 4: per-channel Row values; rank 2: a repeated row
    std::int64_t reducedCount = 1;  // N·H·W, the elements behind one channel statistic
};

ChannelView channelView(const OpInstance& op, const TensorInfo& x) {
    ChannelView view;
    if (x.shape.size() == 4) {
        view.outerDims = {x.shape[0], x.shape[1]};
        view.rowLength = x.shape[2] * x.shape[3];
        view.reducedCount = x.shape[0] * view.rowLength;
    } else if (x.shape.size() == 2) {
        view.outerDims = {x.shape[0]};
        view.rowLength = x.shape[1];
        view.planes = false;
        view.reducedCount = x.shape[0];
    } else {
        throwLoweringError(op, "x must be [N,C,H,W] or [N,C]");
    }
    return view;
}

Value channelParam(ElementwiseProgram& program, const ChannelView& view, const TensorInfo& tensor) {
    return view.planes ? program.rowValues(tensor, {0, 1}) : program.elements(tensor, {0});
}

ElementwiseProgram makeProgram(const OpInstance& op, const ChannelView& view) {
    if (!isFloat(op.inputs[0].dtype)) throwLoweringError(op, "x must be a float tensor");
    return ElementwiseProgram(op, DataType::Fp32, view.outerDims, view.rowLength);
}

std::vector<std::int64_t> denseStrides(const ChannelView& view) {
    return view.planes ? std::vector<std::int64_t>{view.outerDims[1] * view.rowLength, view.rowLength}
                       : std::vector<std::int64_t>{view.rowLength};
}

// y = x·a + b with a = scale·rsqrt(var + ε), b = offset − mean·a.
void applyNormalisation(ElementwiseProgram& p, Value x, Value mean, Value variance, Value scale, Value offset,
                        float epsilon, const TensorInfo& y) {
    const Value rstd = p.unary(VectorOp::Rsqrt, p.unary(VectorOp::Adds, variance, epsilon));
    const Value a = p.binary(VectorOp::Mul, scale, rstd);
    const Value b = p.binary(VectorOp::Sub, offset, p.binary(VectorOp::Mul, mean, a));
    p.store(p.binary(VectorOp::Add, p.binary(VectorOp::Mul, x, a), b), y);
}

std::vector<LoweredKernel> lowerBnInfer(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 5, 1);
    const ChannelView view = channelView(op, op.inputs[0]);
    auto p = makeProgram(op, view);
    const Value x = p.elements(op.inputs[0], denseStrides(view));
    const Value scale = channelParam(p, view, op.inputs[1]);
    const Value offset = channelParam(p, view, op.inputs[2]);
    const Value mean = channelParam(p, view, op.inputs[3]);
    const Value variance = channelParam(p, view, op.inputs[4]);
    applyNormalisation(p, x, mean, variance, scale, offset, static_cast<float>(op.floatAttr("epsilon", 1e-5)),
                       op.outputs[0]);
    return {p.lower(chip)};
}

// Training pass 2: mean = sum/M, var = square_sum/M − mean² (biased, as BN training uses).
std::vector<LoweredKernel> lowerBnTrainingUpdate(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 5, 1);
    const ChannelView view = channelView(op, op.inputs[0]);
    auto p = makeProgram(op, view);
    const float inverseCount = 1.0f / static_cast<float>(view.reducedCount);
    const Value x = p.elements(op.inputs[0], denseStrides(view));
    const Value mean = p.unary(VectorOp::Muls, channelParam(p, view, op.inputs[1]), inverseCount);
    const Value meanOfSquares = p.unary(VectorOp::Muls, channelParam(p, view, op.inputs[2]), inverseCount);
    const Value variance = p.binary(VectorOp::Sub, meanOfSquares, p.binary(VectorOp::Mul, mean, mean));
    const Value scale = channelParam(p, view, op.inputs[3]);
    const Value offset = channelParam(p, view, op.inputs[4]);
    applyNormalisation(p, x, mean, variance, scale, offset, static_cast<float>(op.floatAttr("epsilon", 1e-5)),
                       op.outputs[0]);
    return {p.lower(chip)};
}

// dx = scale·rstd·(dy − diff_offset/M − (x − mean)·rstd·diff_scale/M).
std::vector<LoweredKernel> lowerBnTrainingReduceGrad(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 7, 1);
    const ChannelView view = channelView(op, op.inputs[1]);
    auto p = makeProgram(op, view);
    const float inverseCount = 1.0f / static_cast<float>(view.reducedCount);
    const Value dy = p.elements(op.inputs[0], denseStrides(view));
    const Value x = p.elements(op.inputs[1], denseStrides(view));
    const Value diffScale = channelParam(p, view, op.inputs[2]);
    const Value diffOffset = channelParam(p, view, op.inputs[3]);
    const Value scale = channelParam(p, view, op.inputs[4]);
    const Value mean = channelParam(p, view, op.inputs[5]);
    const Value variance = channelParam(p, view, op.inputs[6]);
    const float epsilon = static_cast<float>(op.floatAttr("epsilon", 1e-5));
    const Value rstd = p.unary(VectorOp::Rsqrt, p.unary(VectorOp::Adds, variance, epsilon));
    const Value gain = p.binary(VectorOp::Mul, scale, rstd);
    const Value offsetShare = p.unary(VectorOp::Muls, diffOffset, inverseCount);
    const Value scaleShare = p.unary(VectorOp::Muls, p.binary(VectorOp::Mul, rstd, diffScale), inverseCount);
    const Value centred = p.binary(VectorOp::Sub, x, mean);
    Value t = p.binary(VectorOp::Sub, dy, offsetShare);
    t = p.binary(VectorOp::Sub, t, p.binary(VectorOp::Mul, centred, scaleShare));
    p.store(p.binary(VectorOp::Mul, t, gain), op.outputs[0]);
    return {p.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("BNInfer", lowerBnInfer);
ASCENDSIM_REGISTER_KERNEL("BNTrainingUpdate", lowerBnTrainingUpdate);
ASCENDSIM_REGISTER_KERNEL("BNTrainingReduceGrad", lowerBnTrainingReduceGrad);

}  // namespace ascendsim
