#pragma once
// How TBE's GEMM kernel deals a one-step GEMM out to the cores (docs/fidelity.md §141).
// [S] CANN's legacy cache tiling (ophost/matmul_tiling/cache_tiling.cc, GetBlockDim /
// GetBlockDimHelper; facts read, no code taken) splits the output into m_dim × n_dim rectangles,
// one a core, choosing the split whose core loads the least A + B (its m share plus its n share in
// 16-element fractals), and the core loads its whole A and B shares into L1 once when they fit
// (L1StatusBothFullLoad / BL1 full load, GetL1Factors). On equal loads the newer cachetiling
// block-dims calculator (read in its convolution form, cube/algorithm/calculator/
// block_dims_calculator.cc, NeedUpdate: no more L0 loops within 3 % of the least load) prefers
// fewer L0 loops a core — here fewer tiles a core; then the legacy rule's larger n_dim.
// The model's default block is a contiguous run of tiles in n-fastest order, which on a many-tile
// output meets most of B's n-tiles and reloads each with its tile.
// [D] msinsight e5a31957 text/level2 rank0 (910B2): the weight gradient [32,4096]ᵀ · [32,4096]
// (K = 32, 22 blocks; 2 × 11 and 11 × 2 load alike, 11 × 2 runs 24 tiles of 128 × 256 a core, 2 ×
// 11 32 of 128 × 192) keeps MTE2 busy 0.085 of its time, ~4.6 k cycles a core, and its scalar unit
// 0.236 — what 24 tiles a core cost in the model (0.232; 32 tiles: 0.348) — where per-tile B
// reloads gave MTE2 0.427; [32,1000]ᵀ · [32,4096] (24 blocks) is GetBlockDim's 3 × 8 with CANN's
// own L0 tile 112 × 256 (§132f). Only GEMMs whose whole K is one L0 step take it (the weight
// gradients the rows show); the deep-K TBE GEMMs keep their plans.
#include <cstdint>
#include <optional>

#include "models/chip/chip_config.h"
#include "models/kernels/cube/matmul/matmul_operands.h"
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

struct MatmulCoreGrid {
    std::uint32_t m = 0, n = 0;  // cores along M and N (m × n = the block dim)
    // The output tile: whole fractals that divide a core's share.
    std::uint32_t baseM = 0, baseN = 0;
};

// The m_dim × n_dim split of the op's block dim (else the chip's cores) of least A + B share a core
// (then fewest tiles a core, then the larger n_dim), with a base tile of whole fractals (at most
// 128 × 256) dividing the shares so that each core's shares are whole tiles; nothing when the GEMM
// is batched, no factor pair fits the fractal counts or the shares' tiles leave a row or column of
// cores without work.
std::optional<MatmulCoreGrid> tbeCoreGrid(const OpInstance& op, const ChipConfig& chip,
                                          const MatmulProblem& p);

}  // namespace ascendsim
