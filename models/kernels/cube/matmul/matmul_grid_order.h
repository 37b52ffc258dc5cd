#pragma once
// The tile order of a GEMM dealt out as TBE's m_dim × n_dim core grid (matmul_core_grid.h): the
// cores' rectangles one after another, each rectangle's tiles n fastest, so that each core's tiles
// are one contiguous range (CubeOperands::blockTiles) and its A rows and B columns repeat.
#include <cstdint>

namespace ascendsim {

// Core = m-index × gridN + n-index. Tile counts along M and N of the base tile; cellM × cellN tiles
// a rectangle (the last row / column of rectangles may hold fewer).
struct MatmulGridOrder {
    std::uint64_t mTiles = 0, nTiles = 0, cellM = 0, cellN = 0;
    std::uint32_t gridN = 0;
    // The first tile and tile count of core `block`.
    void blockTiles(std::uint32_t block, std::uint64_t& first, std::uint64_t& count) const;
    // The (m-tile, n-tile) of tile index `tile`.
    void tileAt(std::uint64_t tile, std::uint64_t& mTile, std::uint64_t& nTile) const;
};

}  // namespace ascendsim
