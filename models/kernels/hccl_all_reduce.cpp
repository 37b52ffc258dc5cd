#include "models/kernels/hccl_all_reduce.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ascendsim {

namespace {

std::uint64_t microsToNs(double us) {
    return static_cast<std::uint64_t>(std::llround(us * 1000.0));
}

// GB/s is 1e9 B/s, i.e. bytes per ns.
std::uint64_t bytesNs(std::uint64_t bytes, double gbps) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) / gbps));
}

// Appends the tasks of one rank in issue order and numbers them.
class TaskList {
  public:
    explicit TaskList(std::uint32_t rank) : rank_(rank) {}

    std::uint64_t add(HcclTaskKind kind, std::uint32_t plane, std::uint64_t startNs,
                      std::uint64_t durationNs, std::uint32_t dstRank, std::uint64_t bytes,
                      HcclLinkType link) {
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
    std::vector<HcclTask> take() { return std::move(tasks_); }

  private:
    std::uint32_t rank_;
    std::vector<HcclTask> tasks_;
};

struct PhaseTiming {
    std::uint64_t recordNs;
    std::uint64_t waitNs;
    std::uint64_t latencyNs;
};

// One phase on every peer plane: handshake, the transfer, handshake; the closing wait lasts
// until `phaseEndNs`, when the slowest transfer of every rank has signalled.
std::uint64_t runPhase(TaskList& tasks, std::uint64_t startNs, HcclTaskKind transfer, double gbps,
                       std::uint64_t totalBytes, std::uint32_t ranks, std::uint32_t rank,
                       const PhaseTiming& t) {
    std::uint64_t slowestTransferNs = 0;
    for (std::uint32_t owner = 0; owner < ranks; ++owner)
        slowestTransferNs = std::max(slowestTransferNs,
                                     bytesNs(allReduceSliceBytes(totalBytes, ranks, owner), gbps));
    const std::uint64_t phaseEndNs =
        startNs + 2 * t.recordNs + 2 * t.waitNs + t.latencyNs + slowestTransferNs;
    for (std::uint32_t plane = 1; plane < ranks; ++plane) {
        const std::uint32_t peer = (rank + plane) % ranks;
        const std::uint64_t slice = allReduceSliceBytes(totalBytes, ranks, peer);
        std::uint64_t now = tasks.add(HcclTaskKind::NotifyRecord, plane, startNs, t.recordNs, peer,
                                      0, HcclLinkType::None);
        now =
            tasks.add(HcclTaskKind::NotifyWait, plane, now, t.waitNs, peer, 0, HcclLinkType::None);
        now = tasks.add(transfer, plane, now, t.latencyNs + bytesNs(slice, gbps), peer, slice,
                        HcclLinkType::Hccs);
        now = tasks.add(HcclTaskKind::NotifyRecord, plane, now, t.recordNs, peer, 0,
                        HcclLinkType::None);
        tasks.add(HcclTaskKind::NotifyWait, plane, now, std::max(phaseEndNs - now, t.waitNs), peer,
                  0, HcclLinkType::None);
    }
    return phaseEndNs;
}

}  // namespace

std::uint64_t allReduceSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks,
                                  std::uint32_t owner) {
    const std::uint64_t even = (totalBytes + ranks - 1) / ranks;
    const std::uint64_t slice =
        (even + kHcclSliceAlignBytes - 1) / kHcclSliceAlignBytes * kHcclSliceAlignBytes;
    const std::uint64_t begin = std::min(totalBytes, slice * owner);
    const std::uint64_t end = owner + 1 == ranks ? totalBytes : std::min(totalBytes, begin + slice);
    return end - begin;
}

CollectiveSchedule planMeshAllReduce(std::uint64_t totalBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link) {
    if (link.linkBandwidthGBps <= 0.0 || link.maxRanks < 2)
        throw std::invalid_argument("the chip config has no hccl link model (section 'hccl')");
    if (ranks < 2 || ranks > link.maxRanks)
        throw std::invalid_argument("an allreduce over " + std::to_string(ranks) +
                                    " ranks needs 2.." + std::to_string(link.maxRanks) +
                                    " ranks (one server)");
    if (rank >= ranks)
        throw std::invalid_argument("rank " + std::to_string(rank) + " outside the group");
    const PhaseTiming timing{microsToNs(link.notifyRecordUs), microsToNs(link.notifyWaitUs),
                             microsToNs(link.transferLatencyUs)};
    const std::uint64_t ownSlice = allReduceSliceBytes(totalBytes, ranks, rank);
    const std::uint64_t localCopyNs = bytesNs(ownSlice, link.localCopyBandwidthGBps);

    // Slice 0 is never smaller than another: the phases start when every rank's copy is done.
    const std::uint64_t slowestLocalCopyNs =
        bytesNs(allReduceSliceBytes(totalBytes, ranks, 0), link.localCopyBandwidthGBps);

    TaskList tasks(rank);
    tasks.add(HcclTaskKind::Memcpy, 0, 0, localCopyNs, rank, ownSlice, HcclLinkType::OnChip);
    std::uint64_t now = runPhase(tasks, slowestLocalCopyNs, HcclTaskKind::ReduceInline,
                                 link.reduceBandwidthGBps, totalBytes, ranks, rank, timing);
    tasks.add(HcclTaskKind::Memcpy, 0, now, localCopyNs, rank, ownSlice, HcclLinkType::OnChip);
    now = runPhase(tasks, now + slowestLocalCopyNs, HcclTaskKind::Memcpy, link.linkBandwidthGBps,
                   totalBytes, ranks, rank, timing);
    CollectiveSchedule schedule;
    schedule.tasks = tasks.take();
    schedule.durationNs = now;
    return schedule;
}

}  // namespace ascendsim
