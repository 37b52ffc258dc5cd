#include "models/kernels/attention/attention_core_split.h"

#include <algorithm>
#include <numeric>

#include "models/kernels/tiling/cube_tiling.h"

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

std::vector<std::uint64_t> attentionGroupTileStarts(std::uint64_t tiles, std::uint32_t groups, bool causal,
                                                    const std::function<std::uint64_t(std::uint64_t)>& kvBlocksOfTile) {
    if (causal) {
        std::vector<std::uint64_t> loads(tiles);
        for (std::uint64_t tile = 0; tile < tiles; ++tile) loads[tile] = kvBlocksOfTile(tile);
        return balancedRunStarts(loads, groups);
    }
    std::vector<std::uint64_t> starts(groups + std::size_t{1}, tiles);
    for (std::uint32_t group = 0; group < groups; ++group) {
        std::uint64_t count = 0;
        blockTileRange(tiles, groups, group, starts[group], count);
    }
    return starts;
}

}  // namespace ascendsim
