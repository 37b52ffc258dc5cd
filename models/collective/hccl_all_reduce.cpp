#include "models/collective/hccl_all_reduce.h"

#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

std::uint64_t allReduceSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks,
                                  std::uint32_t owner) {
    return meshSliceBytes(totalBytes, ranks, owner, kHcclSliceAlignBytes);
}

CollectiveSchedule planMeshAllReduce(std::uint64_t totalBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link) {
    return planOneServerCollective(CollectiveOp::AllReduce, totalBytes, ranks, rank, link,
                                   "an allreduce");
}

}  // namespace ascendsim
