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

std::vector<TensorKey> outputKeys(const RealKernel& k) {
    return tensorKeys(k.outputShapes, k.outputDtypes, k.outputFormats);
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
