#include "models/kernels/cube/matmul/matmul_grid_order.h"

#include <algorithm>

namespace ascendsim {

void MatmulGridOrder::blockTiles(std::uint32_t block, std::uint64_t& first,
                                 std::uint64_t& count) const {
    const std::uint64_t mi = block / gridN, ni = block % gridN;
    const std::uint64_t mStart = std::min(mi * cellM, mTiles),
                        nStart = std::min(ni * cellN, nTiles);
    const std::uint64_t height = std::min(mStart + cellM, mTiles) - mStart;
    const std::uint64_t width = std::min(nStart + cellN, nTiles) - nStart;
    first = mStart * nTiles + height * nStart;
    count = height * width;
}

void MatmulGridOrder::tileAt(std::uint64_t tile, std::uint64_t& mTile, std::uint64_t& nTile) const {
    const std::uint64_t mStart = tile / nTiles / cellM * cellM;
    const std::uint64_t height = std::min(mStart + cellM, mTiles) - mStart;
    const std::uint64_t inBand = tile - mStart * nTiles;
    const std::uint64_t nStart = inBand / height / cellN * cellN;
    const std::uint64_t width = std::min(nStart + cellN, nTiles) - nStart;
    const std::uint64_t inCell = inBand - height * nStart;
    mTile = mStart + inCell / width;
    nTile = nStart + inCell % width;
}

}  // namespace ascendsim
