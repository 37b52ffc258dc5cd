// AxpyV2 (docs/op-catalog.md, "Ops of the CNN training samples"): y = x1 + alpha·x2, the update
// torch's SGD issues per parameter on the 910A sample (param.add_(grad, alpha=-lr)). alpha is a
// [1] tensor the kernel reads once per block (a Scalar value), so every element pays a Mul and
// an Add whatever its value; without the tensor the `alpha` attribute is the constant.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

std::vector<LoweredKernel> lowerAxpyV2(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 1);
    const TensorInfo& x1 = op.inputs[0];
    const TensorInfo& x2 = op.inputs[1];
    if (x1.dtype != x2.dtype || !isFloat(x1.dtype)) throwLoweringError(op, "x1 and x2 must share one float dtype");
    const auto outShape = broadcastShape(op, {x1.shape, x2.shape});
    const BroadcastView view = broadcastView(op, outShape, {x1.shape, x2.shape});
    ElementwiseProgram program(op, vectorComputeType(op, x1.dtype), view.outerDims, view.rowLength);
    const std::vector<TensorInfo> pair{x1, x2};
    const auto in = loadBroadcastInputs(program, view, pair);
    const bool alphaTensor = op.inputs.size() > 2 && op.inputs[2].elementCount() >= 1;
    const Value alpha = alphaTensor ? program.scalar(op.inputs[2])
                                    : program.constant(static_cast<float>(op.floatAttr("alpha", 1.0)));
    program.store(program.binary(VectorOp::Add, in[0], program.binary(VectorOp::Mul, in[1], alpha)), op.outputs[0]);
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("AxpyV2", lowerAxpyV2);

}  // namespace ascendsim
