#include "models/kernels/cube/matmul/matmul_operands.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/kernels/cube/matmul/matmul_cann_base_block.h"
#include "models/kernels/cube/matmul/matmul_cann_round_readers.h"
#include "models/kernels/cube/matmul/matmul_fractal_loads.h"
#include "models/kernels/cube/matmul/matmul_legacy_n_split.h"
#include "models/kernels/cube/matmul/matmul_split_k.h"
#include "models/kernels/cube/matmul/matmul_tbe_kernel.h"

namespace ascendsim {

namespace {
// The FRACTAL_NZ layout of a stored rows × columns matrix of `type` at `addr` (gm_layout.h).
GmFractalNz fractalNzOf(std::uint64_t addr, std::uint64_t rows, std::uint64_t columns, DataType type) {
    GmFractalNz layout;
    layout.tensorAddr = addr;
    layout.rows = static_cast<std::uint32_t>(rows);
    layout.rowBytes = columns * bytesOf(type);
    layout.blockRowBytes = fractalNzBlockRowBytes(type);
    return layout;
}
}  // namespace

std::uint64_t MatmulProblem::batchCount() const {
    std::uint64_t count = 1;
    for (auto d : batchShape) count *= d;
    return count;
}

MatmulOperands::MatmulOperands(MatmulProblem problem, MatmulTiling tiling)
    : problem_(std::move(problem)), tiling_(tiling),
      mTiles_(ceilDiv(problem_.m, tiling_.baseM)), nTiles_(ceilDiv(problem_.n, tiling_.baseN)),
      elementBytes_(bytesOf(problem_.inputType)) {
    if (tiling_.gridM == 0 || tiling_.gridN == 0) return;
    if (problem_.batchCount() != 1 || tiling_.kSplits != 1)
        throw std::logic_error("a MatMul core grid needs one batch and no K slices");
    grid_ = {mTiles_, nTiles_, ceilDiv(mTiles_, tiling_.gridM), ceilDiv(nTiles_, tiling_.gridN), tiling_.gridN};
}

// A core grid deals each core its rectangle (matmul_grid_order.h); a launch on another block count
// than the grid's keeps the contiguous ranges.
void MatmulOperands::blockTiles(std::uint32_t blockDim, std::uint32_t block, std::uint64_t& first,
                                std::uint64_t& count) const {
    if (grid_.cellM == 0 || blockDim != tiling_.gridM * tiling_.gridN) {
        CubeOperands::blockTiles(blockDim, block, first, count);
        return;
    }
    grid_.blockTiles(block, first, count);
}

std::uint64_t MatmulOperands::tileCount() const {
    return problem_.batchCount() * mTiles_ * nTiles_ * tiling_.kSplits;
}

// Tiles are (output tile, K slice) with the slice fastest: a block's contiguous range holds the
// slices of one output tile together.
void MatmulOperands::sliceOf(std::uint64_t tile, std::uint64_t& first, std::uint64_t& length) const {
    const std::uint64_t sliceK = tiling_.kSplits > 1 ? tiling_.sliceK : problem_.k;
    first = std::min(problem_.k, (tile % tiling_.kSplits) * sliceK);
    length = std::min(sliceK, problem_.k - first);
}

MatmulOperands::TileCoord MatmulOperands::coord(std::uint64_t tile) const {
    tile /= tiling_.kSplits;
    const std::uint64_t perBatch = mTiles_ * nTiles_;
    const std::uint64_t inBatch = tile % perBatch;
    TileCoord c;
    c.batch = tile / perBatch;
    std::uint64_t mTile = inBatch / nTiles_, nTile = inBatch % nTiles_;
    if (grid_.cellM != 0) grid_.tileAt(inBatch, mTile, nTile);
    c.m0 = mTile * tiling_.baseM;
    c.n0 = nTile * tiling_.baseN;
    c.m = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseM, problem_.m - c.m0));
    c.n = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseN, problem_.n - c.n0));
    return c;
}

std::uint32_t MatmulOperands::tileM(std::uint64_t tile) const { return coord(tile).m; }
std::uint32_t MatmulOperands::tileN(std::uint64_t tile) const { return coord(tile).n; }

std::uint32_t MatmulOperands::chunkCount(std::uint64_t tile) const {
    std::uint64_t first = 0, length = 0;
    sliceOf(tile, first, length);
    return static_cast<std::uint32_t>(ceilDiv(length, tiling_.chunkK));
}

void MatmulOperands::chunk(std::uint64_t tile, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const {
    std::uint64_t first = 0, sliceLength = 0;
    sliceOf(tile, first, sliceLength);
    start = first + std::uint64_t{c} * tiling_.chunkK;
    length = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.chunkK, first + sliceLength - start));
}

void MatmulOperands::batchOffsets(std::uint64_t batch, std::uint64_t& aOffset, std::uint64_t& bOffset) const {
    aOffset = bOffset = 0;
    for (std::size_t d = problem_.batchShape.size(); d-- > 0;) {
        const std::uint64_t index = batch % problem_.batchShape[d];
        batch /= problem_.batchShape[d];
        aOffset += index * problem_.aBatchStride[d];
        bOffset += index * problem_.bBatchStride[d];
    }
}

void MatmulOperands::loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr,
                                ProgramBuilder& b) const {
    const TileCoord c = coord(tile);
    std::uint64_t aOffset = 0, bOffset = 0;
    batchOffsets(c.batch, aOffset, bOffset);
    copyChunk(problem_.aAddr + aOffset * elementBytes_, problem_.transposeA, problem_.aFractal, problem_.m, c.m0, c.m,
              step.a, l1Addr, b);
    if (tiling_.roundReaders)
        b.lastDataMove().concurrentLineReaders = queuedReaders(tiling_.roundReaders->a[blockOf(c)], problem_.transposeA);
    else if (tiling_.aLineReaders > 1.0f)
        b.lastDataMove().concurrentLineReaders = tiling_.aLineReaders;
}

void MatmulOperands::loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr,
                                ProgramBuilder& b) const {
    const TileCoord c = coord(tile);
    std::uint64_t aOffset = 0, bOffset = 0;
    batchOffsets(c.batch, aOffset, bOffset);
    copyChunk(problem_.bAddr + bOffset * elementBytes_, !problem_.transposeB, problem_.bFractal, problem_.n, c.n0, c.n,
              step.b, l1Addr, b);
    if (tiling_.roundReaders)
        b.lastDataMove().concurrentLineReaders = queuedReaders(tiling_.roundReaders->b[blockOf(c)], !problem_.transposeB);
}

// The cores that queue on a strip's lines: the load's own and those of the round beyond the
// sharing CANN sizes its L2 tiles for (cannFreeSharers).
float MatmulOperands::queuedReaders(float roundReaders, bool kMajor) const {
    const auto free = static_cast<float>(cannFreeSharers(tiling_.roundReaders->cores, kMajor));
    return 1.0f + std::max(0.0f, roundReaders - free);
}

std::uint64_t MatmulOperands::blockOf(const TileCoord& c) const {
    return (c.m0 / tiling_.baseM) * nTiles_ + c.n0 / tiling_.baseN;
}

void MatmulOperands::copyChunk(std::uint64_t gmAddr, bool kMajor, bool fractal, std::uint64_t extent,
                               std::uint64_t first, std::uint32_t count, const CubeReduceRange& chunk,
                               std::uint64_t l1Addr, ProgramBuilder& b) const {
    const std::uint64_t eb = elementBytes_, K = problem_.k, k0 = chunk.start, kLen = chunk.length;
    // The functional model addresses the operand as its logical ND matrix either way; the layout
    // conversion decides the move's cost, and a fractal operand's GM bursts are those of its
    // FRACTAL_NZ layout (gm_layout.h): one run per 16-column block of the stored matrix.
    const LayoutConversion conversion = fractal ? LayoutConversion::None : LayoutConversion::Nd2Nz;
    const GmFractalNz gmNz =
        fractal ? fractalNzOf(gmAddr, kMajor ? K : extent, kMajor ? extent : K, problem_.inputType) : GmFractalNz{};
    if (kMajor)
        b.copy2d(MemSpace::GM, gmAddr + (k0 * extent + first) * eb, MemSpace::L1, l1Addr, static_cast<std::uint32_t>(kLen),
                 count * static_cast<std::uint32_t>(eb), extent * eb, count * eb, conversion, gmNz);
    else
        b.copy2d(MemSpace::GM, gmAddr + (first * K + k0) * eb, MemSpace::L1, l1Addr, count,
                 static_cast<std::uint32_t>(kLen * eb), K * eb, kLen * eb, conversion, gmNz);
}

void MatmulOperands::loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1,
                              std::uint64_t l0aAddr, std::uint64_t l0bAddr, Mmad& mmad,
                              ProgramBuilder& b) const {
    const TileCoord c = coord(tile);
    const std::uint64_t kl = step.length;
    // The step's place in each operand's L1 chunk, which may span several pipeline chunks.
    const std::uint64_t aOff = step.chunkStart + step.offset - step.a.start, aLen = step.a.length;
    const std::uint64_t bOff = step.chunkStart + step.offset - step.b.start, bLen = step.b.length;
    if (tiling_.fractalLoadIssueCycles > 0) {
        if (tiling_.fractalLoadsA)
            loadStepAByFractals(problem_, c.m, kl, aOff, aLen, l1.a, l0aAddr, tiling_.fractalLoadIssueCycles, b);
        else
            loadStepABlock(c, kl, aOff, aLen, l1.a, l0aAddr, b);
        if (tiling_.fractalLoadsB)
            loadStepBByFractals(problem_, c.n, kl, bOff, bLen, l1.b, l0bAddr, tiling_.fractalLoadIssueCycles, b);
        else
            loadStepBBlock(c, kl, bOff, bLen, l1.b, l0bAddr, b);
    } else {
        loadStepBlocks(c, kl, aOff, aLen, bOff, bLen, l1, l0aAddr, l0bAddr, b);
    }
    mmad.dtype = problem_.mmadType;
    mmad.transposeA = problem_.transposeA;
    mmad.transposeB = problem_.transposeB;
}

// A step's A block in one move, and its B block in one or one per fractal column.
void MatmulOperands::loadStepBlocks(const TileCoord& c, std::uint64_t kl, std::uint64_t aOff, std::uint64_t aLen,
                                    std::uint64_t bOff, std::uint64_t bLen, const CubeL1Chunk& l1,
                                    std::uint64_t l0aAddr, std::uint64_t l0bAddr, ProgramBuilder& b) const {
    loadStepABlock(c, kl, aOff, aLen, l1.a, l0aAddr, b);
    if (tiling_.bColumnLoadIssueCycles > 0)
        loadStepBByFractalColumns(c, kl, bOff, bLen, l1.b, l0bAddr, b);
    else
        loadStepBBlock(c, kl, bOff, bLen, l1.b, l0bAddr, b);
}

// The step's whole A block L1 → L0A in one load: A stored [m × K] one K-run per row of m, A stored
// [K × m] (transposed) one contiguous run.
void MatmulOperands::loadStepABlock(const TileCoord& c, std::uint64_t kLength, std::uint64_t aOff, std::uint64_t aLen,
                                    std::uint64_t l1A, std::uint64_t l0aAddr, ProgramBuilder& b) const {
    const std::uint64_t eb = elementBytes_;
    if (!problem_.transposeA)
        b.copy2d(MemSpace::L1, l1A + aOff * eb, MemSpace::L0A, l0aAddr, c.m, static_cast<std::uint32_t>(kLength * eb),
                 aLen * eb, kLength * eb);
    else
        b.copy(MemSpace::L1, l1A + aOff * c.m * eb, MemSpace::L0A, l0aAddr,
               static_cast<std::uint32_t>(kLength * c.m * eb));
}

// The step's whole B block L1 → L0B in one load: B stored [K × n] is one contiguous run, B stored
// [n × K] (transposed) one K-run per row of n.
void MatmulOperands::loadStepBBlock(const TileCoord& c, std::uint64_t kLength, std::uint64_t bOff, std::uint64_t bLen,
                                    std::uint64_t l1B, std::uint64_t l0bAddr, ProgramBuilder& b) const {
    const std::uint64_t eb = elementBytes_;
    if (!problem_.transposeB)
        b.copy(MemSpace::L1, l1B + bOff * c.n * eb, MemSpace::L0B, l0bAddr,
               static_cast<std::uint32_t>(kLength * c.n * eb));
    else
        b.copy2d(MemSpace::L1, l1B + bOff * eb, MemSpace::L0B, l0bAddr, c.n,
                 static_cast<std::uint32_t>(kLength * eb), bLen * eb, kLength * eb);
}

// One L1 → L0B load per 16-column fractal column of the step's B block, each moving that column's
// kLength × 16 elements, so MTE1 pays each load's own fixed cost on the path's curve and the scalar
// unit issues each one (planMatmul, loadsBOneFractalColumnAtATime: docs/fidelity.md §97, §130). The
// functional L0B holds B as ND: B stored [n × K] (transposed) moves 16 rows at a time, exactly its
// columns; B stored [K × n] moves its block in column-sized contiguous pieces, the same bytes in the
// same place (a column of an ND block would not start 512 B aligned). A step whose column is not a
// whole number of 512 B L0B units moves its block in one load, its other columns' issue charged on
// the scalar unit (a guard: such a step is a K off the fp32 fractal row, which CANN's unaligned
// pattern takes, matmul_fractal_loads.h).
void MatmulOperands::loadStepBByFractalColumns(const TileCoord& c, std::uint64_t kLength, std::uint64_t bOff,
                                               std::uint64_t bLen, std::uint64_t l1B, std::uint64_t l0bAddr,
                                               ProgramBuilder& b) const {
    const std::uint64_t eb = elementBytes_, columns = ceilDiv(c.n, kMatmulFractalRows);
    const std::uint64_t columnBytes = kLength * kMatmulFractalRows * eb;
    if (columnBytes % kMatmulLocalAlignBytes != 0) {
        loadStepBBlock(c, kLength, bOff, bLen, l1B, l0bAddr, b);
        if (columns > 1) b.scalar(static_cast<std::uint32_t>((columns - 1) * tiling_.bColumnLoadIssueCycles));
        return;
    }
    for (std::uint64_t column = 0; column < columns; ++column) {
        const std::uint64_t first = column * kMatmulFractalRows;
        const std::uint64_t width = std::min<std::uint64_t>(kMatmulFractalRows, c.n - first);
        if (!problem_.transposeB)
            b.copy(MemSpace::L1, l1B + bOff * c.n * eb + column * columnBytes, MemSpace::L0B,
                   l0bAddr + column * columnBytes, static_cast<std::uint32_t>(kLength * width * eb));
        else
            b.copy2d(MemSpace::L1, l1B + (first * bLen + bOff) * eb, MemSpace::L0B, l0bAddr + column * columnBytes,
                     static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(kLength * eb), bLen * eb,
                     kLength * eb);
    }
}

void MatmulOperands::loadBias(std::uint64_t tile, std::uint64_t l1Addr, ProgramBuilder& b) const {
    const TileCoord c = coord(tile);
    const std::uint64_t eb = bytesOf(problem_.biasType);
    b.copy(MemSpace::GM, problem_.biasAddr + c.n0 * eb, MemSpace::L1, l1Addr,
           static_cast<std::uint32_t>(c.n * eb));
}

void MatmulOperands::moveBiasToTable(std::uint64_t tile, std::uint64_t l1Addr, std::uint64_t btAddr,
                                     ProgramBuilder& b) const {
    DataMove m;
    m.src = MemSpace::L1;
    m.dst = MemSpace::BiasTable;
    m.srcAddr = l1Addr;
    m.dstAddr = btAddr;
    m.burstBytes = static_cast<std::uint32_t>(coord(tile).n * bytesOf(problem_.biasType));
    m.srcType = problem_.biasType;
    m.dstType = problem_.accType;
    b.move(m);
}

CubeBiasSlice MatmulOperands::biasSlice(std::uint64_t tile) const {
    const TileCoord c = coord(tile);
    return {problem_.biasAddr + c.n0 * bytesOf(problem_.biasType), problem_.biasType, c.n};
}

DataMove MatmulOperands::storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const {
    const TileCoord c = coord(tile);
    const std::uint64_t outBytes = bytesOf(problem_.outputType);
    DataMove m;
    m.src = MemSpace::L0C;
    m.dst = MemSpace::GM;
    m.srcAddr = l0cAddr;
    m.dstAddr = problem_.yAddr + (c.batch * problem_.m * problem_.n + c.m0 * problem_.n + c.n0) * outBytes;
    m.burstCount = c.m;
    m.burstBytes = c.n * static_cast<std::uint32_t>(bytesOf(problem_.accType));
    m.dstGapBytes = static_cast<std::uint32_t>((problem_.n - c.n) * outBytes);
    m.srcType = problem_.accType;
    m.dstType = problem_.outputType;
    // L0C holds C fractal: FixPipe converts it to ND rows unless C is stored FRACTAL_NZ too.
    m.conversion = problem_.yFractal ? LayoutConversion::None : LayoutConversion::Nz2Nd;
    if (problem_.yFractal)
        m.gmNz = fractalNzOf(problem_.yAddr + c.batch * problem_.m * problem_.n * outBytes, problem_.m, problem_.n,
                             problem_.outputType);
    m.atomicAdd = tiling_.kSplits > 1;  // a K slice's partial C adds into the zeroed output
    return m;
}

}  // namespace ascendsim
