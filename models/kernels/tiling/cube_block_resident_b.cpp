#include "models/kernels/tiling/cube_block_resident_b.h"

#include <algorithm>
#include <stdexcept>

namespace ascendsim {

CubeBlockResidentB::CubeBlockResidentB(const CubeOperands& operands, const CubeBufferPlan& plan,
                                       std::uint64_t firstTile, std::uint64_t tiles)
    : base_(plan.l1BlockBAddr), regionBytes_(plan.l1BlockBBytes) {
    std::vector<std::uint64_t> seen;
    region_.reserve(tiles);
    for (std::uint64_t t = 0; t < tiles; ++t) {
        if (operands.chunkCount(firstTile + t) != 1)
            throw std::logic_error("a cube plan with a block-resident B needs one chunk a tile");
        const std::uint64_t columns = operands.bColumnsOf(firstTile + t);
        const auto at = std::find(seen.begin(), seen.end(), columns);
        region_.push_back(static_cast<std::uint32_t>(at - seen.begin()));
        if (at == seen.end()) {
            seen.push_back(columns);
            firstTile_.push_back(t);
        }
    }
    if (seen.size() * plan.l1BlockBBytes > plan.l1BiasAddr - plan.l1BlockBAddr)
        throw std::logic_error("a block meets more distinct Bs than its plan's block-resident regions hold");
}

}  // namespace ascendsim
