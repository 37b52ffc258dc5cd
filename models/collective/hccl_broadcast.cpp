#include "models/collective/hccl_broadcast.h"

#include <algorithm>

#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

std::uint64_t broadcastSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks,
                                  std::uint32_t owner) {
    return meshSliceBytes(totalBytes, ranks, owner, kHcclBroadcastSliceAlignBytes);
}

CollectiveSchedule planMeshBroadcast(std::uint64_t totalBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link) {
    checkMeshGroup(link, ranks, rank, "a broadcast");
    const MeshPhaseTiming timing = MeshPhaseTiming::of(link);
    const std::vector<std::uint64_t> slices =
        meshSlices(totalBytes, ranks, kHcclBroadcastSliceAlignBytes);
    const std::uint64_t largestScatteredSlice = *std::max_element(slices.begin() + 1, slices.end());
    const std::uint64_t wholeCopyNs = hcclTransferNs(totalBytes, link.localCopyBandwidthGBps);
    const bool root = rank == kBroadcastRootRank;

    HcclTaskList tasks(rank);
    if (root) tasks.addLocalCopy(0, totalBytes, link);
    // Scatter: the root only signals that its buffer is ready; the others read their slice.
    std::vector<PeerExchange> scatter;
    if (root) {
        for (const PeerExchange& peer : exchangeWithEveryPeer(rank, slices))
            scatter.push_back({peer.peer, std::nullopt});
    } else {
        scatter.push_back({kBroadcastRootRank, slices[rank]});
    }
    std::uint64_t now =
        runMeshPhase(tasks, wholeCopyNs, HcclTaskKind::Memcpy, link.linkBandwidthGBps, scatter,
                     largestScatteredSlice, rank, ranks, timing);
    now = runMeshPhase(tasks, now, HcclTaskKind::Memcpy, link.linkBandwidthGBps,
                       exchangeWithEveryPeer(rank, slices), slices.front(), rank, ranks, timing);
    if (!root) tasks.addLocalCopy(now, totalBytes, link);
    CollectiveSchedule schedule;
    schedule.tasks = tasks.take();
    // Every rank's op ends when the last copy does (the others' copies start together).
    schedule.durationNs = now + wholeCopyNs;
    return schedule;
}

}  // namespace ascendsim
