#pragma once
// The base block CANN's MatMulV3 tiling gives a large GEMM (hicann/ops-nn
// matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_base_tiling.cpp, SetBaseBlockTiling; facts read, no
// code taken). docs/fidelity.md §34 has the evidence that the hardware runs it.
#include <cstdint>
#include <optional>
#include <utility>

#include "models/chip/chip_config.h"
#include "models/kernels/cube/matmul/matmul_operands.h"

namespace ascendsim {

// CANN's base block (m, n) for a plain (unbatched) GEMM on a split chip with a 128 KiB L0C whose M
// and N both reach 256 and whose 128×256 blocks are at least one per AI core: 128×256, but 256×128
// when both operands are transposed; with one transposed ND operand, 256×128 when only M is large
// (≥ cores/2 × 256), when neither is and M > N, or when both are and it loads fewer operand rows.
// One fp32 tile of either fills L0C, so there is one L0C slot. Other shapes take CANN's small-shape
// formulas: nullopt, and the caller ranks base blocks itself.
std::optional<std::pair<std::uint32_t, std::uint32_t>> cannBaseBlock(const ChipConfig& chip, const MatmulProblem& p);

// K depth (elements) of one A and one B chunk in L1 that CANN's MatMulV3 tiling gives a base block
// on a chip with a FixPipe (CalL1Tiling in the same file; facts read, no code taken): each operand
// has half of L1 (+256 B CANN counts for RPC) in two slots, depth = half ÷ (rows × baseK × element
// bytes) baseK steps; when both halves do not fit beside a bias table's 1 KiB, the operand with
// fewer rows (A on a tie) halves its depth; a slot takes half its depth (stepKa, stepKb), trimmed
// so a longer-than-512 B (256 B) step row is a whole number of 512 B (256 B), and the deeper step
// is rounded down to a multiple of the shallower. 128×256 bf16: stepKa 8, stepKb 4 → A 512,
// B 256 deep (128 KiB each); 256×128: A 256, B 512. No deeper than K rounded up to baseK.
struct CannChunkDepths {
    std::uint64_t a = 0, b = 0;
};
CannChunkDepths cannChunkDepths(const ChipConfig& chip, const MatmulProblem& p, const MatmulTiling& tiling);

}  // namespace ascendsim
