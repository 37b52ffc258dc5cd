// BroadcastTo (docs/op-catalog.md, "Ops of the LLM samples"): x repeated to the `shape`
// attribute by numpy rules (the sample's second input, the shape tensor, is host data: the model
// reads its values from the attribute). An elementwise copy whose operand is read with broadcast
// strides (elementwise_program.h): repeated rows are re-read from GM, a broadcast scalar or
// per-row value is expanded on the vector unit. The last dim must be kept (the AlexNet sample's
// [1,32] → [5,32]); the Qwen3 sample's [1] → [4096] (only the last dim broadcast) is broadcast_last_dim.h's. 8-byte elements (int64)
// are moved as int32 pairs, by the int64 binary, whose code image is the int64 broadcast-pattern
// binaries' (int64_elementwise.h).
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/elementwise/int64_elementwise.h"
#include "models/kernels/layout/copy/broadcast_last_dim.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerBroadcastTo(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.empty() || op.inputs.size() > 2 || op.outputs.size() != 1)
        throwLoweringError(op, "takes x (and optionally the shape tensor) and one output");
    TensorInfo x = op.inputs[0], y = op.outputs[0];
    if (x.dtype != y.dtype) throwLoweringError(op, "y must have x's dtype");
    if (broadcastShape(op, {x.shape, y.shape}) != y.shape) throwLoweringError(op, "x does not broadcast to y's shape");
    if (broadcastsOnlyTheLastDim(x.shape, y.shape)) return lowerBroadcastLastDim(op, chip);
    if (x.shape.empty() || y.shape.empty() || x.shape.back() != y.shape.back())
        throwLoweringError(op, "a broadcast along the last dim is not modelled");
    const bool int64Binary = bytesOf(x.dtype) == 8;
    if (int64Binary) {
        x.dtype = y.dtype = DataType::Int32;
        x.shape.back() *= 2;
        y.shape.back() *= 2;
    }
    const BroadcastView view = broadcastView(op, y.shape, {x.shape});
    ElementwiseProgram program(op, vectorComputeType(op, x.dtype), view.outerDims, view.rowLength);
    const auto in = loadBroadcastInputs(program, view, {x});
    // A copy on the vector unit hands the rows from the input queue to the output queue.
    program.store(program.unary(VectorOp::Copy, in[0]), y);
    LoweredKernel kernel = program.lower(chip);
    if (int64Binary) kernel.codeBytes = dynamicBinaryCodeBytes(chip, kInt64BroadcastBinaryCodeBytes);
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("BroadcastTo", lowerBroadcastTo);

}  // namespace ascendsim
