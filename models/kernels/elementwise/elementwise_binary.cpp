// Binary arithmetic with numpy broadcasting (Add, Sub, Mul, RealDiv) and TensorMove
// (docs/op-catalog.md, vector ops).
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/elementwise/int64_elementwise.h"
#include "models/kernels/tiling/leading_reads.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

DataType promotedComputeType(const OpInstance& op, DataType a, DataType b) {
    if (a == b) return vectorComputeType(op, a);
    // fp32 with anything, and fp16 with bf16 (torch's promotion), compute in fp32.
    return DataType::Fp32;
}

std::vector<LoweredKernel> lowerBinary(const OpInstance& op, const ChipConfig& chip, VectorOp vectorOp) {
    requireOperands(op, 2, 1);
    if (isInt64Elementwise(op)) return lowerInt64Elementwise(op, chip);
    const TensorInfo& x1 = op.inputs[0];
    const TensorInfo& x2 = op.inputs[1];
    if (x1.dtype != x2.dtype && !(isFloat(x1.dtype) && isFloat(x2.dtype)))
        throwLoweringError(op, "x1 and x2 must have the same dtype (or both be float)");
    if (vectorOp == VectorOp::Div && !isFloat(x1.dtype)) throwLoweringError(op, "RealDiv needs a float dtype");
    const auto outShape = broadcastShape(op, {x1.shape, x2.shape});
    const BroadcastView view = broadcastView(op, outShape, {x1.shape, x2.shape});
    // Mixed float inputs (the fp32 main-grad += bf16 grad Adds of the Qwen3 sample) compute in
    // the promoted type: the narrower input is cast on the vector unit after its load.
    const DataType computeType = promotedComputeType(op, x1.dtype, x2.dtype);
    ElementwiseProgram program(op, computeType, view.outerDims, view.rowLength);
    const auto in = loadBroadcastInputs(program, view, op.inputs);
    program.store(program.binary(vectorOp, in[0], in[1]), op.outputs[0]);
    return {program.lower(chip)};
}

constexpr std::uint64_t kTensorMoveTilingBytes = 32;
constexpr std::uint32_t kTensorMoveTilingWords = 4;

std::vector<LoweredKernel> lowerTensorMove(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    if (op.outputs[0].dtype != x.dtype) throwLoweringError(op, "y must have x's dtype");
    vectorComputeType(op, x.dtype);  // rejects dtypes the kernel has no form for
    // GM → UB → GM by MTE2 and MTE3 alone (ElementwisePlan::movesOnly), one tile at a time: the
    // real copies keep MTE2 + MTE3 busy ≈ 1.0 of the kernel, load and store never overlapping
    // (Qwen3 [77791232] 0.555 + 0.444, AlexNet [4096,9216] 0.602 + 0.392; docs/fidelity.md §66).
    ElementwiseProgram program(op, x.dtype, {}, x.elementCount());
    program.useOneBuffer();
    program.store(program.elements(x, {}), op.outputs[0]);
    LoweredKernel kernel = program.lower(chip);
    // CANN's TensorMove (tbe/impl/dynamic/tensor_move.py, CANN 8.1) is a dynamic TIK kernel: every
    // block first moves its tiling (TILING_ARG_NUM = 4 int64, one 32 B block) GM → UB and reads
    // the four words with set_as before it can size its share (§61's leading reads).
    prependLeadingReads(kernel, chip, {{.bytes = kTensorMoveTilingBytes, .scalarWords = kTensorMoveTilingWords}});
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Add", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerBinary(op, chip, VectorOp::Add);
});
ASCENDSIM_REGISTER_KERNEL("Sub", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerBinary(op, chip, VectorOp::Sub);
});
ASCENDSIM_REGISTER_KERNEL("Mul", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerBinary(op, chip, VectorOp::Mul);
});
ASCENDSIM_REGISTER_KERNEL("RealDiv", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerBinary(op, chip, VectorOp::Div);
});
ASCENDSIM_REGISTER_KERNEL("TensorMove", lowerTensorMove);

}  // namespace ascendsim
