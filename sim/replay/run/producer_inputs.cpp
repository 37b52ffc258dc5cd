#include "sim/replay/run/producer_inputs.h"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>

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

}  // namespace

std::vector<std::vector<std::size_t>> producedInputs(const RealProfile& profile) {
    std::vector<std::vector<std::size_t>> produced(profile.kernels.size());
    std::map<std::string, std::deque<std::vector<TensorKey>>> lastOutputs;  // per stream, newest last
    for (std::size_t i = 0; i < profile.kernels.size(); ++i) {
        const RealKernel& k = profile.kernels[i];
        auto& window = lastOutputs[k.stream];
        std::set<TensorKey> recent;
        for (const auto& outputs : window)
            for (const TensorKey& key : outputs)
                if (!std::get<0>(key).empty()) recent.insert(key);
        const auto inputs = keysOf(k.inputShapes, k.inputDtypes, k.inputFormats);
        for (std::size_t j = 0; j < inputs.size(); ++j)
            if (!std::get<0>(inputs[j]).empty() && recent.contains(inputs[j])) produced[i].push_back(j);
        window.push_back(keysOf(k.outputShapes, k.outputDtypes, k.outputFormats));
        if (window.size() > kProducerWindow) window.pop_front();
    }
    return produced;
}

}  // namespace ascendsim
