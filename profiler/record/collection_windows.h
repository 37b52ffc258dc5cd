#pragma once
// The collection windows of a run: the profiled steps, with a step that starts before (or where)
// the previous window ends merged into it. The device memory samples and the sampled HBM/LLC
// counters both cover exactly these windows.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace ascendsim {

using CollectionWindow = std::pair<std::uint64_t, std::uint64_t>;  // [startNs, endNs]

// Appends [startNs, endNs], merged into the last window when it overlaps or touches it.
inline void addCollectionWindow(std::vector<CollectionWindow>& windows, std::uint64_t startNs, std::uint64_t endNs) {
    if (!windows.empty() && windows.back().second >= startNs) {
        windows.back().second = std::max(windows.back().second, endNs);
        return;
    }
    windows.emplace_back(startNs, endNs);
}

}  // namespace ascendsim
