#pragma once
// The base block CANN's MatMulV3 tiling gives a large GEMM (hicann/ops-nn
// matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_base_tiling.cpp, SetBaseBlockTiling; facts read, no
// code taken). docs/fidelity.md §34 has the evidence that the hardware runs it.
#include <cstdint>
#include <optional>
#include <utility>

#include "models/chip/chip_config.h"
#include "models/kernels/cube/matmul_operands.h"

namespace ascendsim {

// CANN's base block (m, n) for a plain (unbatched) GEMM on a split chip with a 128 KiB L0C whose M
// and N both reach 256 and whose 128×256 blocks are at least one per AI core: 128×256, but 256×128
// when both operands are transposed; with one transposed ND operand, 256×128 when only M is large
// (≥ cores/2 × 256), when neither is and M > N, or when both are and it loads fewer operand rows.
// One fp32 tile of either fills L0C, so there is one L0C slot. Other shapes take CANN's small-shape
// formulas: nullopt, and the caller ranks base blocks itself.
std::optional<std::pair<std::uint32_t, std::uint32_t>> cannBaseBlock(const ChipConfig& chip, const MatmulProblem& p);

}  // namespace ascendsim
