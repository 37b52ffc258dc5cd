#include "models/kernels/attention/attention_core_split.h"

#include <algorithm>
#include <numeric>

namespace ascendsim {

namespace {
// Runs a greedy packing with at most `cap` load per run needs; fills `starts` when given.
std::uint64_t greedyRuns(const std::vector<std::uint64_t>& loads, std::uint64_t cap, std::vector<std::uint64_t>* starts) {
    std::uint64_t runs = 0, load = 0;
    for (std::uint64_t i = 0; i < loads.size(); ++i) {
        if (runs == 0 || load + loads[i] > cap) {
            ++runs;
            load = 0;
            if (starts != nullptr) starts->push_back(i);
        }
        load += loads[i];
    }
    return runs;
}
}  // namespace

std::vector<std::uint64_t> balancedRunStarts(const std::vector<std::uint64_t>& loads, std::uint32_t parts) {
    const auto units = static_cast<std::uint64_t>(loads.size());
    std::vector<std::uint64_t> starts;
    if (parts == 0) return {units};
    if (units > 0) {
        // The smallest cap with a packing into `parts` runs lies in [largest unit, total].
        std::uint64_t low = *std::max_element(loads.begin(), loads.end());
        std::uint64_t high = std::max(low, std::accumulate(loads.begin(), loads.end(), std::uint64_t{0}));
        while (low < high) {
            const std::uint64_t cap = low + (high - low) / 2;
            if (greedyRuns(loads, cap, nullptr) <= parts) high = cap;
            else low = cap + 1;
        }
        greedyRuns(loads, low, &starts);
    }
    starts.resize(parts, units);
    starts.push_back(units);
    return starts;
}

}  // namespace ascendsim
