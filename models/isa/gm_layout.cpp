#include "models/isa/gm_layout.h"

#include <stdexcept>
#include <string>

namespace ascendsim {

namespace {
constexpr std::uint64_t kFractalHeightRows = 16;  // FRACTAL_NZ's [.., 16, C0] fractal
}  // namespace

std::uint32_t fractalNzBlockRowBytes(DataType type) {
    const std::uint32_t elementBytes = static_cast<std::uint32_t>(bytesOf(type));
    return elementBytes == 1 ? 32 : 16 * elementBytes;
}

GmBursts fractalNzBursts(const GmFractalNz& layout, std::uint64_t logicalAddr, std::uint32_t burstCount,
                         std::uint64_t burstBytes, std::uint64_t strideBytes) {
    if (!layout.present() || layout.rowBytes == 0 || layout.blockRowBytes == 0)
        throw std::invalid_argument("fractalNzBursts: layout without rows, row bytes or block row bytes");
    if (logicalAddr < layout.tensorAddr)
        throw std::invalid_argument("fractalNzBursts: address below the tensor");
    const std::uint64_t offset = logicalAddr - layout.tensorAddr;
    const std::uint64_t firstRow = offset / layout.rowBytes, firstColumnByte = offset % layout.rowBytes;
    std::uint64_t rowCount = burstCount, rowPartBytes = burstBytes;
    if (burstCount <= 1 && burstBytes > layout.rowBytes) {  // whole rows back to back
        if (firstColumnByte != 0 || burstBytes % layout.rowBytes != 0)
            throw std::invalid_argument("fractalNzBursts: a burst longer than a row must hold whole rows");
        rowCount = burstBytes / layout.rowBytes;
        rowPartBytes = layout.rowBytes;
    } else if (burstCount > 1 && strideBytes != layout.rowBytes) {
        throw std::invalid_argument("fractalNzBursts: bursts " + std::to_string(strideBytes) +
                                    " B apart are not consecutive rows of " + std::to_string(layout.rowBytes) + " B");
    }
    if (rowCount == 0 || rowPartBytes == 0 || firstRow + rowCount > layout.rows ||
        firstColumnByte + rowPartBytes > layout.rowBytes)
        throw std::invalid_argument("fractalNzBursts: rows [" + std::to_string(firstRow) + ", +" +
                                    std::to_string(rowCount) + ") x bytes [" + std::to_string(firstColumnByte) +
                                    ", +" + std::to_string(rowPartBytes) + ") outside the " +
                                    std::to_string(layout.rows) + " x " + std::to_string(layout.rowBytes) +
                                    " B matrix");
    const std::uint64_t paddedRows = (layout.rows + kFractalHeightRows - 1) / kFractalHeightRows * kFractalHeightRows;
    const std::uint64_t blockBytes = paddedRows * layout.blockRowBytes;
    const std::uint64_t firstBlock = firstColumnByte / layout.blockRowBytes;
    const std::uint64_t endBlock = (firstColumnByte + rowPartBytes + layout.blockRowBytes - 1) / layout.blockRowBytes;
    GmBursts bursts;
    bursts.address = layout.tensorAddr + firstBlock * blockBytes + firstRow * layout.blockRowBytes;
    bursts.count = static_cast<std::uint32_t>(endBlock - firstBlock);
    bursts.burstBytes = rowCount * layout.blockRowBytes;
    bursts.strideBytes = blockBytes;
    return bursts;
}

}  // namespace ascendsim
