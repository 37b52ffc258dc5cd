// Comparisons (docs/op-catalog.md, "Ops of the LLM samples"): Greater, Less, GreaterEqual, Equal,
// NotEqual with numpy broadcasting, output bool. The vector unit's compare (vcmp, modelled as
// CompareGt writing 1/0: hardware.md §2.6) gives a > b; the other relations are built from it
// as the compare-and-select sequences of CANN's kernels: a < b is b > a, a ≥ b is 1 − (b > a),
// a ≠ b is (a > b) + (b > a), a = b is 1 − (a ≠ b).
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/elementwise/int64_elementwise.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

enum class Relation { Greater, Less, GreaterEqual, Equal, NotEqual };

std::vector<LoweredKernel> lowerCompare(const OpInstance& op, const ChipConfig& chip, Relation relation) {
    requireOperands(op, 2, 1);
    if (isInt64Elementwise(op)) return lowerInt64Elementwise(op, chip);
    const TensorInfo& x1 = op.inputs[0];
    const TensorInfo& x2 = op.inputs[1];
    if (x1.dtype != x2.dtype) throwLoweringError(op, "x1 and x2 must have the same dtype");
    const auto outShape = broadcastShape(op, {x1.shape, x2.shape});
    const BroadcastView view = broadcastView(op, outShape, {x1.shape, x2.shape});
    ElementwiseProgram program(op, vectorComputeType(op, x1.dtype), view.outerDims, view.rowLength);
    const auto in = loadBroadcastInputs(program, view, op.inputs);
    auto greater = [&](Value a, Value b) { return program.binary(VectorOp::CompareGt, a, b); };
    auto oneMinus = [&](Value v) { return program.unary(VectorOp::Adds, program.unary(VectorOp::Muls, v, -1.0f), 1.0f); };
    Value y = 0;
    switch (relation) {
        case Relation::Greater: y = greater(in[0], in[1]); break;
        case Relation::Less: y = greater(in[1], in[0]); break;
        case Relation::GreaterEqual: y = oneMinus(greater(in[1], in[0])); break;
        case Relation::NotEqual: y = program.binary(VectorOp::Add, greater(in[0], in[1]), greater(in[1], in[0])); break;
        case Relation::Equal:
            y = oneMinus(program.binary(VectorOp::Add, greater(in[0], in[1]), greater(in[1], in[0])));
            break;
    }
    program.store(y, op.outputs[0]);
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Greater", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerCompare(op, chip, Relation::Greater);
});
ASCENDSIM_REGISTER_KERNEL("Less", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerCompare(op, chip, Relation::Less);
});
ASCENDSIM_REGISTER_KERNEL("GreaterEqual", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerCompare(op, chip, Relation::GreaterEqual);
});
ASCENDSIM_REGISTER_KERNEL("Equal", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerCompare(op, chip, Relation::Equal);
});
ASCENDSIM_REGISTER_KERNEL("NotEqual", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerCompare(op, chip, Relation::NotEqual);
});

}  // namespace ascendsim
