#pragma once
// Kernels that work on whole rows of a [rows, L] view (softmax, layer/RMS norm, cross-entropy,
// reductions over trailing axes): each tile loads R complete rows (UB rows padded to 32 B),
// casts them to fp32, runs op-specific vector code and stores [rows, L] and/or per-row results.
// Rows are split over blocks; a row must fit in UB.
#include <cstdint>
#include <functional>
#include <vector>

#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

// What the op-specific code of one tile may use. All buffers are fp32; "rows" buffers hold
// R rows of `pitch` elements, "values" buffers R elements, "vectors" one row of `pitch`.
class RowTile {
public:
    explicit RowTile(std::vector<Instruction>& out) : code(out) {}

    std::vector<Instruction>& code;
    std::uint32_t rows = 0;          // R in this tile
    std::uint64_t length = 0;        // L
    std::uint64_t pitch = 0;         // padded row length in elements
    std::vector<std::uint64_t> inputs;         // row inputs, fp32
    std::vector<std::uint64_t> vectors;        // once-loaded [L] inputs, fp32
    std::vector<std::uint64_t> outputs;        // row outputs, fp32 (written by the op code)
    std::vector<std::uint64_t> valueOutputs;   // per-row outputs, fp32
    std::vector<std::uint64_t> temps;          // rows temporaries
    std::vector<std::uint64_t> valueTemps;     // per-row temporaries
    std::uint64_t blocks = 0;                  // R expanded blocks
    std::uint64_t table = 0;                   // Gather offsets for the expansion
    std::uint64_t scratch = 0;                 // reduction partials of one row

    std::uint64_t count() const { return rows * pitch; }
    // dst = a op b over all R·pitch elements (b ignored for unary/scalar ops).
    void flat(VectorOp op, std::uint64_t dst, std::uint64_t a, std::uint64_t b = 0, float scalar = 0.0f);
    // Per-row values: dst = a op b over R elements.
    void values(VectorOp op, std::uint64_t dst, std::uint64_t a, std::uint64_t b = 0, float scalar = 0.0f);
    // values[r] = reduce(row r of src over L elements).
    void reduce(VectorOp op, std::uint64_t src, std::uint64_t dstValues);
    // dst row r = src row r op values[r] (or values[r] op src row r when `valuesFirst`).
    void withValues(VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t values, bool valuesFirst = false);
    // dst row r = src row r op vector (the same [L] row for every r).
    void withVector(VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t vector);
    // A unary/scalar op on `elements` elements of every row, from src (row-strided, 32 B aligned)
    // to dst (row-strided): a slice of each row.
    void slice(VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t elements, float scalar = 0.0f);
};

struct RowKernelSpec {
    std::uint64_t rows = 0;
    std::uint64_t length = 0;
    std::vector<TensorInfo> rowInputs;      // [rows, L], contiguous
    // Per row input (optional): the input has only `period` rows and row r reads row r % period
    // (e.g. a [S, D] position table shared by every batch and head). 0 = one row per row.
    std::vector<std::uint64_t> rowInputPeriods;
    std::vector<TensorInfo> vectorInputs;   // [L], loaded once per block
    std::vector<TensorInfo> rowOutputs;     // [rows, L]
    std::vector<TensorInfo> valueOutputs;   // [rows]
    std::uint32_t temps = 0;
    std::uint32_t valueTemps = 0;
    // TQue depth of the staged inputs and outputs: 2 (ping-pong, a tile's load overlaps the
    // previous tile's compute) or 1 (the kernel keeps one buffer per queue, as CANN's RmsNorm does
    // with BUFFER_NUM = 1: a tile loads once the previous tile's compute is done and computes once
    // its store is done; the freed UB holds more rows per tile).
    std::uint32_t buffers = 2;
    std::function<void(RowTile&)> compute;
};

LoweredKernel lowerRowKernel(const OpInstance& op, const ChipConfig& chip, RowKernelSpec spec);
// Whether one row of `spec` fits in UB with its buffers (lowerRowKernel refuses it otherwise).
bool rowKernelFits(const ChipConfig& chip, const RowKernelSpec& spec);

}  // namespace ascendsim
