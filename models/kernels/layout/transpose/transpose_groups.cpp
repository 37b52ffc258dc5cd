#include "models/kernels/layout/transpose/transpose_groups.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

GroupedPermutation groupPermutation(const OpInstance& op, const std::vector<std::int64_t>& shape,
                                    const std::vector<std::int64_t>& perm) {
    const auto rank = shape.size();
    if (perm.size() != rank) throwLoweringError(op, "attribute perm must list every dim");
    std::vector<std::int64_t> kept;  // input dims in output order, size > 1
    for (auto d : perm) {
        if (d < 0 || static_cast<std::size_t>(d) >= rank)
            throwLoweringError(op, "perm entry out of range");
        if (shape[static_cast<std::size_t>(d)] > 1) kept.push_back(d);
    }
    std::vector<std::vector<std::int64_t>> groups;  // runs of consecutive input dims, output order
    for (auto d : kept) {
        if (!groups.empty() && groups.back().back() + 1 == d)
            groups.back().push_back(d);
        else
            groups.push_back({d});
    }
    GroupedPermutation g;
    for (const auto& group : groups) {
        g.order.push_back(static_cast<std::size_t>(
            std::count_if(groups.begin(), groups.end(),
                          [&](const auto& o) { return o.front() < group.front(); })));
        g.sizes.push_back(1);
        for (auto d : group) g.sizes.back() *= shape[static_cast<std::size_t>(d)];
    }
    return g;
}

GroupedPermutation mergeAdjacentGroups(const GroupedPermutation& g) {
    GroupedPermutation merged;
    std::vector<std::size_t> firstPosition;  // input position of each merged group's first part
    for (std::size_t o = 0; o < g.order.size(); ++o) {
        if (o > 0 && g.order[o] == g.order[o - 1] + 1) {
            merged.sizes.back() *= g.sizes[o];
            continue;
        }
        merged.sizes.push_back(g.sizes[o]);
        firstPosition.push_back(g.order[o]);
    }
    for (auto position : firstPosition)  // renumber by rank among the merged groups
        merged.order.push_back(static_cast<std::size_t>(
            std::count_if(firstPosition.begin(), firstPosition.end(), [&](std::size_t p) { return p < position; })));
    return merged;
}

bool keepsLastDim(const std::vector<std::size_t>& order) {
    return order.size() <= 1 || order.back() == order.size() - 1;
}

bool swapsTwoRowGroups(const std::vector<std::size_t>& order) {
    const std::size_t count = order.size();
    if (count < 3 || order[count - 1] != count - 1 || order[count - 2] != count - 3 || order[count - 3] != count - 2)
        return false;
    for (std::size_t o = 0; o + 3 < count; ++o)
        if (order[o] != o) return false;
    return true;
}

bool isBatched2D(const std::vector<std::size_t>& order) {
    const std::size_t count = order.size();
    return count >= 2 && order[count - 1] == count - 2 && order[count - 2] == count - 1 &&
           std::is_sorted(order.begin(), order.end() - 2);
}

}  // namespace ascendsim
