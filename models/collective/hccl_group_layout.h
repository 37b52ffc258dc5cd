#pragma once
// How a group's members sit on the cluster's servers: the members of each server (the group's
// level-0 sub-groups) and the members at each local position across servers (its level-1
// sub-groups). Servers are numbered in the order the group first reaches them; a member's
// position is its place among its server's members in group order.
#include <cstdint>
#include <vector>

#include "models/collective/cluster_topology.h"
#include "models/collective/collective_builder.h"

namespace ascendsim {

class GroupLayout {
  public:
    // Throws std::invalid_argument for a group whose servers hold different member counts
    // (HCCL's asymmetric algorithms are not modelled).
    GroupLayout(const std::vector<std::uint32_t>& groupRanks, const ClusterTopology& topology);

    std::uint32_t servers() const { return static_cast<std::uint32_t>(members_.size()); }
    std::uint32_t perServer() const { return perServer_; }
    std::uint32_t serverOf(std::uint32_t member) const { return server_[member]; }
    std::uint32_t positionOf(std::uint32_t member) const { return position_[member]; }
    // The group rank at `position` on the group's `server`-th server.
    std::uint32_t memberAt(std::uint32_t server, std::uint32_t position) const {
        return members_[server][position];
    }

    // The members on `member`'s server (planes 1 .. perServer - 1).
    SubGroup intraOf(std::uint32_t member) const;
    // The members at `member`'s position on every server (planes after the intra planes).
    SubGroup interOf(std::uint32_t member) const;

  private:
    std::vector<std::vector<std::uint32_t>> members_;  // per server, group ranks
    std::vector<std::uint32_t> server_;
    std::vector<std::uint32_t> position_;
    std::uint32_t perServer_ = 0;
};

}  // namespace ascendsim
