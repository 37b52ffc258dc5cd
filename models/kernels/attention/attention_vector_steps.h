#pragma once
// Vector steps both FlashAttention AIV programs (forward and gradient) share.
#include <cstdint>

#include "models/kernels/program_builder.h"

namespace ascendsim {

inline constexpr float kAttentionNegativeLarge = -3.0e38f;  // finite "−∞": keeps exp(m − m') free of inf − inf
inline constexpr std::uint32_t kAttentionVectorTileScalarCycles = 16;  // [I] per-tile address and loop setup

// For each of `rows` fp32 rows (`strideBytes` apart) at `base` and each 64-column chunk of the
// first `cols`: row ∘= the row's value in `blocks` (one 32 B broadcast block per row, read with
// block stride 0).
void emitAttentionRowBroadcast(ProgramBuilder& b, VectorOp op, std::uint64_t base, std::uint32_t rows, std::uint32_t cols,
                               std::uint64_t strideBytes, std::uint64_t blocks);
// The same out of place: dst row = src row ∘ the row's value (dst and src share the row stride).
void emitAttentionRowBroadcast(ProgramBuilder& b, VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint32_t rows,
                               std::uint32_t cols, std::uint64_t strideBytes, std::uint64_t blocks);

// Expands `rows` contiguous fp32 values at `values` into one 32 B block per row at `blocks` (the
// operand emitAttentionRowBroadcast reads): vbrcb, 8 rows per repeat.
void emitAttentionRowsToBlocks(ProgramBuilder& b, std::uint64_t values, std::uint32_t rows, std::uint64_t blocks);

// Reduces each of `rows` fp32 rows (`strideBytes` apart, first `cols` columns) at `base` to one
// value in `dst` (contiguous), as CANN's softmax does with block reductions: the 64-column halves
// fold into `scratch` (rows × 256 B) with `fold` (Max or Add), vcgmax/vcgadd turns each row's 64
// values into 8 (→ `partial`, rows × 32 B), and a second block reduction turns 8 rows' 8 partials
// per repeat into 8 row results. Rows that are not 64 wide after folding end with one whole-row
// reduction per row instead (vcmax/vcadd).
void emitAttentionRowReduce(ProgramBuilder& b, VectorOp fold, std::uint64_t base, std::uint32_t rows, std::uint32_t cols,
                            std::uint64_t strideBytes, std::uint64_t scratch, std::uint64_t partial, std::uint64_t dst);

}  // namespace ascendsim
