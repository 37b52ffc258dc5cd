#include "models/collective/hccl_broadcast.h"

#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

std::uint64_t broadcastSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks,
                                  std::uint32_t owner) {
    return meshSliceBytes(totalBytes, ranks, owner, kHcclBroadcastSliceAlignBytes);
}

CollectiveSchedule planMeshBroadcast(std::uint64_t totalBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link) {
    return planOneServerCollective(CollectiveOp::Broadcast, totalBytes, ranks, rank, link,
                                   "a broadcast");
}

}  // namespace ascendsim
