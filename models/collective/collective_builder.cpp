#include "models/collective/collective_builder.h"

#include <algorithm>

namespace ascendsim {

std::optional<std::uint32_t> SubGroup::indexOf(std::uint32_t groupRank) const {
    const auto it = std::find(ranks.begin(), ranks.end(), groupRank);
    if (it == ranks.end()) return std::nullopt;
    return static_cast<std::uint32_t>(it - ranks.begin());
}

MeshPhaseTiming phaseTimingOf(const ClusterTopology& topology, HcclLinkType transport) {
    return {topology.notifyRecordNs(), topology.notifyWaitNs(), topology.latencyNs(transport)};
}

CollectiveBuilder::CollectiveBuilder(const CollectiveRequest& request,
                                     const ClusterTopology& topology,
                                     std::optional<std::uint32_t> member)
    : request_(request), topology_(topology), member_(member) {}

void CollectiveBuilder::record(const std::string& name, HcclLinkType transport, bool reduces,
                               std::uint64_t bytes, std::uint64_t durationNs) {
    if (!phases_.empty()) {
        CollectivePhase& last = phases_.back();
        if (last.name == name && last.transport == transport && last.reduces == reduces &&
            last.bytesPerStep == bytes) {
            ++last.steps;
            last.durationNs += durationNs;
            return;
        }
    }
    phases_.push_back({name, transport, reduces, 1, bytes, durationNs});
}

std::uint64_t CollectiveBuilder::phase(const std::string& name, const SubGroup& group,
                                       std::uint64_t startNs, bool reduces,
                                       HcclLinkType transport,
                                       const std::vector<PeerExchange>& exchanges,
                                       std::uint64_t slowestBytes) {
    const MeshPhaseTiming t = phaseTimingOf(topology_, transport);
    const double gbps = topology_.rateGBps(transport, reduces);
    const std::uint64_t durationNs = meshPhaseNs(t, gbps, slowestBytes);
    record(name, transport, reduces, slowestBytes, durationNs);
    const std::uint64_t endNs = startNs + durationNs;
    if (!member_) return endNs;
    const std::optional<std::uint32_t> self = group.indexOf(*member_);
    if (!self) return endNs;

    const auto size = static_cast<std::uint32_t>(group.ranks.size());
    const std::uint32_t me = request_.groupRanks[*member_];
    HcclTaskList list(*member_);
    for (const PeerExchange& exchange : exchanges) {
        const std::uint32_t plane = (exchange.peer + size - *self) % size + group.planeOffset;
        const std::uint32_t peer = group.ranks[exchange.peer];
        std::uint64_t now = list.add(HcclTaskKind::NotifyRecord, plane, startNs, t.recordNs, peer,
                                     0, HcclLinkType::None);
        now = list.add(HcclTaskKind::NotifyWait, plane, now, t.waitNs, peer, 0, HcclLinkType::None);
        if (exchange.bytes) {
            // Each link moves at its own transport's rate (an SIO pair inside an HCCS phase).
            const HcclLinkType link = topology_.transportBetween(me, request_.groupRanks[peer]);
            const std::uint64_t ns = reduces ? topology_.reduceTransferNs(link, *exchange.bytes)
                                             : topology_.transferNs(link, *exchange.bytes);
            now = list.add(reduces ? HcclTaskKind::ReduceInline : HcclTaskKind::Memcpy, plane, now,
                           ns, peer, *exchange.bytes, link);
        }
        now = list.add(HcclTaskKind::NotifyRecord, plane, now, t.recordNs, peer, 0,
                       HcclLinkType::None);
        list.add(HcclTaskKind::NotifyWait, plane, now, std::max(endNs - std::min(endNs, now),
                                                                t.waitNs),
                 peer, 0, HcclLinkType::None);
    }
    for (HcclTask task : list.take()) {
        task.contextId = static_cast<std::uint32_t>(tasks_.size());
        tasks_.push_back(task);
    }
    return endNs;
}

std::uint64_t CollectiveBuilder::localCopy(const std::string& name, std::uint64_t startNs,
                                           std::optional<std::uint64_t> bytes,
                                           std::uint64_t slowestBytes) {
    const std::uint64_t durationNs = topology_.transferNs(HcclLinkType::OnChip, slowestBytes);
    record(name, HcclLinkType::OnChip, false, slowestBytes, durationNs);
    if (member_ && bytes) {
        HcclTask t;
        t.kind = HcclTaskKind::Memcpy;
        t.plane = 0;
        t.contextId = static_cast<std::uint32_t>(tasks_.size());
        t.startNs = startNs;
        t.durationNs = topology_.transferNs(HcclLinkType::OnChip, *bytes);
        t.srcRank = *member_;
        t.dstRank = *member_;
        t.sizeBytes = *bytes;
        t.link = HcclLinkType::OnChip;
        tasks_.push_back(t);
    }
    return startNs + durationNs;
}

}  // namespace ascendsim
