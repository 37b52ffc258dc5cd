#include "models/collective/hccl_mesh_phase.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ascendsim {

std::uint64_t meshSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks, std::uint32_t owner,
                             std::uint64_t alignBytes) {
    const std::uint64_t even = (totalBytes + ranks - 1) / ranks;
    const std::uint64_t slice = (even + alignBytes - 1) / alignBytes * alignBytes;
    const std::uint64_t begin = std::min(totalBytes, slice * owner);
    const std::uint64_t end = owner + 1 == ranks ? totalBytes : std::min(totalBytes, begin + slice);
    return end - begin;
}

std::vector<std::uint64_t> meshSlices(std::uint64_t totalBytes, std::uint32_t ranks,
                                      std::uint64_t alignBytes) {
    std::vector<std::uint64_t> slices;
    for (std::uint32_t owner = 0; owner < ranks; ++owner)
        slices.push_back(meshSliceBytes(totalBytes, ranks, owner, alignBytes));
    return slices;
}

std::uint64_t hcclTransferNs(std::uint64_t bytes, double gbps) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) / gbps));
}

std::uint64_t meshPhaseNs(const MeshPhaseTiming& t, double gbps, std::uint64_t slowestBytes) {
    return 2 * t.recordNs + 2 * t.waitNs + t.latencyNs + hcclTransferNs(slowestBytes, gbps);
}

std::uint64_t HcclTaskList::add(HcclTaskKind kind, std::uint32_t plane, std::uint64_t startNs,
                                std::uint64_t durationNs, std::uint32_t dstRank,
                                std::uint64_t bytes, HcclLinkType link) {
    HcclTask t;
    t.kind = kind;
    t.plane = plane;
    t.contextId = static_cast<std::uint32_t>(tasks_.size());
    t.startNs = startNs;
    t.durationNs = durationNs;
    t.srcRank = rank_;
    t.dstRank = dstRank;
    t.sizeBytes = bytes;
    t.link = link;
    tasks_.push_back(t);
    return startNs + durationNs;
}

std::vector<PeerExchange> exchangeWithEveryPeer(std::uint32_t rank,
                                                const std::vector<std::uint64_t>& sliceBytes) {
    const auto ranks = static_cast<std::uint32_t>(sliceBytes.size());
    std::vector<PeerExchange> exchanges;
    for (std::uint32_t plane = 1; plane < ranks; ++plane) {
        const std::uint32_t peer = (rank + plane) % ranks;
        exchanges.push_back({peer, sliceBytes[peer]});
    }
    return exchanges;
}

void checkMeshGroup(const HcclLinkConfig& link, std::uint32_t ranks, std::uint32_t rank,
                    const std::string& collective) {
    if (link.linkBandwidthGBps <= 0.0 || link.npusPerServer < 2)
        throw std::invalid_argument("the chip config has no hccl link model (section 'hccl')");
    if (ranks < 2 || ranks > link.npusPerServer)
        throw std::invalid_argument(collective + " over " + std::to_string(ranks) +
                                    " ranks needs 2.." + std::to_string(link.npusPerServer) +
                                    " ranks (one server)");
    if (rank >= ranks)
        throw std::invalid_argument("rank " + std::to_string(rank) + " outside the group");
}

CollectiveSchedule planOneServerCollective(CollectiveOp op, std::uint64_t bytes,
                                           std::uint32_t ranks, std::uint32_t rank,
                                           const HcclLinkConfig& link,
                                           const std::string& collective) {
    checkMeshGroup(link, ranks, rank, collective);
    CollectiveRequest request;
    request.op = op;
    request.bytes = bytes;
    request.groupRanks.resize(ranks);
    std::iota(request.groupRanks.begin(), request.groupRanks.end(), 0u);
    const ClusterTopology topology(link);
    return memberSchedule(planCollective(request, topology), rank, topology);
}

}  // namespace ascendsim
