#include "sim/workload/parallel/parallel_layout.h"

#include <algorithm>
#include <stdexcept>

namespace ascendsim {

namespace {

constexpr const char* kWorldKey = "hccl_world_group";

// Where each family of groups starts in torch's creation counter (see parallelGroupsOf). The dp
// and dp_cp groups each take two numbers (the HCCL group and its gloo twin); a pipeline group
// three (pp, embd, position_embd).
struct GroupNumbering {
    std::uint32_t dp, dpCp, cp, mp, tp, pp, ep, dpModuloEp;
    explicit GroupNumbering(const ParallelLayout& l) {
        const std::uint32_t world = l.worldSize();
        dp = 1;
        dpCp = dp + 2 * l.pp * l.tp;
        cp = dpCp + 2 * l.pp * l.tp;
        mp = cp + world;
        tp = mp + l.dp;
        pp = tp + world / l.tp;
        ep = pp + 3 * l.tp * l.dp;
        dpModuloEp = ep + l.pp * l.tp * (l.dp / l.ep);
    }
};

std::string keyOf(std::uint32_t number) { return "group_name_" + std::to_string(number); }

std::uint32_t rankOf(const ParallelLayout& l, std::uint32_t tpI, std::uint32_t dpI, std::uint32_t ppI) {
    return tpI + l.tp * (dpI + l.dp * ppI);
}

}  // namespace

bool isCollectiveGroupName(const std::string& name) {
    return name == "world" || name == "tp" || name == "dp" || name == "pp" || name == "ep" || name == "mp";
}

std::string collectiveGroupNames() { return "world, tp, dp, pp, ep, mp"; }

std::vector<std::uint32_t> groupMembers(const ParallelLayout& l, const std::string& name, std::uint32_t rank) {
    if (rank >= l.worldSize())
        throw std::invalid_argument("rank " + std::to_string(rank) + " outside the world of " +
                                    std::to_string(l.worldSize()));
    const std::uint32_t tpI = l.tpIndex(rank), dpI = l.dpIndex(rank), ppI = l.ppIndex(rank);
    std::vector<std::uint32_t> members;
    if (name == "world" || name == "default_group") {
        for (std::uint32_t r = 0; r < l.worldSize(); ++r) members.push_back(r);
    } else if (name == "tp") {
        for (std::uint32_t t = 0; t < l.tp; ++t) members.push_back(rankOf(l, t, dpI, ppI));
    } else if (name == "dp" || name == "dp_cp") {
        for (std::uint32_t d = 0; d < l.dp; ++d) members.push_back(rankOf(l, tpI, d, ppI));
    } else if (name == "pp") {
        for (std::uint32_t p = 0; p < l.pp; ++p) members.push_back(rankOf(l, tpI, dpI, p));
    } else if (name == "mp") {
        for (std::uint32_t p = 0; p < l.pp; ++p)
            for (std::uint32_t t = 0; t < l.tp; ++t) members.push_back(rankOf(l, t, dpI, p));
    } else if (name == "embd") {
        members.push_back(rankOf(l, tpI, dpI, 0));
        if (l.pp > 1) members.push_back(rankOf(l, tpI, dpI, l.pp - 1));
    } else if (name == "ep") {
        const std::uint32_t first = dpI / l.ep * l.ep;
        for (std::uint32_t d = first; d < first + l.ep; ++d) members.push_back(rankOf(l, tpI, d, ppI));
    } else if (name == "dp_modulo_exp") {
        for (std::uint32_t d = dpI % l.ep; d < l.dp; d += l.ep) members.push_back(rankOf(l, tpI, d, ppI));
    } else {
        throw std::invalid_argument("unknown parallel group '" + name + "'");
    }
    std::sort(members.begin(), members.end());
    return members;
}

std::vector<ParallelGroup> parallelGroupsOf(const ParallelLayout& l, std::uint32_t rank) {
    const GroupNumbering n(l);
    const std::uint32_t tpI = l.tpIndex(rank), dpI = l.dpIndex(rank), ppI = l.ppIndex(rank);
    const std::uint32_t dpGroup = ppI * l.tp + tpI;
    std::vector<std::pair<std::uint32_t, std::string>> numbered = {
        {0, "default_group"},
        {n.dp + 2 * dpGroup, "dp"},
        {n.dpCp + 2 * dpGroup, "dp_cp"},
        {n.mp + dpI, "mp"},
        {n.tp + rank / l.tp, "tp"},
        {n.pp + 3 * (rank % (l.tp * l.dp)), "pp"},
        {n.pp + 3 * (rank % (l.tp * l.dp)) + 1, "embd"},
    };
    if (l.ep > 1) {
        numbered.emplace_back(n.ep + dpGroup * (l.dp / l.ep) + dpI / l.ep, "ep");
        numbered.emplace_back(n.dpModuloEp + dpGroup * l.ep + dpI % l.ep, "dp_modulo_exp");
    }
    std::vector<ParallelGroup> groups;
    for (const auto& [number, name] : numbered) {
        ParallelGroup g;
        g.key = keyOf(number);
        g.name = name == "ep" ? "exp" : name;
        g.globalRanks = groupMembers(l, name, rank);
        g.groupRank = static_cast<std::uint32_t>(
            std::find(g.globalRanks.begin(), g.globalRanks.end(), rank) - g.globalRanks.begin());
        groups.push_back(std::move(g));
    }
    return groups;
}

std::string communicatorHash(const std::string& groupKey) {
    if (groupKey != kWorldKey) {
        std::uint32_t low = 0, high = 0;
        for (const char c : groupKey) {
            high = high * 29u + static_cast<unsigned char>(c);
            low = low * 131u + static_cast<unsigned char>(c);
        }
        return std::to_string((static_cast<std::uint64_t>(high) << 32) | low);
    }
    constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;
    constexpr std::uint64_t kFnvPrime = 1099511628211ULL;
    std::uint64_t hash = kFnvOffset;
    for (const char c : groupKey) {
        hash ^= static_cast<unsigned char>(c);
        hash *= kFnvPrime;
    }
    return std::to_string(hash);
}

std::string collectiveGroupKey(const ParallelLayout& l, const std::string& name, std::uint32_t rank) {
    if (!l.declared) return kWorldKey;
    if (name == "world") return keyOf(0);
    const std::string listed = name == "ep" ? "exp" : name == "dp" ? "dp_cp" : name;
    for (const ParallelGroup& g : parallelGroupsOf(l, rank))
        if (g.name == listed) return g.key;
    throw std::invalid_argument("unknown collective group '" + name + "'");
}

}  // namespace ascendsim
