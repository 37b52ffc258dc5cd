#pragma once
// numpy broadcasting of several inputs to one output, folded into the [outer dims, row] view of
// ElementwiseProgram: output dims of size 1 are dropped, neighbouring dims in which every input
// is either present or broadcast are merged, and the innermost merged dim becomes the row.
#include <cstdint>
#include <vector>

#include "models/kernels/elementwise/elementwise_program.h"

namespace ascendsim {

struct BroadcastOperand {
    ElementwiseProgram::Kind kind = ElementwiseProgram::Kind::Element;
    std::vector<std::int64_t> outerStrides;  // element strides per outer dim (0 = broadcast)
};

struct BroadcastView {
    std::vector<std::int64_t> outerDims;
    std::int64_t rowLength = 1;
    std::vector<BroadcastOperand> operands;  // one per input, in order
};

// The broadcast result shape of `shapes` (numpy rules); throws LoweringError naming `op`.
std::vector<std::int64_t> broadcastShape(const OpInstance& op, const std::vector<std::vector<std::int64_t>>& shapes);

BroadcastView broadcastView(const OpInstance& op, const std::vector<std::int64_t>& outShape,
                            const std::vector<std::vector<std::int64_t>>& inputShapes);

// Adds every input of the view to `program` as the operand kind the view gives it.
std::vector<ElementwiseProgram::Value> loadBroadcastInputs(ElementwiseProgram& program, const BroadcastView& view,
                                                           const std::vector<TensorInfo>& inputs);

// The dtype the vector unit computes `dtype` in: bf16 → fp32 (no bf16 arithmetic on the 220x
// vector unit), int8/uint8 → fp16 (vadd/vmul have no 8-bit forms; fp16 holds them exactly),
// others as they are. Int64 has no vector form: LoweringError.
DataType vectorComputeType(const OpInstance& op, DataType dtype);

// Checks the op has at least `inputs` inputs and `outputs` outputs.
void requireOperands(const OpInstance& op, std::size_t inputs, std::size_t outputs);

}  // namespace ascendsim
