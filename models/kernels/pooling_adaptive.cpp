// AdaptiveAvgPool2d (docs/op-catalog.md) with output [1,1], the global pool of classification
// heads: every (n, c) plane is one row, summed by vcadd and scaled by 1/(H·W). Other output sizes
// are a LoweringError (not modelled yet).
#include "models/kernels/elementwise_broadcast.h"
#include "models/kernels/vector_tiling_rows.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerAdaptiveAvgPool(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (x.shape.size() != 4 || !isFloat(x.dtype)) throwLoweringError(op, "x must be a float [N,C,H,W] tensor");
    const auto size = op.intsAttr("output_size", {1, 1});
    if (size.size() != 2 || size[0] <= 0 || size[1] <= 0) throwLoweringError(op, "output_size must be [oh, ow]");
    const std::int64_t h = x.shape[2], w = x.shape[3];
    if (size[0] != 1 || size[1] != 1)
        throwLoweringError(op, "adaptive pooling to " + std::to_string(size[0]) + "x" + std::to_string(size[1]) +
                                   " is not modelled (only the global [1,1] pool)");
    RowKernelSpec spec;
    spec.rows = static_cast<std::uint64_t>(x.shape[0] * x.shape[1]);
    spec.length = static_cast<std::uint64_t>(h * w);
    spec.rowInputs = {x};
    spec.valueOutputs = {op.outputs[0]};
    const float scale = 1.0f / static_cast<float>(h * w);
    spec.compute = [scale](RowTile& t) {
        t.reduce(VectorOp::ReduceSum, t.inputs[0], t.valueOutputs[0]);
        t.values(VectorOp::Muls, t.valueOutputs[0], t.valueOutputs[0], 0, scale);
    };
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("AdaptiveAvgPool2d", lowerAdaptiveAvgPool);

}  // namespace ascendsim
