#pragma once
// The tasks one rank runs for one HCCL collective, as CANN's HCCL trace reports them (formats.md
// §4.2 "Communication": Notify_Record, Notify_Wait, Memcpy, Reduce_Inline on the op's planes).
// Plain data: the collective models (hccl_*.cpp) produce it, the run record carries it, the
// communication writers read it.
#include <cstdint>
#include <vector>

namespace ascendsim {

enum class HcclTaskKind : std::uint8_t { NotifyRecord, NotifyWait, Memcpy, ReduceInline };

// Where a task's bytes travel: a local SDMA copy, a peer link (HCCS inside a server, RDMA over
// RoCE between servers, SIO between the two dies of a card, PCIe on cards without HCCS), or
// nowhere (notifies).
enum class HcclLinkType : std::uint8_t { OnChip, Hccs, None, Rdma, Sio, Pcie };

// HCCL's "no rank" value in the dst rank of a task that has no peer.
inline constexpr std::uint32_t kNoPeerRank = 0xFFFFFFFFu;

struct HcclTask {
    HcclTaskKind kind = HcclTaskKind::NotifyRecord;
    std::uint32_t plane = 0;      // 0: the op's main stream; k >= 1: the plane of peer link k
    std::uint32_t contextId = 0;  // issue order within the op
    std::uint64_t startNs = 0;    // from the op's start
    std::uint64_t durationNs = 0;
    std::uint32_t srcRank = 0;
    std::uint32_t dstRank = kNoPeerRank;
    std::uint64_t sizeBytes = 0;  // Memcpy / Reduce_Inline
    HcclLinkType link = HcclLinkType::None;
};

// One rank's part of one collective: its tasks and how long the whole op takes.
struct CollectiveSchedule {
    std::vector<HcclTask> tasks;  // in issue order
    std::uint64_t durationNs = 0;
};

}  // namespace ascendsim
