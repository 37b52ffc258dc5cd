#pragma once
// A small dataflow builder for vector ops that are elementwise over an output viewed as
// [rows, rowLength] (row-major): unary/binary math with numpy broadcasting, casts, batch-norm
// application, optimizer updates. Operands are one of three kinds:
// - Element: one value per output element (a tensor row read at a per-row GM offset, so a
//   broadcast over leading dims is just a repeated row);
// - Row: one value per output row (per-channel parameters), broadcast along the row through a
//   Gather into 32 B blocks read with block stride 0;
// - Scalar: one value for the whole op ([1] tensors, constants), prepared once per block.
// lower() tiles rows (or, for long rows, 256-element granules of a row) over blocks and UB tiles
// and emits a double-buffered program (vector_tiling_stream.h).
#include <cstdint>
#include <memory>
#include <vector>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

struct ElementwisePlan;

class ElementwiseProgram {
public:
    using Value = std::uint32_t;
    enum class Kind : std::uint8_t { Scalar, Row, Element };

    // `computeType` is the dtype the vector unit computes in (inputs of other dtypes are cast).
    ElementwiseProgram(const OpInstance& op, DataType computeType, std::vector<std::int64_t> outerDims,
                       std::int64_t rowLength);
    ~ElementwiseProgram();

    // Element (row, col) of `tensor` is at element offset Σ idx_d·outerStrides[d] + col.
    Value elements(const TensorInfo& tensor, std::vector<std::int64_t> outerStrides);
    // Row value of `tensor` at element offset Σ idx_d·outerStrides[d].
    Value rowValues(const TensorInfo& tensor, std::vector<std::int64_t> outerStrides);
    // Element 0 of `tensor`.
    Value scalar(const TensorInfo& tensor);
    Value constant(float value);

    Value unary(VectorOp op, Value a, float scalarOperand = 0.0f);
    Value binary(VectorOp op, Value a, Value b);
    Kind kindOf(Value v) const;

    // Writes an Element value to `tensor`, dense [rows, rowLength].
    void store(Value v, const TensorInfo& tensor);
    // Writes an Element value to rows `rowPitch` elements apart in `tensor` (≥ rowLength): one
    // part of each row of a wider output (SwiGluGrad's two halves).
    void store(Value v, const TensorInfo& tensor, std::uint64_t rowPitch);

    // Tiles take turns on one UB buffer instead of two: a tile's load waits for the previous
    // tile's store, so a copy never loads while it stores (the 910B's TensorMove, whose real MTE2
    // and MTE3 busy add up to the kernel's time: docs/fidelity.md §66).
    void useOneBuffer();

    LoweredKernel lower(const ChipConfig& chip) const;

private:
    std::shared_ptr<ElementwisePlan> plan_;
    const OpInstance& op_;
};

}  // namespace ascendsim
