#include "models/collective/hccl_group_layout.h"

#include <map>
#include <stdexcept>
#include <string>

namespace ascendsim {

GroupLayout::GroupLayout(const std::vector<std::uint32_t>& groupRanks,
                         const ClusterTopology& topology) {
    std::map<std::uint32_t, std::uint32_t> serverIndex;  // cluster server -> group's index
    for (std::uint32_t member = 0; member < groupRanks.size(); ++member) {
        const std::uint32_t server = topology.serverOf(groupRanks[member]);
        const auto [it, added] =
            serverIndex.emplace(server, static_cast<std::uint32_t>(members_.size()));
        if (added) members_.emplace_back();
        server_.push_back(it->second);
        position_.push_back(static_cast<std::uint32_t>(members_[it->second].size()));
        members_[it->second].push_back(member);
    }
    perServer_ = members_.empty() ? 0 : static_cast<std::uint32_t>(members_.front().size());
    for (std::uint32_t s = 0; s < members_.size(); ++s)
        if (members_[s].size() != perServer_)
            throw std::invalid_argument(
                "the group has " + std::to_string(perServer_) + " members on its first server and " +
                std::to_string(members_[s].size()) + " on its server " + std::to_string(s) +
                ": HCCL's asymmetric algorithms are not modelled");
}

SubGroup GroupLayout::intraOf(std::uint32_t member) const {
    return {members_[server_[member]], 0};
}

SubGroup GroupLayout::interOf(std::uint32_t member) const {
    SubGroup inter;
    for (const auto& server : members_) inter.ranks.push_back(server[position_[member]]);
    // Intra planes are 1 .. perServer - 1; the inter planes follow.
    inter.planeOffset = perServer_ - 1;
    return inter;
}

}  // namespace ascendsim
