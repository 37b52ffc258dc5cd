#pragma once
// Helpers for the HCCL collective model tests: a link model with round figures and the tasks of
// one schedule picked by kind and plane.
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/collective/hccl_task.h"

namespace ascendsim::testing {

inline HcclLinkConfig roundFigureLink() {
    HcclLinkConfig link;
    link.npusPerServer = 8;
    link.linkBandwidthGBps = 16.0;
    link.reduceBandwidthGBps = 8.0;
    link.localCopyBandwidthGBps = 512.0;
    link.transferLatencyUs = 10.0;
    link.notifyRecordUs = 0.5;
    link.notifyWaitUs = 0.25;
    return link;
}

inline std::vector<HcclTask> tasksOfKind(const CollectiveSchedule& s, HcclTaskKind kind,
                                         HcclLinkType link) {
    std::vector<HcclTask> out;
    for (const auto& t : s.tasks)
        if (t.kind == kind && t.link == link) out.push_back(t);
    return out;
}

// Bytes moved over the peer links, by peer rank.
inline std::map<std::uint32_t, std::uint64_t> linkBytesByPeer(const CollectiveSchedule& s) {
    std::map<std::uint32_t, std::uint64_t> bytes;
    for (const auto& t : s.tasks)
        if (t.link == HcclLinkType::Hccs) bytes[t.dstRank] += t.sizeBytes;
    return bytes;
}

// The end of the last task on each peer plane (every phase ends together on all planes).
inline std::map<std::uint32_t, std::uint64_t> planeEnds(const CollectiveSchedule& s) {
    std::map<std::uint32_t, std::uint64_t> ends;
    for (const auto& t : s.tasks)
        if (t.plane > 0) ends[t.plane] = std::max(ends[t.plane], t.startNs + t.durationNs);
    return ends;
}

}  // namespace ascendsim::testing
