#include "models/kernels/cube/matmul/matmul_core_grid.h"

#include <algorithm>

namespace ascendsim {

namespace {
constexpr std::uint64_t kGridFractal = 16;  // cube fractal edge (hardware.md §2.5)
constexpr std::uint64_t kGridMaxTileM =
    128 / 16;  // the model's widest base block, 128 × 256, in fractals
constexpr std::uint64_t kGridMaxTileN = 256 / 16;

// The largest divisor of `share` no larger than `cap`.
std::uint64_t widestDividingTile(std::uint64_t share, std::uint64_t cap) {
    for (std::uint64_t d = std::min(share, cap); d > 1; --d)
        if (share % d == 0) return d;
    return 1;
}

// The grid of `gridM` × `gridN` cores: its base tile and tiles a core, or nothing when the
// shares' tiles leave a row or column of cores without work.
std::optional<MatmulCoreGrid> gridOf(std::uint64_t mFractals, std::uint64_t nFractals,
                                     std::uint64_t gridM, std::uint64_t gridN,
                                     std::uint64_t& tilesPerCore) {
    const std::uint64_t mShare = ceilDiv(mFractals, gridM), nShare = ceilDiv(nFractals, gridN);
    const std::uint64_t tileM = widestDividingTile(mShare, kGridMaxTileM),
                        tileN = widestDividingTile(nShare, kGridMaxTileN);
    const std::uint64_t mTiles = ceilDiv(mFractals, tileM), nTiles = ceilDiv(nFractals, tileN);
    if (ceilDiv(mTiles, mShare / tileM) != gridM || ceilDiv(nTiles, nShare / tileN) != gridN)
        return std::nullopt;
    tilesPerCore = (mShare / tileM) * (nShare / tileN);
    MatmulCoreGrid grid;
    grid.m = static_cast<std::uint32_t>(gridM);
    grid.n = static_cast<std::uint32_t>(gridN);
    grid.baseM = static_cast<std::uint32_t>(tileM * kGridFractal);
    grid.baseN = static_cast<std::uint32_t>(tileN * kGridFractal);
    return grid;
}
}  // namespace

std::optional<MatmulCoreGrid> tbeCoreGrid(const OpInstance& op, const ChipConfig& chip,
                                          const MatmulProblem& p) {
    if (p.batchCount() != 1) return std::nullopt;
    const std::uint64_t cores = op.blockDim ? *op.blockDim : chip.aiCoreCount;
    const std::uint64_t mFractals = ceilDiv(p.m, kGridFractal),
                        nFractals = ceilDiv(p.n, kGridFractal);
    std::optional<MatmulCoreGrid> best;
    std::uint64_t bestLoad = 0, bestTiles = 0;
    // m_dim rising, so n_dim falling: a later candidate replaces the best only when strictly
    // better.
    for (std::uint64_t m = 1; m <= cores; ++m) {
        if (cores % m != 0 || m > mFractals || cores / m > nFractals) continue;
        const std::uint64_t n = cores / m;
        std::uint64_t tiles = 0;
        const auto grid = gridOf(mFractals, nFractals, m, n, tiles);
        if (!grid) continue;
        const std::uint64_t load = ceilDiv(mFractals, m) + ceilDiv(nFractals, n);
        if (best && (load > bestLoad || (load == bestLoad && tiles >= bestTiles))) continue;
        best = grid;
        bestLoad = load;
        bestTiles = tiles;
    }
    return best;
}

}  // namespace ascendsim
