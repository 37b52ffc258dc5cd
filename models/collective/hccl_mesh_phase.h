#pragma once
// The building blocks of HCCL's level-0 "mesh" algorithms (collective_builder.h runs the phases):
// per-rank slices of a buffer, the task list of one rank, the exchanges of one phase in which a
// rank moves data to its peers over the peer links, guarded by Notify_Record / Notify_Wait
// handshakes so that the phase ends on every rank together, and how long such a phase lasts.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/collective/collective_plan.h"
#include "models/collective/hccl_task.h"

namespace ascendsim {

// Bytes of rank `owner`'s slice when HCCL cuts a `totalBytes` buffer over `ranks`: an even share
// rounded up to `alignBytes`, the last rank taking what is left.
std::uint64_t meshSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks, std::uint32_t owner,
                             std::uint64_t alignBytes);

// Every rank's slice, indexed by rank (meshSliceBytes of each owner).
std::vector<std::uint64_t> meshSlices(std::uint64_t totalBytes, std::uint32_t ranks,
                                      std::uint64_t alignBytes);

// GB/s is 1e9 B/s, i.e. bytes per ns; rounded to 1 ns.
std::uint64_t hcclTransferNs(std::uint64_t bytes, double gbps);

// The fixed costs of one phase's tasks: the chip's handshakes, the transport's latency.
struct MeshPhaseTiming {
    std::uint64_t recordNs = 0;
    std::uint64_t waitNs = 0;
    std::uint64_t latencyNs = 0;  // of one transfer over a link
};

// Appends the tasks of one rank in issue order and numbers them.
class HcclTaskList {
  public:
    explicit HcclTaskList(std::uint32_t rank) : rank_(rank) {}

    // Returns when the task ends.
    std::uint64_t add(HcclTaskKind kind, std::uint32_t plane, std::uint64_t startNs,
                      std::uint64_t durationNs, std::uint32_t dstRank, std::uint64_t bytes,
                      HcclLinkType link);
    std::vector<HcclTask> take() { return std::move(tasks_); }

  private:
    std::uint32_t rank_;
    std::vector<HcclTask> tasks_;
};

// What a rank does with one peer in a phase: the bytes it moves over that peer's link, or only
// the handshakes (nullopt) when it has nothing to move but the peer waits for it.
struct PeerExchange {
    std::uint32_t peer = 0;
    std::optional<std::uint64_t> bytes;
};

// Exchanges with every peer, each moving that peer's slice (`sliceBytes` indexed by rank).
std::vector<PeerExchange> exchangeWithEveryPeer(std::uint32_t rank,
                                                const std::vector<std::uint64_t>& sliceBytes);

// How long one mesh phase lasts on every rank: both handshakes, then the slowest transfer of any
// rank (`slowestBytes` at `gbps` after the link latency).
std::uint64_t meshPhaseNs(const MeshPhaseTiming& timing, double gbps, std::uint64_t slowestBytes);

// Throws std::invalid_argument when the chip has no link model, `ranks` is not 2..npusPerServer or
// `rank` is outside the group; `collective` names the op in the message ("an allgather").
void checkMeshGroup(const HcclLinkConfig& link, std::uint32_t ranks, std::uint32_t rank,
                    const std::string& collective);

// `rank`'s schedule of `op` over the one-server group 0..ranks-1 (collective_plan.h's plan with
// no level 1), after checkMeshGroup. `bytes` as CollectiveRequest::bytes.
CollectiveSchedule planOneServerCollective(CollectiveOp op, std::uint64_t bytes,
                                           std::uint32_t ranks, std::uint32_t rank,
                                           const HcclLinkConfig& link,
                                           const std::string& collective);

}  // namespace ascendsim
