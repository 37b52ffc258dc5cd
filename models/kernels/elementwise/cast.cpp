// Cast (docs/op-catalog.md): x → y of `dst_type`, through the vector unit's vconv. Float → int
// truncates toward zero and saturates (vector_semantics.h). A bool x is one byte holding 0 or 1
// (torch and CANN store bool as uint8), so it is converted as uint8 (vconv u8 → f16 and on).
#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/elementwise/int64_elementwise.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

std::vector<LoweredKernel> lowerCast(const OpInstance& original, const ChipConfig& chip) {
    requireOperands(original, 1, 1);
    if (isInt64Elementwise(original)) return lowerInt64Elementwise(original, chip);
    OpInstance op = original;
    if (op.inputs[0].dtype == DataType::Bool) op.inputs[0].dtype = DataType::Uint8;
    const TensorInfo& x = op.inputs[0];
    DataType target{};
    const std::string name = op.stringAttr("dst_type", "");
    if (name.empty()) throwLoweringError(op, "attribute dst_type is required");
    if (!parseDataType(name, target)) throwLoweringError(op, "unknown dst_type '" + name + "'");
    if (op.outputs[0].dtype != target)
        throwLoweringError(op, "output dtype " + std::string(dataTypeName(op.outputs[0].dtype)) +
                                   " differs from dst_type " + name);
    vectorComputeType(op, x.dtype);  // rejects dtypes without a vector form
    vectorComputeType(op, target);
    // Computing in the source dtype makes the whole cast one vconv from the loaded tile into the
    // output staging buffer (or a move by MTE2 and MTE3 when the dtypes agree).
    ElementwiseProgram program(op, x.dtype, {}, x.elementCount());
    program.store(program.elements(x, {}), op.outputs[0]);
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Cast", lowerCast);

}  // namespace ascendsim
