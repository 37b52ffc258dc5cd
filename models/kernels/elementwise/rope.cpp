// RotaryPositionEmbedding and RotaryPositionEmbeddingGrad (docs/op-catalog.md, "Ops of the LLM
// samples"): torch_npu's npu_rotary_mul in the rotate-half mode, on any layout whose cos/sin
// broadcast over x ([S,B,N,D] with cos [S,B,1,D] in the MindSpeed sample). With x = [x1 | x2]
// (halves of D) and rotate_half(x) = [−x2 | x1]:
//   y  = x·cos + rotate_half(x)·sin:   y1 = x1·c1 − x2·s1,   y2 = x2·c2 + x1·s2
//   dx = dy·cos + rotate_halfᵀ(dy·sin): dx1 = g1·c1 + g2·s2,  dx2 = g2·c2 − g1·s1
// Each output row half is an elementwise stream over [rows, D/2] reading strided halves of x,
// cos and sin (a cos row is reused by the heads it is broadcast over) and writing its half of
// the output row. Computed in fp32. dcos/dsin outputs (when the op declares them) are not
// written: MindSpeed does not request them (the sample's extra outputs are empty).
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

using Value = ElementwiseProgram::Value;

struct HalfRows {
    std::vector<std::int64_t> outerDims;            // x's dims but the last, size-1 dims dropped
    std::vector<std::vector<std::int64_t>> strides;  // per operand (x, cos, sin): element strides
    std::int64_t half = 0;
};

// x [.., D] and tables broadcastable to it (each dim equal or 1).
HalfRows halfRows(const OpInstance& op) {
    const TensorInfo& x = op.inputs[0];
    if (!isFloat(x.dtype) || x.shape.empty()) throwLoweringError(op, "x must be a float tensor of rank ≥ 1");
    const std::int64_t d = x.shape.back();
    if (d % 2 != 0) throwLoweringError(op, "the last dim of x must be even");
    HalfRows h;
    h.half = d / 2;
    h.strides.resize(3);
    for (std::size_t t = 1; t < 3; ++t) {
        const TensorInfo& table = op.inputs[t];
        if (table.shape.size() > x.shape.size() || table.shape.empty() || table.shape.back() != d)
            throwLoweringError(op, "cos and sin must broadcast to x with the same last dim");
    }
    const std::size_t rank = x.shape.size();
    std::vector<std::int64_t> running(3, d);
    for (std::size_t i = rank - 1; i-- > 0;) {
        const std::int64_t size = x.shape[i];
        std::vector<std::int64_t> dimStrides(3, 0);
        for (std::size_t t = 0; t < 3; ++t) {
            const auto& shape = op.inputs[t].shape;
            const std::size_t offset = rank - shape.size();
            const std::int64_t tableSize = i >= offset ? shape[i - offset] : 1;
            if (tableSize != size && tableSize != 1)
                throwLoweringError(op, "cos and sin must broadcast to x (dim " + std::to_string(i) + ")");
            dimStrides[t] = tableSize == 1 ? 0 : running[t];
            running[t] *= tableSize;
        }
        if (size == 1) continue;
        h.outerDims.insert(h.outerDims.begin(), size);
        for (std::size_t t = 0; t < 3; ++t) h.strides[t].insert(h.strides[t].begin(), dimStrides[t]);
    }
    return h;
}

TensorInfo secondHalf(TensorInfo t, std::int64_t half) {
    t.deviceAddr += static_cast<std::uint64_t>(half) * bytesOf(t.dtype);
    return t;
}

std::vector<LoweredKernel> lowerRope(const OpInstance& op, const ChipConfig& chip, bool gradient) {
    requireOperands(op, 3, 1);
    const HalfRows h = halfRows(op);
    const TensorInfo& x = op.inputs[0];
    if (op.outputs[0].elementCount() != x.elementCount()) throwLoweringError(op, "the output must have x's shape");
    ElementwiseProgram p(op, vectorComputeType(op, x.dtype), h.outerDims, h.half);
    const Value x1 = p.elements(x, h.strides[0]), x2 = p.elements(secondHalf(x, h.half), h.strides[0]);
    const Value c1 = p.elements(op.inputs[1], h.strides[1]);
    const Value c2 = p.elements(secondHalf(op.inputs[1], h.half), h.strides[1]);
    const Value s1 = p.elements(op.inputs[2], h.strides[2]);
    const Value s2 = p.elements(secondHalf(op.inputs[2], h.half), h.strides[2]);
    auto mul = [&p](Value a, Value b) { return p.binary(VectorOp::Mul, a, b); };
    Value first = 0, second = 0;
    if (!gradient) {
        first = p.binary(VectorOp::Sub, mul(x1, c1), mul(x2, s1));
        second = p.binary(VectorOp::Add, mul(x2, c2), mul(x1, s2));
    } else {
        first = p.binary(VectorOp::Add, mul(x1, c1), mul(x2, s2));
        second = p.binary(VectorOp::Sub, mul(x2, c2), mul(x1, s1));
    }
    const auto pitch = static_cast<std::uint64_t>(2 * h.half);
    p.store(first, op.outputs[0], pitch);
    p.store(second, secondHalf(op.outputs[0], h.half), pitch);
    return {p.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("RotaryPositionEmbedding", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerRope(op, chip, false);
});
ASCENDSIM_REGISTER_KERNEL("RotaryPositionEmbeddingGrad", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerRope(op, chip, true);
});

}  // namespace ascendsim
