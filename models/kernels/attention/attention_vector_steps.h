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

}  // namespace ascendsim
