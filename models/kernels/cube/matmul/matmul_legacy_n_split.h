#pragma once
// How CANN's legacy MatMulV2 tiling (the TBE cache tiling, ophost/matmul_tiling/cache_tiling.cc:
// GetBlockDim, GetL0FactorsCand; facts read, no code taken; docs/fidelity.md §119) spreads a GEMM
// whose M is one base tile over the cores: m_dim 1 and n_dim the largest factor of N's 16-column
// fractal count no larger than the cores, the split of least A + B load a core (every core reads
// all of A, so fewer, wider N shares load less A; a factor divides N's fractals evenly). On the
// AlexNet 910B2 export (msinsight e5a31957 text/level2 rank0) the six M = 32 fp32 MatMulV2 rows
// ran on exactly those block dims: N = 4096 (256 fractals) 16, 9216 (576) 24, 1000 (63) 21.
// Only the true-fp32 GEMMs of the small-shape path (loadsBOneFractalColumnAtATime) are taken to
// run this tiling: they are the rows that show it.
#include <cstdint>
#include <optional>

#include "models/chip/chip_config.h"
#include "models/kernels/cube/matmul/matmul_operands.h"
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// Columns of N each core owns under the legacy split (a whole number of 16-column fractals), or
// nothing when the split does not apply: more than one m-tile of `baseM` rows, a batch, or an N
// whose fractal count has no factor above 1 within the cores (a prime: CANN maps such shapes to
// another size first, not modelled).
std::optional<std::uint64_t> legacyBlockShareN(const OpInstance& op, const ChipConfig& chip,
                                               const MatmulProblem& p, std::uint64_t baseM);

}  // namespace ascendsim
