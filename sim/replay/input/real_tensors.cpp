#include "sim/replay/input/real_tensors.h"

#include <algorithm>

#include "sim/engine/device/kernel_naming.h"
#include "sim/workload/workload_limits.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kFractalEdge = 16;

std::vector<std::string> splitList(const std::string& cell) {
    std::vector<std::string> parts;
    if (cell.empty() || cell == "N/A") return parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = cell.find(';', start);
        parts.push_back(cell.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return parts;
}

std::vector<std::int64_t> parseShape(const std::string& text) {
    std::vector<std::int64_t> shape;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find(',', start);
        const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        try {
            std::size_t used = 0;
            shape.push_back(std::stoll(part, &used));
            if (used != part.size()) throw std::invalid_argument(part);
        } catch (const std::exception&) {
            throw UnreplayableKernel("shape '" + text + "' is not a list of integers");
        }
        // An export never records a negative extent; one that says so is corrupt, not a shape.
        if (shape.back() < 0) throw UnreplayableKernel("shape '" + text + "' has a negative dimension");
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return shape;
}

DataType parseCannDtype(const std::string& text) {
    for (std::uint8_t i = 0; i <= static_cast<std::uint8_t>(DataType::Bool); ++i) {
        const auto dtype = static_cast<DataType>(i);
        if (dtype != DataType::Hf32 && opSummaryDtypeName(dtype) == text) return dtype;
    }
    if (text == "BF16" || text == "BFLOAT16") return DataType::Bf16;
    if (text == "UINT16") return DataType::Int16;  // MaxPoolWithArgmax's bit masks: only the bytes matter
    throw UnreplayableKernel("dtype " + text + " has no simulator counterpart");
}

TensorFormat parseCannFormat(std::string text) {
    if (text.starts_with("FORMAT_")) text = text.substr(7);
    if (const auto colon = text.find(':'); colon != std::string::npos) text = text.substr(0, colon);  // NC1HWC0:1
    if (text == "NCL" || text == "NDHWC" || text == "NCDHW" || text.empty()) return TensorFormat::ND;
    TensorFormat format{};
    if (parseTensorFormat(text, format)) return format;
    throw UnreplayableKernel("format " + text + " has no simulator counterpart");
}

std::vector<RealTensor> tensorsOf(const std::string& shapes, const std::string& dtypes, const std::string& formats) {
    const auto shapeCells = splitList(shapes);
    const auto dtypeCells = splitList(dtypes);
    const auto formatCells = splitList(formats);
    // A scalar's shape is empty: "" for one scalar output, so the dtypes say how many there are.
    const std::size_t count = std::max(shapeCells.size(), dtypeCells.size());
    std::vector<RealTensor> tensors;
    for (std::size_t i = 0; i < count; ++i) {
        RealTensor t;
        t.physicalShape = i < shapeCells.size() ? parseShape(shapeCells[i]) : std::vector<std::int64_t>{};
        t.dtypeText = i < dtypeCells.size() ? dtypeCells[i] : "";
        t.formatText = i < formatCells.size() ? formatCells[i] : "ND";
        // An optional input left out is recorded with an empty shape and DT_UNDEFINED.
        t.absent = t.dtypeText == "DT_UNDEFINED" && t.physicalShape.empty();
        t.dtype = t.absent ? DataType::Fp32 : parseCannDtype(t.dtypeText);
        t.format = t.absent ? TensorFormat::ND : parseCannFormat(t.formatText);
        tensors.push_back(std::move(t));
    }
    return tensors;
}

}  // namespace

std::vector<RealTensor> realInputs(const RealKernel& kernel) {
    return tensorsOf(kernel.inputShapes, kernel.inputDtypes, kernel.inputFormats);
}

std::vector<RealTensor> realOutputs(const RealKernel& kernel) {
    return tensorsOf(kernel.outputShapes, kernel.outputDtypes, kernel.outputFormats);
}

std::vector<std::int64_t> logicalShape(const RealTensor& t) {
    const auto& s = t.physicalShape;
    if (s.empty()) return {1};
    if (t.format == TensorFormat::NC1HWC0) {
        if (s.size() != 5) throw UnreplayableKernel("NC1HWC0 shape " + shapeText(s) + " is not 5-D");
        return {s[0], s[1] * s[4], s[2], s[3]};
    }
    if (t.format == TensorFormat::FractalNz) {
        if (s.size() < 4 || s[s.size() - 2] != kFractalEdge || s.back() != kFractalEdge)
            throw UnreplayableKernel("FRACTAL_NZ shape " + shapeText(s) + " does not end in 16,16");
        std::vector<std::int64_t> logical(s.begin(), s.end() - 4);
        logical.push_back(s[s.size() - 3] * kFractalEdge);
        logical.push_back(s[s.size() - 4] * kFractalEdge);
        return logical;
    }
    return s;
}

TensorInfo catalogTensor(const RealTensor& t, const std::string& name, std::vector<std::int64_t> shape) {
    TensorInfo info;
    info.name = name;
    info.shape = std::move(shape);
    info.dtype = t.dtype;
    info.format = t.format;
    return info;
}

TensorInfo catalogTensor(const RealTensor& t, const std::string& name) {
    return catalogTensor(t, name, logicalShape(t));
}

std::uint64_t tensorBytes(const RealTensor& t) {
    if (t.absent) return 0;
    const auto bytes = checkedByteSize(t.physicalShape, t.dtype);
    if (!bytes) throw UnreplayableKernel("tensor of shape " + shapeText(t.physicalShape) + " has more than 2^63 bytes");
    return *bytes;
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string text;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i != 0) text.push_back(',');
        text += std::to_string(shape[i]);
    }
    return text;
}

}  // namespace ascendsim
