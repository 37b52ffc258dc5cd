#pragma once
// What GatherV2 and ScatterUpdate share: a tensor viewed as [O, V, E] around the indexed axis, and
// tiles of output/update rows (o, i) that never cross an o, so each tile's indices are one
// contiguous run and its indexed moves address one [V, E] slice.
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"
#include "models/kernels/op_instance.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

struct IndexedRowsView {
    std::uint64_t outer = 1;  // O: product of the dims before the axis
    std::uint64_t rows = 0;   // V: the axis
    std::uint64_t inner = 1;  // E: product of the dims after it (elements per row)
};

// The view of `shape` around `axis` (negative counts from the end); LoweringError naming `op`
// when shape is empty or axis is out of range.
IndexedRowsView indexedRowsView(const OpInstance& op, const std::vector<std::int64_t>& shape,
                                std::int64_t axis);

// The row geometry of an indexed tensor (GatherV2's table, ScatterUpdate's var) around the op's
// `axis` attribute, and of its int32/int64 indices: every (o, i) of the O·I view is one access
// of one row of `rowBytes`. The ops' tile layouts extend it.
struct IndexedRowsGeometry {
    DataType dtype = DataType::Fp16;
    std::uint64_t rows = 0;        // V
    std::uint64_t inner = 1;       // E, elements per row
    std::uint64_t rowBytes = 0, rowPitch = 0;  // a row, and its 32 B-aligned slot in UB
    std::uint64_t indexCount = 0;  // I: accesses per o
    std::uint64_t accesses = 0;    // O·I
    std::uint64_t indexBytes = 4;
};

// LoweringError naming `op` for indices that are not int32/int64 or a bad axis.
IndexedRowsGeometry indexedRowsGeometry(const OpInstance& op, const TensorInfo& data, const TensorInfo& indices);

// The scalar unit reading a tile's `rows` indices of `indexBytes` each from UB (one GetValue per
// row) and computing each row's GM address from it.
Instruction scalarIndexReads(std::uint64_t rows, std::uint64_t indexBytes);

// One row of `rowBytes` moved GM→UB from gm + index × rowBytes (toUb) or UB→GM to gm + index ×
// rowBytes, the int32/int64 index read from UB at indexAddr and bounded by `rows` (the indexed
// DataMove of instruction.h); `atomicAdd` makes the GM write accumulate.
struct IndexedRowMove {
    bool toUb = true;
    DataType dtype = DataType::Fp32;
    std::uint64_t gm = 0, ub = 0, rowBytes = 0, indexAddr = 0, indexBytes = 4, rows = 0;
    bool atomicAdd = false;
};
Instruction indexedRowMove(const IndexedRowMove& m);

// The first row of each tile of `rows` (rows of the O·I view, I = indexCount), tiles of at most
// `rowsPerTile` rows cut at every o, followed by rows.end.
std::vector<std::uint64_t> indexedTileStarts(UnitRange rows, std::uint64_t rowsPerTile,
                                             std::uint64_t indexCount);

}  // namespace ascendsim
