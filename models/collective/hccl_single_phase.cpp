#include "models/collective/hccl_single_phase.h"

#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

CollectiveSchedule planMeshAllGather(std::uint64_t chunkBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link) {
    return planOneServerCollective(CollectiveOp::AllGather, chunkBytes, ranks, rank, link,
                                   "an allgather");
}

CollectiveSchedule planMeshReduceScatter(std::uint64_t chunkBytes, std::uint32_t ranks,
                                         std::uint32_t rank, const HcclLinkConfig& link) {
    return planOneServerCollective(CollectiveOp::ReduceScatter, chunkBytes, ranks, rank, link,
                                   "a reducescatter");
}

}  // namespace ascendsim
