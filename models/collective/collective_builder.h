#pragma once
// Writes an algorithm once for both uses: the plan's phases (group-wide, what the link model
// charges) and one member's tasks. An algorithm is a sequence of mesh phases, each among a
// sub-group of the group's members (the members of one server, or the members of the same local
// position on every server); every phase ends on all members together, when the slowest
// transfer of any member is done, so a member outside a phase's sub-group just waits for its end.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/collective/cluster_topology.h"
#include "models/collective/collective_plan.h"
#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

// Members of one phase, by index: index i is group rank ranks[i].
struct SubGroup {
    std::vector<std::uint32_t> ranks;
    std::uint32_t planeOffset = 0;  // its planes follow the planes of earlier sub-groups
    std::optional<std::uint32_t> indexOf(std::uint32_t groupRank) const;
};

class CollectiveBuilder {
  public:
    // `member`: the group rank whose tasks to build, or nullopt to build only the phases.
    CollectiveBuilder(const CollectiveRequest& request, const ClusterTopology& topology,
                      std::optional<std::uint32_t> member);

    // One mesh phase from `startNs` among `group`: the member (if it is in `group`) runs its
    // `exchanges` (peers by index in `group`); the phase lasts as long as the largest transfer
    // of any member (`slowestBytes`) over `transport`. Records the phase; returns its end.
    std::uint64_t phase(const std::string& name, const SubGroup& group, std::uint64_t startNs,
                        bool reduces, HcclLinkType transport,
                        const std::vector<PeerExchange>& exchanges, std::uint64_t slowestBytes);

    // A local SDMA copy of this member's `bytes` (nullopt: it copies nothing) while the slowest
    // member copies `slowestBytes`. Records the phase; returns when the slowest copy ends.
    std::uint64_t localCopy(const std::string& name, std::uint64_t startNs,
                            std::optional<std::uint64_t> bytes, std::uint64_t slowestBytes);

    bool buildsTasks() const { return member_.has_value(); }
    std::uint32_t member() const { return member_.value_or(0); }
    std::vector<CollectivePhase> takePhases() { return std::move(phases_); }
    std::vector<HcclTask> takeTasks() { return std::move(tasks_); }

  private:
    void record(const std::string& name, HcclLinkType transport, bool reduces,
                std::uint64_t bytes, std::uint64_t durationNs);

    const CollectiveRequest& request_;
    const ClusterTopology& topology_;
    std::optional<std::uint32_t> member_;
    std::vector<CollectivePhase> phases_;
    std::vector<HcclTask> tasks_;
};

// The timing of mesh phases over `transport` (handshakes from the chip's link model, the
// transport's latency).
MeshPhaseTiming phaseTimingOf(const ClusterTopology& topology, HcclLinkType transport);

}  // namespace ascendsim
