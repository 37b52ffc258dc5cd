#include "sim/replay/run/producer_inputs.h"

#include <algorithm>
#include <deque>
#include <exception>
#include <map>
#include <string>
#include <tuple>

#include "sim/replay/input/real_tensors.h"

namespace ascendsim {

namespace {

using TensorKey = std::tuple<std::string, std::string, std::string>;  // shape, dtype, format cells

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

// The tensors of one side as keys; a scalar or absent tensor gets no key (empty shape).
std::vector<TensorKey> keysOf(const std::string& shapes, const std::string& dtypes, const std::string& formats) {
    const auto s = cellsOf(shapes), d = cellsOf(dtypes), f = cellsOf(formats);
    std::vector<TensorKey> keys;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const std::string dtype = i < d.size() ? d[i] : "";
        const bool absent = s[i].empty() || dtype == "DT_UNDEFINED" || dtype == "UNDEFINED";
        keys.emplace_back(absent ? "" : s[i], dtype, i < f.size() ? f[i] : "");
    }
    return keys;
}

// Bytes of each recorded tensor of one side; 0 where the simulator has no dtype for it (the
// tensor still moves, but its size is unknown: counted as nothing).
std::vector<std::uint64_t> bytesOfSide(const RealKernel& k, bool inputs) {
    std::vector<std::uint64_t> bytes;
    try {
        for (const RealTensor& t : inputs ? realInputs(k) : realOutputs(k)) bytes.push_back(tensorBytes(t));
    } catch (const std::exception&) {
        bytes.clear();
    }
    return bytes;
}

std::uint64_t sumOf(const std::vector<std::uint64_t>& values) {
    std::uint64_t total = 0;
    for (std::uint64_t v : values) total += v;
    return total;
}

}  // namespace

std::vector<std::vector<std::size_t>> producedInputs(const RealProfile& profile, std::uint64_t l2Bytes) {
    const std::size_t rows = profile.kernels.size();
    std::vector<std::vector<std::size_t>> produced(rows);
    std::vector<std::vector<std::uint64_t>> inputBytes(rows);
    std::vector<std::uint64_t> movedBefore(rows + 1, 0);  // bytes moved by rows [0, i)
    for (std::size_t i = 0; i < rows; ++i) {
        inputBytes[i] = bytesOfSide(profile.kernels[i], true);
        movedBefore[i + 1] = movedBefore[i] + sumOf(inputBytes[i]) + sumOf(bytesOfSide(profile.kernels[i], false));
    }
    struct Written {
        std::size_t row;
        std::vector<TensorKey> outputs;
    };
    std::map<std::string, std::deque<Written>> lastOutputs;  // per stream, newest last
    for (std::size_t i = 0; i < rows; ++i) {
        const RealKernel& k = profile.kernels[i];
        auto& window = lastOutputs[k.stream];
        const auto inputs = keysOf(k.inputShapes, k.inputDtypes, k.inputFormats);
        for (std::size_t j = 0; j < inputs.size(); ++j) {
            if (std::get<0>(inputs[j]).empty()) continue;
            for (auto w = window.rbegin(); w != window.rend(); ++w) {
                if (std::find(w->outputs.begin(), w->outputs.end(), inputs[j]) == w->outputs.end()) continue;
                // The newest writer decides: was the tensor pushed out of L2 since it wrote it?
                const std::uint64_t since = movedBefore[i] - movedBefore[w->row + 1];
                const std::uint64_t own = j < inputBytes[i].size() ? inputBytes[i][j] : 0;
                if (l2Bytes == 0 || since + own <= l2Bytes) produced[i].push_back(j);
                break;
            }
        }
        window.push_back({i, keysOf(k.outputShapes, k.outputDtypes, k.outputFormats)});
        if (window.size() > kProducerWindow) window.pop_front();
    }
    return produced;
}

}  // namespace ascendsim
