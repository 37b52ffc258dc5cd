#include "sim/replay/run/producer_inputs.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string>

#include "sim/replay/run/inplace_kernels.h"
#include "sim/replay/run/tensor_identity.h"

namespace ascendsim {

namespace {

std::uint64_t sumOf(const std::vector<std::uint64_t>& values) {
    std::uint64_t total = 0;
    for (std::uint64_t v : values) total += v;
    return total;
}

// The window walk both rules share: for each row, each of its tensors on `side` (inputs of the
// row, or its outputs) is looked up among the tensors the kProducerWindow rows before it on its
// stream left (`wrote`: their outputs; otherwise their inputs and outputs); the newest such row
// decides, under the capacity test.
std::vector<std::vector<std::size_t>> matchWindow(const RealProfile& profile, std::uint64_t l2Bytes, bool outputsOfRow,
                                                  bool wroteOnly, const std::vector<bool>& rowCounts) {
    const std::size_t rows = profile.kernels.size();
    std::vector<std::vector<std::size_t>> matched(rows);
    std::vector<std::vector<std::uint64_t>> sideBytes(rows);
    std::vector<std::uint64_t> movedBefore(rows + 1, 0);  // bytes moved by rows [0, i)
    for (std::size_t i = 0; i < rows; ++i) {
        const auto inputs = tensorBytesOfSide(profile.kernels[i], true);
        const auto outputs = tensorBytesOfSide(profile.kernels[i], false);
        sideBytes[i] = outputsOfRow ? outputs : inputs;
        movedBefore[i + 1] = movedBefore[i] + sumOf(inputs) + sumOf(outputs);
    }
    struct Left {
        std::size_t row;
        std::vector<TensorKey> tensors;
    };
    std::map<std::string, std::deque<Left>> window;  // per stream, newest last
    for (std::size_t i = 0; i < rows; ++i) {
        const RealKernel& k = profile.kernels[i];
        auto& recent = window[k.stream];
        const auto inputs = inputKeys(k);
        const auto outputs = outputKeys(k);
        const auto& mine = outputsOfRow ? outputs : inputs;
        for (std::size_t j = 0; rowCounts[i] && j < mine.size(); ++j) {
            if (std::get<0>(mine[j]).empty()) continue;
            for (auto w = recent.rbegin(); w != recent.rend(); ++w) {
                if (std::find(w->tensors.begin(), w->tensors.end(), mine[j]) == w->tensors.end()) continue;
                // The newest row decides: was the tensor pushed out of L2 since it touched it?
                const std::uint64_t since = movedBefore[i] - movedBefore[w->row + 1];
                const std::uint64_t own = j < sideBytes[i].size() ? sideBytes[i][j] : 0;
                if (l2Bytes == 0 || since + own <= l2Bytes) matched[i].push_back(j);
                break;
            }
        }
        Left left{i, outputs};
        if (!wroteOnly) left.tensors.insert(left.tensors.end(), inputs.begin(), inputs.end());
        recent.push_back(std::move(left));
        if (recent.size() > kProducerWindow) recent.pop_front();
    }
    return matched;
}

}  // namespace

std::vector<std::vector<std::size_t>> producedInputs(const RealProfile& profile, std::uint64_t l2Bytes) {
    return matchWindow(profile, l2Bytes, false, true, std::vector<bool>(profile.kernels.size(), true));
}

std::vector<std::vector<std::size_t>> residentCopyTargets(const RealProfile& profile, std::uint64_t l2Bytes) {
    std::vector<bool> copies(profile.kernels.size());
    for (std::size_t i = 0; i < copies.size(); ++i) copies[i] = isCopyIntoExisting(profile.kernels[i]);
    return matchWindow(profile, l2Bytes, true, false, copies);
}

}  // namespace ascendsim
