#include "sim/replay/run/tensor_identity.h"

#include <algorithm>
#include <exception>

#include "sim/replay/input/real_tensors.h"

namespace ascendsim {

namespace {

std::vector<std::string> cellsOf(const std::string& text) {
    std::vector<std::string> cells;
    if (text.empty() || text == "N/A") return cells;
    std::size_t start = 0;
    while (true) {
        const std::size_t semi = text.find(';', start);
        cells.push_back(text.substr(start, semi == std::string::npos ? std::string::npos : semi - start));
        if (semi == std::string::npos) return cells;
        start = semi + 1;
    }
}

}  // namespace

std::vector<TensorKey> tensorKeys(const std::string& shapes, const std::string& dtypes, const std::string& formats) {
    const auto s = cellsOf(shapes), d = cellsOf(dtypes), f = cellsOf(formats);
    std::vector<TensorKey> keys;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const std::string dtype = i < d.size() ? d[i] : "";
        const bool absent = s[i].empty() || dtype == "DT_UNDEFINED" || dtype == "UNDEFINED";
        keys.emplace_back(absent ? "" : s[i], dtype, matchedFormat(i < f.size() ? f[i] : ""));
    }
    return keys;
}

std::vector<TensorKey> inputKeys(const RealKernel& k) { return tensorKeys(k.inputShapes, k.inputDtypes, k.inputFormats); }

namespace {

std::uint64_t elementsOfShape(const std::string& shape) {
    std::uint64_t elements = 1;
    std::size_t start = 0;
    while (start <= shape.size()) {
        const std::size_t comma = std::min(shape.find(',', start), shape.size());
        const std::string dim = shape.substr(start, comma - start);
        if (dim.empty() || dim.find_first_not_of("0123456789") != std::string::npos) return 0;
        elements *= std::stoull(dim);
        start = comma + 1;
    }
    return elements;
}

}  // namespace

bool outputsRecordedFlat(const std::vector<TensorKey>& inputs, const std::vector<TensorKey>& outputs) {
    if (outputs.size() < 2 || inputs.size() < outputs.size()) return false;
    for (std::size_t j = 0; j < outputs.size(); ++j) {
        const auto& [outShape, outType, outFormat] = outputs[j];
        const auto& [inShape, inType, inFormat] = inputs[j];
        if (outShape.empty() || outShape.find(',') != std::string::npos || outType != inType || outFormat != inFormat ||
            elementsOfShape(outShape) == 0 || elementsOfShape(outShape) != elementsOfShape(inShape))
            return false;
    }
    return true;
}

std::vector<TensorKey> outputKeys(const RealKernel& k) {
    std::vector<TensorKey> outputs = tensorKeys(k.outputShapes, k.outputDtypes, k.outputFormats);
    const std::vector<TensorKey> inputs = inputKeys(k);
    if (!outputsRecordedFlat(inputs, outputs)) return outputs;
    for (std::size_t j = 0; j < outputs.size(); ++j) std::get<0>(outputs[j]) = std::get<0>(inputs[j]);
    return outputs;
}

std::vector<std::uint64_t> tensorBytesOfSide(const RealKernel& k, bool inputs) {
    std::vector<std::uint64_t> bytes;
    try {
        for (const RealTensor& t : inputs ? realInputs(k) : realOutputs(k)) bytes.push_back(tensorBytes(t));
    } catch (const std::exception&) {
        bytes.clear();
    }
    return bytes;
}

std::string matchedFormat(const std::string& formatCell) {
    const bool privateLayout = formatCell.find("FRACTAL") != std::string::npos ||
                               std::any_of(formatCell.begin(), formatCell.end(), [](char c) { return c >= '0' && c <= '9'; });
    return privateLayout || formatCell.empty() ? formatCell : "ND";
}

}  // namespace ascendsim
