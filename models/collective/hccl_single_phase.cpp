#include "models/collective/hccl_single_phase.h"

#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

namespace {

// The chunks are the user's buffers, so no slice rounding applies: every peer moves one chunk.
CollectiveSchedule planChunkExchange(std::uint64_t chunkBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link,
                                     HcclTaskKind transfer, double gbps) {
    const std::vector<std::uint64_t> chunks(ranks, chunkBytes);
    HcclTaskList tasks(rank);
    const std::uint64_t copiedNs = tasks.addLocalCopy(0, chunkBytes, link);
    const std::uint64_t phaseEndNs =
        runMeshPhase(tasks, copiedNs, transfer, gbps, exchangeWithEveryPeer(rank, chunks),
                     chunkBytes, rank, ranks, MeshPhaseTiming::of(link));
    CollectiveSchedule schedule;
    schedule.durationNs = tasks.addLocalCopy(phaseEndNs, chunkBytes, link);
    schedule.tasks = tasks.take();
    return schedule;
}

}  // namespace

CollectiveSchedule planMeshAllGather(std::uint64_t chunkBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link) {
    checkMeshGroup(link, ranks, rank, "an allgather");
    return planChunkExchange(chunkBytes, ranks, rank, link, HcclTaskKind::Memcpy,
                             link.linkBandwidthGBps);
}

CollectiveSchedule planMeshReduceScatter(std::uint64_t chunkBytes, std::uint32_t ranks,
                                         std::uint32_t rank, const HcclLinkConfig& link) {
    checkMeshGroup(link, ranks, rank, "a reducescatter");
    return planChunkExchange(chunkBytes, ranks, rank, link, HcclTaskKind::ReduceInline,
                             link.reduceBandwidthGBps);
}

}  // namespace ascendsim
