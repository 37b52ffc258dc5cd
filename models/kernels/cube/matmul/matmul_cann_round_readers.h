#pragma once
// How many AI cores read the same GM lines of an operand at once when CANN's MatMulV3 base kernel
// runs a GEMM on its own base block (hicann/ops-nn matmul/mat_mul_v3: op_host/op_tiling/
// matmul_v3_base_tiling.cpp DoL2CacheTiling, CalcTile, InitL2SplitParams; op_kernel/
// mat_mul_base_block.h UpdateBasicIndex; facts read, no code taken; docs/fidelity.md §111).
//
// The kernel walks the output in L2 tiles of mTileBlock × nTileBlock base blocks and gives each L2
// tile's blocks to the cores a round of `cores` at a time, block i of the tile at m = i mod mCnt,
// n = (i + i / lcm(mCnt, nCnt)) mod nCnt: the cores of a round read the same A strip (same m) or B
// strip (same n) at the same K depth together. A strip of a K-major operand (A transposed, B not)
// is a baseM (baseN) wide slice of each of its K rows, so strips narrower than an L2 line share
// that line with their neighbours: the 128-wide bf16 A strips of [4096,1024]ᵀ are 256 B, two to
// a 512 B line, and each line of them is read by ten cores of a round.
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/kernels/cube/matmul/matmul_operands.h"

namespace ascendsim {

// Base blocks of an L2 tile along m and n. Below CANN's L2 budget (A + B + C bytes ≤ 100 MB ×
// L2 / 192 MiB) the default: 4 along m and cores ÷ 4 along n (fewer when the GEMM has fewer);
// above it CalcTile's split into L2 tiles that fit the budget, limiting how many cores share
// a strip (5, or 4 for a K-major operand, on 20 cores; 6 / 3 otherwise).
struct CannL2Tile {
    std::uint64_t mBlocks = 0, nBlocks = 0;
};
CannL2Tile cannL2Tile(const ChipConfig& chip, const MatmulProblem& p, std::uint32_t baseM, std::uint32_t baseN);

// Cores CANN's tiling lets read one strip at once (InitL2SplitParams: 5 on 20 cores, else up to 6;
// a K-major strip 4 on 20 cores, else up to 3): the sharing its L2 tiles are sized to, taken as
// free; readers beyond it take turns on the strip's lines (shared_line_requests.h).
std::uint64_t cannFreeSharers(std::uint64_t cores, bool kMajor);

// Per output tile (index m-block × n-blocks + n-block, the model's tile order), the number of cores
// of its CANN round reading the tile's A lines and B lines at once (the most over the lines its
// strip touches; 1 = alone). A K-major strip's lines are its byte range of a K row on the L2 line
// grid; a K-contiguous strip's rows are its own.
struct CannRoundReaders {
    std::vector<float> a, b;
    std::uint64_t cores = 1;  // a round's cores
};
CannRoundReaders cannRoundReaders(const ChipConfig& chip, const MatmulProblem& p, std::uint32_t baseM,
                                  std::uint32_t baseN);

}  // namespace ascendsim
