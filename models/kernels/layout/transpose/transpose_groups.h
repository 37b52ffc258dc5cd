#pragma once
// The shape of a permutation as the Transpose kernel sees it (transpose.cpp): input dims that stay
// adjacent and in order merged into groups, size-1 dims dropped, and the forms one pass does.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// Group sizes in output order, and the input position of each output group.
struct GroupedPermutation {
    std::vector<std::int64_t> sizes;
    std::vector<std::size_t> order;

    std::int64_t elementCount() const {
        std::int64_t n = 1;
        for (auto s : sizes) n *= s;
        return n;
    }
};

// `shape` permuted by `perm` (LoweringError naming op on a bad perm).
GroupedPermutation groupPermutation(const OpInstance& op, const std::vector<std::int64_t>& shape,
                                    const std::vector<std::int64_t>& perm);

// Groups that follow each other in both orders merged into one (the intermediate of a two-pass
// permutation can hold such a pair: the moved group lands right after its input neighbour).
GroupedPermutation mergeAdjacentGroups(const GroupedPermutation& g);

// The last group stays last: output rows are input rows in another order.
bool keepsLastDim(const std::vector<std::size_t>& order);
// Rows [B][A][C] → [B][C][A] with the last dim kept: the two innermost row groups swap places.
bool swapsTwoRowGroups(const std::vector<std::size_t>& order);
// [B, M, N] → [B, N, M]: the last two groups swap, the others stay in order.
bool isBatched2D(const std::vector<std::size_t>& order);

}  // namespace ascendsim
