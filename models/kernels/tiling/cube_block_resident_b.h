#pragma once
// TBE's "BL1 full load" of a block's B share (CubeBufferPlan::blockResidentB, matmul_plan.cpp):
// which L1 region each of a block's tiles reads its B from — the distinct Bs a block's tiles read
// (CubeOperands::bColumnsOf) numbered in the order the tiles meet them — and which tile first meets
// each. The block program's L1 side (cube_block_l1_chunks.cpp) issues the loads and reads the regions.
#include <cstdint>
#include <vector>

#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

class CubeBlockResidentB {
public:
    CubeBlockResidentB() = default;  // a plan without a block-resident B
    // Throws std::logic_error when a tile is more than one chunk or the block's distinct Bs overflow
    // the plan's regions (l1BlockBAddr up to the bias staging).
    CubeBlockResidentB(const CubeOperands& operands, const CubeBufferPlan& plan, std::uint64_t firstTile,
                       std::uint64_t tiles);

    std::uint64_t address(std::uint64_t localTile) const { return base_ + region_.at(localTile) * regionBytes_; }
    // The local tile that first meets each region, region by region.
    const std::vector<std::uint64_t>& firstTiles() const { return firstTile_; }

private:
    std::uint64_t base_ = 0;
    std::uint64_t regionBytes_ = 0;
    std::vector<std::uint32_t> region_;     // per local tile
    std::vector<std::uint64_t> firstTile_;  // per region
};

}  // namespace ascendsim
