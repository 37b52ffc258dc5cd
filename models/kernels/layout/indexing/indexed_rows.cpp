#include "models/kernels/layout/indexing/indexed_rows.h"

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

namespace {
// Scalar cycles per row: read the index, multiply-add the address, issue the copy (assumed: a
// handful of scalar instructions).
constexpr std::uint32_t kScalarCyclesPerRow = 4;
}  // namespace

IndexedRowsGeometry indexedRowsGeometry(const OpInstance& op, const TensorInfo& data, const TensorInfo& indices) {
    if (indices.dtype != DataType::Int32 && indices.dtype != DataType::Int64)
        throwLoweringError(op, "indices must be int32 or int64");
    const IndexedRowsView view = indexedRowsView(op, data.shape, op.intAttr("axis", 0));
    IndexedRowsGeometry g;
    g.dtype = data.dtype;
    g.rows = view.rows;
    g.inner = view.inner;
    g.rowBytes = view.inner * bytesOf(data.dtype);
    g.rowPitch = alignUp(g.rowBytes, kUbBlockBytes);
    g.indexCount = static_cast<std::uint64_t>(indices.elementCount());
    g.accesses = view.outer * g.indexCount;
    g.indexBytes = bytesOf(indices.dtype);
    return g;
}

Instruction scalarIndexReads(std::uint64_t rows, std::uint64_t indexBytes) {
    return Instruction::scalar(
        ScalarWork{.cycles = static_cast<std::uint32_t>(rows * kScalarCyclesPerRow),
                   .loads = static_cast<std::uint16_t>(rows),
                   .memory = MemSpace::UB,
                   .bytesRead = static_cast<std::uint32_t>(rows * indexBytes)});
}

Instruction indexedRowMove(const IndexedRowMove& r) {
    DataMove m{.src = r.toUb ? MemSpace::GM : MemSpace::UB, .dst = r.toUb ? MemSpace::UB : MemSpace::GM,
               .srcType = r.dtype, .dstType = r.dtype};
    m.srcAddr = r.toUb ? r.gm : r.ub;
    m.dstAddr = r.toUb ? r.ub : r.gm;
    m.burstBytes = static_cast<std::uint32_t>(r.rowBytes);
    m.atomicAdd = r.atomicAdd;
    m.indexAddr = r.indexAddr;
    m.indexBytes = static_cast<std::uint8_t>(r.indexBytes);
    m.indexedRowBytes = r.rowBytes;
    m.indexedRows = r.rows;
    m.indexDestination = !r.toUb;
    return Instruction::move(m);
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
