#pragma once
// Row-block swap: input rows [B][A][C] (each `rowBytes` long) → output rows [B][C][A], the form of
// ND ↔ FRACTAL_NZ (rows of one 16-element fractal row). Used when a row is shorter than an L2
// line: moving the rows one by one from their strided input places (the row-reorder pass of
// transpose.cpp) reads every line once per row it holds, 16× the bytes for 32 B rows, while the
// real kernels stream at HBM speed. A tile is kA consecutive A rows × jC consecutive C rows:
// MTE2 loads it as kA bursts of jC rows (contiguous in GM), and MTE3 stores each of its jC
// columns as one burst of kA rows (contiguous in GM), reading the UB with a jC-row stride
// (DataCopy's source stride) — no vector step. The 910A's TBE ND ↔ FRACTAL_NZ kernels instead copy
// the tile into its columns on the vector pipe and store them with one move (rearrangeInUb).
#include <cstdint>
#include <optional>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

struct RowBlockSwap {
    std::uint64_t batch = 1, a = 1, c = 1, rowBytes = 0;
    // Extents of A and C in the input rows and of A in the output rows when they are padded beyond
    // the a × c rows moved (0 = a or c): FRACTAL_NZ holds M rounded up to 16. Input padding is not
    // read; the output's padding rows are written with zeros.
    std::uint64_t aIn = 0, cIn = 0, aOut = 0;
    std::uint64_t x = 0, y = 0;  // GM addresses, or workspace offsets when the flags say so
    bool xInWorkspace = false, yInWorkspace = false;
    // TBE's nd_2_nz / nz_2_nd form (fractalNzKernelRearrangesInUb): the loaded tile is copied into
    // its columns by vadds and the columns leave in one move; one loaded and one column buffer.
    bool rearrangeInUb = false;
};

// Whether the chip's CANN ND ↔ FRACTAL_NZ TransData rearranges its tiles in UB (the 910A's TBE
// kernels; evidence in transpose_row_blocks.cpp).
bool fractalNzKernelRearrangesInUb(const ChipConfig& chip);

// The kernel, or nothing when the rows are long enough for the row-reorder pass (rowBytes ≥ the
// chip's L2 line) or not whole 32 B blocks (DataCopy's unit).
std::optional<LoweredKernel> lowerRowBlockSwap(const OpInstance& op, const ChipConfig& chip,
                                               const RowBlockSwap& swap, std::uint64_t workspaceBytes);

}  // namespace ascendsim
