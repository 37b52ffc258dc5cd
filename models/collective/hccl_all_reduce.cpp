#include "models/collective/hccl_all_reduce.h"

#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

std::uint64_t allReduceSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks,
                                  std::uint32_t owner) {
    return meshSliceBytes(totalBytes, ranks, owner, kHcclSliceAlignBytes);
}

CollectiveSchedule planMeshAllReduce(std::uint64_t totalBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link) {
    checkMeshGroup(link, ranks, rank, "an allreduce");
    const MeshPhaseTiming timing = MeshPhaseTiming::of(link);
    const std::vector<std::uint64_t> slices = meshSlices(totalBytes, ranks, kHcclSliceAlignBytes);
    // Slice 0 is never smaller than another: it is the slowest copy and the largest transfer.
    const std::uint64_t largestSlice = slices.front();
    const std::uint64_t slowestLocalCopyNs =
        hcclTransferNs(largestSlice, link.localCopyBandwidthGBps);
    const std::vector<PeerExchange> exchanges = exchangeWithEveryPeer(rank, slices);

    // The phases start when every rank's copy is done.
    HcclTaskList tasks(rank);
    tasks.addLocalCopy(0, slices[rank], link);
    std::uint64_t now =
        runMeshPhase(tasks, slowestLocalCopyNs, HcclTaskKind::ReduceInline,
                     link.reduceBandwidthGBps, exchanges, largestSlice, rank, ranks, timing);
    tasks.addLocalCopy(now, slices[rank], link);
    now = runMeshPhase(tasks, now + slowestLocalCopyNs, HcclTaskKind::Memcpy,
                       link.linkBandwidthGBps, exchanges, largestSlice, rank, ranks, timing);
    CollectiveSchedule schedule;
    schedule.tasks = tasks.take();
    schedule.durationNs = now;
    return schedule;
}

}  // namespace ascendsim
