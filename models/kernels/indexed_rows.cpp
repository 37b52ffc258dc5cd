#include "models/kernels/indexed_rows.h"

#include <algorithm>

namespace ascendsim {

IndexedRowsView indexedRowsView(const OpInstance& op, const std::vector<std::int64_t>& shape,
                                std::int64_t axis) {
    if (shape.empty()) throwLoweringError(op, "the indexed tensor must have at least one dim");
    const auto rank = static_cast<std::int64_t>(shape.size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) throwLoweringError(op, "axis out of range");
    IndexedRowsView view;
    for (std::int64_t d = 0; d < rank; ++d) {
        const auto size = static_cast<std::uint64_t>(shape[static_cast<std::size_t>(d)]);
        if (d < axis) view.outer *= size;
        if (d == axis) view.rows = size;
        if (d > axis) view.inner *= size;
    }
    return view;
}

std::vector<std::uint64_t> indexedTileStarts(UnitRange rows, std::uint64_t rowsPerTile,
                                             std::uint64_t indexCount) {
    std::vector<std::uint64_t> starts;
    for (std::uint64_t row = rows.begin; row < rows.end;) {
        starts.push_back(row);
        const std::uint64_t nextOuter = (row / indexCount + 1) * indexCount;
        row = std::min({row + rowsPerTile, rows.end, nextOuter});
    }
    starts.push_back(rows.end);
    return starts;
}

}  // namespace ascendsim
