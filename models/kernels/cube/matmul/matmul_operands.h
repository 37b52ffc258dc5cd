#pragma once
// Data paths of (batched) matrix multiplication for the cube pipeline: C[b] = A[b]·B[b] (+ bias)
// with optional transposes, batch broadcasting, fp16/bf16/int8 inputs and fp32 inputs in hf32.
// Output tiles are (batch, m-tile, n-tile), n fastest; the reduction is K.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/kernels/cube/matmul/matmul_grid_order.h"
#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

struct CannRoundReaders;  // matmul_cann_round_readers.h

struct MatmulProblem {
    std::uint64_t m = 0, n = 0, k = 0;
    std::vector<std::uint64_t> batchShape;   // output batch dims
    std::vector<std::uint64_t> aBatchStride;  // elements per step of each output batch dim (0 = broadcast)
    std::vector<std::uint64_t> bBatchStride;
    bool transposeA = false, transposeB = false;
    DataType inputType = DataType::Fp16;   // GM element type of a and b
    DataType mmadType = DataType::Fp16;    // Hf32 for fp32 inputs
    DataType accType = DataType::Fp32;     // L0C
    DataType outputType = DataType::Fp16;
    // Operands stored FRACTAL_NZ in GM (TransData'd weights, the 910A's NZ matmuls): already in the
    // fractal layout the cube reads, so GM→L1 is a plain copy without the ND2NZ conversion.
    // Their GM bursts are the fractal layout's (gm_layout.h); so are C's when it is stored
    // FRACTAL_NZ (the 910A's TBE MatMuls write C so).
    bool aFractal = false, bFractal = false, yFractal = false;
    std::uint64_t aAddr = 0, bAddr = 0, yAddr = 0;
    bool hasBias = false;
    DataType biasType = DataType::Fp16;
    std::uint64_t biasAddr = 0;
    // The second operand of an elementwise op TBE fused after the matmul (matmul_epilogue_operand.cpp,
    // coupled chips): one [M, N] matrix shared by every batch, or one per batch; same dtype as C.
    bool hasEpilogueOperand = false;
    bool epilogueBroadcast = false;
    bool epilogueFractal = false;
    std::uint64_t epilogueAddr = 0;
    std::uint64_t batchCount() const;
};

struct MatmulTiling {
    std::uint32_t baseM = 128, baseN = 128, baseK = 64, chunkK = 256;
    // K slices per output tile (matmul_split_k.h): a tile is (output tile, slice), each slice's
    // partial C added atomically. 1 slice of the whole K unless the op accumulates atomically.
    std::uint64_t kSplits = 1, sliceK = 0;
    // Nonzero when each step's B block moves L1 → L0B as one load per 16-column fractal column (TBE's
    // small-shape fp32 kernel, planMatmul): the scalar cycles of issuing one load, charged for the
    // columns a step that cannot split its block (a column not whole 512 B units) moves in its one
    // load. 0 when the block moves in one load.
    std::uint32_t bColumnLoadIssueCycles = 0;
    // Nonzero when every L1 → L0A / L0B move of a step is one 512 B fractal (TBE's kernel in CANN's
    // unaligned pattern, matmul_fractal_loads.h): the scalar cycles of issuing one, charged for the
    // pieces of a block that cannot split. Supersedes the column loads above.
    std::uint32_t fractalLoadIssueCycles = 0;
    // With fractalLoadIssueCycles: whether A's / B's step blocks are the ones moved by fractals
    // (operandsMovedByFractals); the other operand moves its block in one load.
    bool fractalLoadsA = true, fractalLoadsB = true;
    // Cores of CANN's round reading each tile's A and B lines at once (matmul_cann_round_readers.h),
    // carried by the operand loads; null when the kernel is not CANN's base kernel on its own block.
    std::shared_ptr<const CannRoundReaders> roundReaders;
    // Cores reading the same A lines at once when every block reads all of A at the same K depth
    // (one m-tile, the blocks splitting N; planMatmul), carried by the A loads; 0 when not so.
    float aLineReaders = 0.0f;
    // Cores along M and N when TBE deals the output out as its m_dim × n_dim grid (matmul_core_grid.h):
    // core (i, j) runs the i-th row band's j-th rectangle of tiles; 0 = the default contiguous
    // n-fastest tile ranges. Not with a batch or K slices.
    std::uint32_t gridM = 0, gridN = 0;
};

class MatmulOperands final : public CubeOperands {
public:
    MatmulOperands(MatmulProblem problem, MatmulTiling tiling);

    std::uint64_t tileCount() const override;
    std::uint32_t tileM(std::uint64_t tile) const override;
    std::uint32_t tileN(std::uint64_t tile) const override;
    std::uint32_t chunkCount(std::uint64_t tile) const override;
    void chunk(std::uint64_t tile, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const override;
    void loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override;
    void loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override;
    void loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                  std::uint64_t l0bAddr, Mmad& mmad, ProgramBuilder& b) const override;
    std::uint64_t aRowsOf(std::uint64_t tile) const override {
        const TileCoord c = coord(tile);
        return c.batch * mTiles_ + c.m0 / tiling_.baseM;
    }
    void blockTiles(std::uint32_t blockDim, std::uint32_t block, std::uint64_t& first,
                    std::uint64_t& count) const override;
    // The tile's B: its batch and n-tile (a block-resident B keeps one region per value).
    std::uint64_t bColumnsOf(std::uint64_t tile) const override {
        const TileCoord c = coord(tile);
        return c.batch * nTiles_ + c.n0 / tiling_.baseN;
    }
    bool hasBias() const override { return problem_.hasBias; }
    void loadBias(std::uint64_t tile, std::uint64_t l1Addr, ProgramBuilder& b) const override;
    void moveBiasToTable(std::uint64_t tile, std::uint64_t l1Addr, std::uint64_t btAddr, ProgramBuilder& b) const override;
    CubeBiasSlice biasSlice(std::uint64_t tile) const override;
    DataMove storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const override;
    bool hasEpilogueOperand() const override { return problem_.hasEpilogueOperand; }
    DataMove epilogueOperandLoad(std::uint64_t tile, std::uint64_t ubAddr) const override;

private:
    struct TileCoord {
        std::uint64_t batch, m0, n0;
        std::uint32_t m, n;
    };
    TileCoord coord(std::uint64_t tile) const;
    // Index of the tile's output block (m-block × n-blocks + n-block).
    std::uint64_t blockOf(const TileCoord& c) const;
    float queuedReaders(float roundReaders, bool kMajor) const;
    void loadStepBlocks(const TileCoord& c, std::uint64_t kl, std::uint64_t aOff, std::uint64_t aLen,
                        std::uint64_t bOff, std::uint64_t bLen, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                        std::uint64_t l0bAddr, ProgramBuilder& b) const;
    // A step's A block L1 → L0A in one load.
    void loadStepABlock(const TileCoord& c, std::uint64_t kLength, std::uint64_t aOff, std::uint64_t aLen,
                        std::uint64_t l1A, std::uint64_t l0aAddr, ProgramBuilder& b) const;
    // A step's B block L1 → L0B in one load, or one load per 16-column fractal column
    // (MatmulTiling::bColumnLoadIssueCycles).
    void loadStepBBlock(const TileCoord& c, std::uint64_t kLength, std::uint64_t bOff, std::uint64_t bLen,
                        std::uint64_t l1B, std::uint64_t l0bAddr, ProgramBuilder& b) const;
    void loadStepBByFractalColumns(const TileCoord& c, std::uint64_t kLength, std::uint64_t bOff, std::uint64_t bLen,
                                   std::uint64_t l1B, std::uint64_t l0bAddr, ProgramBuilder& b) const;
    // K range [first, first + length) of the tile's slice.
    void sliceOf(std::uint64_t tile, std::uint64_t& first, std::uint64_t& length) const;
    void batchOffsets(std::uint64_t batch, std::uint64_t& aOffset, std::uint64_t& bOffset) const;
    // GM→L1 of `count` rows or columns from `first` of an operand at `gmAddr` whose other extent is
    // K, over the reduction range `chunk`: stored [extent × K] (A, or B transposed) or, when kMajor, [K × extent]; ND2NZ unless the
    // operand is `fractal` already (same bytes, no conversion).
    void copyChunk(std::uint64_t gmAddr, bool kMajor, bool fractal, std::uint64_t extent, std::uint64_t first,
                   std::uint32_t count, const CubeReduceRange& chunk, std::uint64_t l1Addr, ProgramBuilder& b) const;

    MatmulProblem problem_;
    MatmulTiling tiling_;
    std::uint64_t mTiles_, nTiles_;
    std::uint64_t elementBytes_;
    MatmulGridOrder grid_;  // cellM 0 without a core grid
};

// L0A / L0B region alignment (hardware.md §2.3) and the cube fractal edge (§2.5): the operand moves
// (matmul_operands.cpp) and the plan (matmul_plan.cpp) place regions with the same ones.
inline constexpr std::uint64_t kMatmulLocalAlignBytes = 512;
inline constexpr std::uint32_t kMatmulFractalRows = 16;

// Tiling and buffer plan for `problem` on `chip` like CANN's: the base block (128×256, 256×128 or
// 128×128) that keeps the busiest core shortest (CANN's own block when cannBaseBlock gives one,
// then with CANN's chunk depth per operand; a true-fp32 small-shape GEMM of one m-tile takes the
// legacy tiling's N share a core, matmul_legacy_n_split.h), K chunks as deep as two L1 slots allow, L0
// double-buffered, L0C double-buffered when two tiles fit; A rows resident in L1 across a block's
// tiles along n when all their K chunks fit beside two B slots.
// (matmul_plan.cpp)
void planMatmul(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem,
                MatmulTiling& tiling, CubeBufferPlan& plan);

// Lowers a MatMul/BatchMatMul op (shape checks, dtypes, bias) to one AI-core kernel.
std::vector<LoweredKernel> lowerMatmulFamily(const OpInstance& op, const ChipConfig& chip, bool batched);

}  // namespace ascendsim
