#include "models/kernels/cube/matmul/matmul_vector_nd2nz.h"

#include <algorithm>
#include <array>

#include "models/kernels/program_builder.h"

namespace ascendsim {

namespace {
// CalcNd2NzTiling's constants (matmul_v3_base_tiling.cpp).
constexpr std::uint64_t kRowAlign = 16;        // N_ALIGNED: the stored rows padded to whole fractals
constexpr std::uint64_t kMinBlockRows = 16;    // NCALC_THRES: fewest rows a block is cut to
constexpr std::uint64_t kShortRowBytes = 2048; // VECTOR_D_BASE: a row this short is one block wide
// CALC_ND_BASIC: the block widths tried in order (bytes of a block row).
constexpr std::array<std::uint64_t, 3> kBlockRowBytes{6144, 4096, 2048};
constexpr std::uint64_t kWidestBlockRowBytes = 6144;
constexpr std::uint64_t kFallbackBlockRowBytes = 4096;  // the width kept when no block width divides evenly
constexpr std::uint64_t kMinTailBytes = 512;            // MIN_TAIL: a narrower last column block widens the others
constexpr std::uint64_t kC0Bytes = 32;                  // a fractal row: 16 bf16 / fp16 elements

// CheckUbOverFlow: when padding the rows to 16 adds a row block, the last block's padded rows must
// still fit half of UB. Unsigned arithmetic as the tiling's (rows < blockRows wraps alike).
bool paddedTailOverflows(std::uint64_t alignedRows, std::uint64_t rows, std::uint64_t blockRows,
                         std::uint64_t blockColumns, std::uint64_t halfUbElements) {
    if (blockRows == 0) return false;
    const bool paddingAddsABlock = ceilDiv(alignedRows, blockRows) != ceilDiv(rows, blockRows);
    return paddingAddsABlock && (alignedRows - (rows / blockRows - 1) * blockRows) * blockColumns > halfUbElements;
}

// The work of one AIV: its range of an operand's base blocks.
class VectorNd2NzTiles final : public TileSource {
public:
    VectorNd2NzTiles(const VectorNd2NzOperand& operand, UnitRange blocks)
        : o_(operand), blocks_(blocks), columnBlocks_(ceilDiv(operand.columns, operand.block.columns)) {}
    std::uint64_t tileCount() const override { return blocks_.size(); }
    bool movesOnly() const override { return true; }
    std::uint32_t buffers() const override { return 1; }
    void tile(std::uint64_t index, std::uint32_t /*half*/, TileCode& code) override {
        const std::uint64_t eb = bytesOf(o_.type);
        const std::uint64_t block = blocks_.begin + index;
        const std::uint64_t row = (block / columnBlocks_) * o_.block.rows;
        const std::uint64_t column = (block % columnBlocks_) * o_.block.columns;
        const auto rows = static_cast<std::uint32_t>(std::min(o_.block.rows, o_.rows - row));
        const std::uint64_t columnBytes = std::min(o_.block.columns, o_.columns - column) * eb;
        const std::uint64_t offset = (row * o_.columns + column) * eb;
        ProgramBuilder(code.load).copy2d(MemSpace::GM, o_.src + offset, MemSpace::UB, 0, rows,
                                         static_cast<std::uint32_t>(columnBytes), o_.columns * eb, columnBytes);
        GmFractalNz nz;  // the whole matrix's NZ layout: a column block's rows are one run
        nz.tensorAddr = o_.dst;
        nz.rows = static_cast<std::uint32_t>(alignUp(o_.rows, kRowAlign));
        nz.rowBytes = o_.columns * eb;
        nz.blockRowBytes = fractalNzBlockRowBytes(o_.type);
        ProgramBuilder(code.store).copy2d(MemSpace::UB, 0, MemSpace::GM, o_.dst + offset, rows,
                                          static_cast<std::uint32_t>(columnBytes), columnBytes, o_.columns * eb,
                                          LayoutConversion::None, nz);
    }

private:
    VectorNd2NzOperand o_;
    UnitRange blocks_;
    std::uint64_t columnBlocks_;
};
}  // namespace

VectorNd2NzBlock cannVectorNd2NzBlock(std::uint64_t storedRows, std::uint64_t storedColumns, std::uint64_t elementBytes,
                                      std::uint64_t vectorCores, std::uint64_t ubBytes) {
    const std::uint64_t eb = std::max<std::uint64_t>(1, elementBytes);
    const std::uint64_t cores = std::max<std::uint64_t>(1, vectorCores);
    const std::uint64_t c0 = kC0Bytes / eb;
    const std::uint64_t halfUb = ubBytes / 2 / eb;
    const std::uint64_t alignedRows = alignUp(storedRows, kRowAlign);
    const std::uint64_t alignedColumns = alignUp(storedColumns, c0);
    const auto overflows = [&](std::uint64_t blockRows, std::uint64_t blockColumns) {
        return paddedTailOverflows(alignedRows, storedRows, blockRows, blockColumns, halfUb);
    };
    VectorNd2NzBlock b;
    if (storedColumns <= kShortRowBytes / eb) {  // one block wide; the rows shared evenly over the cores
        b.columns = std::max<std::uint64_t>(alignedColumns, 1);
        const std::uint64_t rowsPerCore = ceilDiv(alignedRows, cores);
        const std::uint64_t rounds = std::max<std::uint64_t>(ceilDiv(rowsPerCore, std::max<std::uint64_t>(1, halfUb / b.columns)), 1);
        b.rows = std::max(ceilDiv(rowsPerCore, rounds), kMinBlockRows);
        while (b.rows > kMinBlockRows && overflows(b.rows, b.columns)) --b.rows;
        return b;
    }
    // Wide rows: per block width, the most rows half of UB holds, then fewer until the block count
    // is a multiple of the cores (taken at once) or, failing that, the count leaving the fullest last round.
    VectorNd2NzBlock best{kMinBlockRows, kFallbackBlockRowBytes / eb};
    std::uint64_t bestLastRound = 0;
    for (const std::uint64_t widthBytes : kBlockRowBytes) {
        std::uint64_t columns = std::max<std::uint64_t>(std::min(alignedColumns, widthBytes / eb), 1);
        std::uint64_t columnBlocks = ceilDiv(alignedColumns, columns);
        const std::uint64_t columnTail = alignedColumns % columns;
        if (columnTail > 0 && columnTail < kMinTailBytes / eb) {
            if (columns * eb == kWidestBlockRowBytes) continue;
            --columnBlocks;
            columns = std::max<std::uint64_t>(alignUp(ceilDiv(alignedColumns, columnBlocks), c0), 1);
        }
        std::uint64_t rows = std::max(halfUb / columns, kMinBlockRows);
        if (rows * columns * eb * 2 > ubBytes || overflows(rows, columns)) continue;
        const auto lastRound = [&](std::uint64_t r) { return ceilDiv(alignedRows, r) * columnBlocks % cores; };
        for (; rows > kMinBlockRows; --rows) {
            if (overflows(rows, columns)) continue;
            const std::uint64_t tail = lastRound(rows);
            if (tail == 0) return {rows, columns};
            if (tail > bestLastRound) {
                bestLastRound = tail;
                best = {rows, columns};
            }
        }
    }
    return best;
}

std::unique_ptr<TileSource> vectorNd2NzTiles(const VectorNd2NzOperand& operand, std::uint32_t vectorCores,
                                             std::uint32_t vectorIndex) {
    const std::uint64_t blocks =
        ceilDiv(operand.rows, operand.block.rows) * ceilDiv(operand.columns, operand.block.columns);
    return std::make_unique<VectorNd2NzTiles>(operand, blockShare(blocks, vectorCores, vectorIndex));
}

}  // namespace ascendsim
