#pragma once
// TBE's GEMM kernel in CANN's unaligned pattern moves its operands L1 → L0 one 512 B fractal per
// instruction (docs/fidelity.md §132).
//
// [S] CANN picks the pattern from the shape: the run parameters of the legacy MatMulV2 tiling set
// `unaligned_flag = !alignedMKN` and `used_aligned_pattern = alignedMKN && nd_flag`, alignedMKN being
// M and N whole 16-element fractal edges and K whole fractal rows (8 elements for float, 16 else) —
// ops-nn mat_mul_v3 `MatmulV3BaseTiling` InitRunParams, which fills them for the TBE tiling, and the
// binary-kernel key of GetTilingInputArgs (m_align_flag / k_align_flag / n_align_flag): the aligned and
// the unaligned shapes run different compiled kernels. Facts read, no code taken.
// [D] What the unaligned kernel does differently is read off the counters of the only two unaligned
// MatMulV2 rows of msinsight e5a31957 text/level2 rank0 (910B2, fp32; the DB export, level1 and rank 1
// show the same): fc8 forward [32,4096]·[1000,4096]ᵀ (N = 1000) and its weight gradient
// [32,1000]ᵀ·[32,4096] (M = 1000). fc8's AIC per core — 2 m × 512 k × 3 n fractals, so 1024 A and 1536 B
// fractals — spends 18.8 k MTE1 cycles (7.3 a fractal, a 512 B load on the L1 → L0 curves) and 93.2 k
// scalar cycles (one 29-cycle issue a fractal, 74 k, plus the steps' own work), where the aligned M = 32
// rows issue one load per step and column (§97, §130) and dX fc8 (K = 1000, a whole number of 8-element
// fp32 rows: aligned) shows no such excess. Every L1 → L0A / L0B move of such a kernel is one fractal.
#include <cstdint>

#include "models/kernels/cube/matmul/matmul_operands.h"
#include "models/kernels/program_builder.h"

namespace ascendsim {

// Whether CANN runs the GEMM in its unaligned pattern: M or N not a whole number of 16-element
// fractal edges, or K not a whole number of fractal rows (8 elements for fp32 inputs, 16 otherwise,
// as InitRunParams counts them).
bool runsCannUnalignedPattern(const MatmulProblem& problem);

// Which operands of a GEMM in the unaligned pattern move one fractal per instruction: an operand an
// edge of which is not whole fractals (A: M or K, B: N or K — the pattern's m_align_flag /
// k_align_flag / n_align_flag are per axis), and an fp32 operand TBE's GEMM schedule moves L1 → L0 by
// img2col (`emit_insn_l1_and_l0`: A not transposed, B transposed; the others go by dma_copy).
// [D] e5a31957 text/level2 rank0 (910B2): fc8 forward (N = 1000; A [32,4096] by img2col) moves both,
// its weight gradient [32,1000]ᵀ · [32,4096] (M = 1000; A transposed, B [32,4096] not) only A — the
// chip's 11.3 k scalar cycles a core (DB export 9.1 k) over its 6 tiles of 112 × 256 are the aligned
// weight gradients' ~540 a tile plus ~1.35 k (DB ~1.0 k), where 28 A pieces and one B move give
// ~0.8 k more and 28 + 64 pieces ~2.6 k (docs/fidelity.md §132f, §158).
struct FractalMovedOperands {
    bool a = false, b = false;
};
FractalMovedOperands operandsMovedByFractals(const MatmulProblem& problem);

// One L1 → L0A move per 512 B fractal of a step's A block of `m` rows and `kLength` K elements, which
// starts `kOffset` elements into an L1 chunk `chunkLength` deep at `l1Addr`. The L0A block is the one
// move the plain plan makes (MatmulOperands::loadStep): [m × kLength] row-major, or [kLength × m] when A
// is stored transposed; every piece lands where that move puts its bytes (the model's L0 is row-major:
// each piece is 512 B of the block, as many as the block has fractals). A block whose rows do not
// split into 512 B pieces (see wholeL0RowsStepDepth) moves at once and charges its other pieces'
// issue, `issueCycles` each, on the scalar unit.
void loadStepAByFractals(const MatmulProblem& problem, std::uint64_t m, std::uint64_t kLength, std::uint64_t kOffset,
                         std::uint64_t chunkLength, std::uint64_t l1Addr, std::uint64_t l0aAddr,
                         std::uint32_t issueCycles, ProgramBuilder& b);

// The same for B's step block of `n` columns: [kLength × n], or [n × kLength] when B is stored
// transposed.
void loadStepBByFractals(const MatmulProblem& problem, std::uint64_t n, std::uint64_t kLength, std::uint64_t kOffset,
                         std::uint64_t chunkLength, std::uint64_t l1Addr, std::uint64_t l0bAddr,
                         std::uint32_t issueCycles, ProgramBuilder& b);

// A step depth of whole 512 B L0 rows (128 fp32, 256 fp16 elements) when `baseK` holds one: the
// depth the row-major blocks of a row-stored A or transposed B need to split into 512 B pieces. fc8
// forward's 160 becomes 128, CANN's own k_l0 there (16 fp32 fractals, docs/fidelity.md §119a).
std::uint64_t wholeL0RowsStepDepth(std::uint64_t baseK, DataType inputType);

}  // namespace ascendsim
