#include "models/kernels/elementwise/elementwise_broadcast.h"

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

using Kind = ElementwiseProgram::Kind;

namespace {
std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) text.push_back(',');
        text.append(std::to_string(shape[i]));
    }
    text.push_back(']');
    return text;
}
}  // namespace

std::vector<std::int64_t> broadcastShape(const OpInstance& op, const std::vector<std::vector<std::int64_t>>& shapes) {
    std::size_t rank = 0;
    for (const auto& s : shapes) rank = std::max(rank, s.size());
    std::vector<std::int64_t> out(rank, 1);
    for (const auto& s : shapes) {
        for (std::size_t i = 0; i < s.size(); ++i) {
            auto& o = out[rank - s.size() + i];
            if (s[i] == o || s[i] == 1) continue;
            if (o != 1) throwLoweringError(op, "shapes " + shapeText(shapes[0]) + " and " + shapeText(s) +
                                                   " do not broadcast");
            o = s[i];
        }
    }
    return out;
}

BroadcastView broadcastView(const OpInstance& op, const std::vector<std::int64_t>& outShape,
                            const std::vector<std::vector<std::int64_t>>& inputShapes) {
    const std::size_t rank = outShape.size();
    const std::size_t n = inputShapes.size();
    // Per kept output dim: its size and, per input, its element stride (0 where broadcast).
    std::vector<std::int64_t> dims;
    std::vector<std::vector<std::int64_t>> strides(n);
    std::vector<std::vector<std::int64_t>> fullStrides(n, std::vector<std::int64_t>(rank, 0));
    for (std::size_t i = 0; i < n; ++i) {
        const auto& s = inputShapes[i];
        if (s.size() > rank) throwLoweringError(op, "input rank exceeds output rank");
        std::int64_t stride = 1;
        for (std::size_t k = s.size(); k-- > 0;) {
            const std::size_t d = rank - s.size() + k;
            if (s[k] != outShape[d] && s[k] != 1)
                throwLoweringError(op, "input shape " + shapeText(s) + " does not broadcast to " + shapeText(outShape));
            fullStrides[i][d] = s[k] == 1 ? 0 : stride;
            stride *= s[k];
        }
    }
    for (std::size_t d = 0; d < rank; ++d) {
        if (outShape[d] == 1) continue;
        const bool merge = !dims.empty() && [&] {
            for (std::size_t i = 0; i < n; ++i)
                if ((strides[i].back() == 0) != (fullStrides[i][d] == 0)) return false;
            return true;
        }();
        if (merge) {
            dims.back() *= outShape[d];
            for (std::size_t i = 0; i < n; ++i) strides[i].back() = fullStrides[i][d];
        } else {
            dims.push_back(outShape[d]);
            for (std::size_t i = 0; i < n; ++i) strides[i].push_back(fullStrides[i][d]);
        }
    }
    BroadcastView view;
    if (dims.empty()) {
        dims.push_back(1);
        for (auto& s : strides) s.push_back(1);
    }
    view.rowLength = dims.back();
    view.outerDims.assign(dims.begin(), dims.end() - 1);
    bool someoneCoversTheRow = false;
    for (std::size_t i = 0; i < n; ++i) {
        BroadcastOperand operand;
        const bool rowBroadcast = strides[i].back() == 0 && view.rowLength > 1;
        operand.outerStrides.assign(strides[i].begin(), strides[i].end() - 1);
        bool allBroadcast = rowBroadcast;
        for (auto s : operand.outerStrides) allBroadcast &= s == 0;
        operand.kind = !rowBroadcast ? Kind::Element : allBroadcast ? Kind::Scalar : Kind::Row;
        someoneCoversTheRow |= operand.kind == Kind::Element;
        view.operands.push_back(std::move(operand));
    }
    if (!someoneCoversTheRow && n > 0) throwLoweringError(op, "no input spans the output's last dims");
    return view;
}

std::vector<ElementwiseProgram::Value> loadBroadcastInputs(ElementwiseProgram& program, const BroadcastView& view,
                                                           const std::vector<TensorInfo>& inputs) {
    std::vector<ElementwiseProgram::Value> values;
    for (std::size_t i = 0; i < view.operands.size(); ++i) {
        const auto& operand = view.operands[i];
        switch (operand.kind) {
            case Kind::Element: values.push_back(program.elements(inputs[i], operand.outerStrides)); break;
            case Kind::Row: values.push_back(program.rowValues(inputs[i], operand.outerStrides)); break;
            case Kind::Scalar: values.push_back(program.scalar(inputs[i])); break;
        }
    }
    return values;
}

DataType vectorComputeType(const OpInstance& op, DataType dtype) {
    switch (dtype) {
        case DataType::Bf16: return DataType::Fp32;
        case DataType::Int8:
        case DataType::Uint8: return DataType::Fp16;
        case DataType::Hf32: return DataType::Fp32;
        case DataType::Int64:
        case DataType::Bool: throwLoweringError(op, "dtype " + std::string(dataTypeName(dtype)) + " has no vector form");
        default: return dtype;
    }
}

void requireOperands(const OpInstance& op, std::size_t inputs, std::size_t outputs) {
    if (op.inputs.size() < inputs || op.outputs.size() < outputs)
        throwLoweringError(op, "needs " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) +
                                   " outputs, has " + std::to_string(op.inputs.size()) + " and " +
                                   std::to_string(op.outputs.size()));
}

}  // namespace ascendsim
