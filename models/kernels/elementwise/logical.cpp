// LogicalNot, LogicalOr, LogicalAnd (docs/op-catalog.md, "Ops of the LLM samples") on bool
// tensors (bytes 0/1), with numpy broadcasting for the binary ones. As CANN's kernels: the bytes
// are converted to fp16 on the vector unit (vconv), LogicalOr is vmax and LogicalAnd vmin of the
// 0/1 values, LogicalNot is 1 − x (vmuls, vadds), and the result is converted back to bytes.
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

void requireBool(const OpInstance& op) {
    for (const TensorInfo& t : op.inputs)
        if (t.dtype != DataType::Bool) throwLoweringError(op, "input '" + t.name + "' must be bool");
    if (op.outputs[0].dtype != DataType::Bool) throwLoweringError(op, "the output must be bool");
}

std::vector<LoweredKernel> lowerLogicalNot(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    requireBool(op);
    const auto& shape = op.inputs[0].shape;
    const BroadcastView view = broadcastView(op, shape, {shape});
    ElementwiseProgram program(op, DataType::Fp16, view.outerDims, view.rowLength);
    const auto in = loadBroadcastInputs(program, view, op.inputs);
    program.store(program.unary(VectorOp::Adds, program.unary(VectorOp::Muls, in[0], -1.0f), 1.0f), op.outputs[0]);
    return {program.lower(chip)};
}

std::vector<LoweredKernel> lowerLogicalBinary(const OpInstance& op, const ChipConfig& chip, VectorOp combine) {
    requireOperands(op, 2, 1);
    requireBool(op);
    const auto outShape = broadcastShape(op, {op.inputs[0].shape, op.inputs[1].shape});
    const BroadcastView view = broadcastView(op, outShape, {op.inputs[0].shape, op.inputs[1].shape});
    ElementwiseProgram program(op, DataType::Fp16, view.outerDims, view.rowLength);
    const auto in = loadBroadcastInputs(program, view, op.inputs);
    program.store(program.binary(combine, in[0], in[1]), op.outputs[0]);
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("LogicalNot", lowerLogicalNot);
ASCENDSIM_REGISTER_KERNEL("LogicalOr", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerLogicalBinary(op, chip, VectorOp::Max);
});
ASCENDSIM_REGISTER_KERNEL("LogicalAnd", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerLogicalBinary(op, chip, VectorOp::Min);
});

}  // namespace ascendsim
