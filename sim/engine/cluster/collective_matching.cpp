#include "sim/engine/cluster/collective_matching.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <tuple>

namespace ascendsim {

namespace {

enum class Side : std::uint8_t { Collective, Send, Recv, Pair };

struct Match {
    Side side;
    std::int32_t peer;  // group rank; -1 for a collective
};

Match matchOf(const CollectiveArrival& a) {
    if (!isPointToPointOp(a.kind)) return {Side::Collective, -1};
    if (a.kind == CollectiveKind::BatchSendRecv) {
        // Megatron's calls: to and from one neighbour, or one direction alone.
        if (a.sendTo >= 0 && a.recvFrom >= 0 && a.sendTo != a.recvFrom)
            throw std::logic_error("a BatchSendRecv with two peers cannot be matched (one peer per batch)");
        return {Side::Pair, a.sendTo >= 0 ? a.sendTo : a.recvFrom};
    }
    return a.kind == CollectiveKind::Send ? Match{Side::Send, a.sendTo} : Match{Side::Recv, a.recvFrom};
}

// The side the other end of `m` is on, seen from the peer whose own group rank is `self`.
Match counterpart(const Match& m, std::int32_t self) {
    switch (m.side) {
        case Side::Send:
            return {Side::Recv, self};
        case Side::Recv:
            return {Side::Send, self};
        case Side::Pair:
            return {Side::Pair, self};
        case Side::Collective:
            break;
    }
    return m;
}

using MatchKey = std::tuple<std::string, Side, std::int32_t, std::uint32_t>;  // group, side, peer, n

// Per op of a class: its key (with its ordinal among ops of the same group, side and peer), and
// where each key is.
struct ClassIndex {
    std::vector<MatchKey> keys;
    std::map<MatchKey, std::size_t> position;
};

ClassIndex indexOf(const std::vector<CollectiveArrival>& arrivals) {
    ClassIndex index;
    std::map<std::tuple<std::string, Side, std::int32_t>, std::uint32_t> seen;
    for (std::size_t k = 0; k < arrivals.size(); ++k) {
        const Match m = matchOf(arrivals[k]);
        const std::uint32_t n = seen[{arrivals[k].group, m.side, m.peer}]++;
        index.keys.emplace_back(arrivals[k].group, m.side, m.peer, n);
        index.position.emplace(index.keys.back(), k);
    }
    return index;
}

constexpr std::array<const char*, 6> kGroups = {"world", "tp", "dp", "pp", "ep", "mp"};

}  // namespace

std::vector<std::uint64_t> releasesOf(const ParallelLayout& layout, std::uint32_t rank,
                                      const std::vector<SimulationResult>& classes,
                                      const std::vector<std::uint32_t>& classOfRank) {
    std::map<std::uint32_t, ClassIndex> indexes;
    const auto indexOfClass = [&](std::uint32_t c) -> const ClassIndex& {
        auto it = indexes.find(c);
        if (it == indexes.end()) it = indexes.emplace(c, indexOf(classes[c].collectiveArrivals)).first;
        return it->second;
    };
    const auto& own = classes[classOfRank[rank]].collectiveArrivals;
    const ClassIndex& mine = indexOfClass(classOfRank[rank]);
    std::map<std::string, std::vector<std::uint32_t>> membersOf;
    std::vector<std::uint64_t> release(own.size(), 0);
    for (std::size_t k = 0; k < own.size(); ++k) {
        const std::string& group = own[k].group;
        auto members = membersOf.find(group);
        if (members == membersOf.end())
            members = membersOf.emplace(group, groupMembers(layout, group, rank)).first;
        const std::vector<std::uint32_t>& ranks = members->second;
        const auto self = static_cast<std::int32_t>(std::find(ranks.begin(), ranks.end(), rank) - ranks.begin());
        const auto& [g, side, peer, n] = mine.keys[k];
        release[k] = own[k].arrivalNs;
        const auto meet = [&](std::uint32_t other, const MatchKey& key) {
            const std::uint32_t c = classOfRank.at(other);
            const ClassIndex& theirs = indexOfClass(c);
            const auto at = theirs.position.find(key);
            if (at == theirs.position.end() ||
                (side == Side::Collective && classes[c].collectiveArrivals[at->second].kind != own[k].kind))
                throw std::logic_error("rank " + std::to_string(rank) + "'s op " + std::to_string(k) + " (" + group +
                                       ") has no match on rank " + std::to_string(other));
            release[k] = std::max(release[k], classes[c].collectiveArrivals[at->second].arrivalNs);
        };
        if (side == Side::Collective) {
            for (const std::uint32_t m : ranks)
                if (m != rank) meet(m, mine.keys[k]);
            continue;
        }
        if (peer < 0 || static_cast<std::size_t>(peer) >= ranks.size())
            throw std::logic_error("rank " + std::to_string(rank) + "'s p2p op " + std::to_string(k) +
                                   " names a peer outside its group");
        const Match other = counterpart({side, peer}, self);
        meet(ranks[static_cast<std::size_t>(peer)], MatchKey{g, other.side, other.peer, n});
    }
    return release;
}

std::vector<std::uint64_t> packArrivals(const std::vector<CollectiveArrival>& arrivals) {
    std::vector<std::uint64_t> packed;
    packed.reserve(arrivals.size() * 2);
    for (const CollectiveArrival& a : arrivals) {
        const auto group = std::find(kGroups.begin(), kGroups.end(), a.group);
        if (group == kGroups.end()) throw std::logic_error("an unknown collective group: " + a.group);
        packed.push_back(a.arrivalNs);
        packed.push_back(static_cast<std::uint64_t>(a.kind) | static_cast<std::uint64_t>(group - kGroups.begin()) << 8 |
                         static_cast<std::uint64_t>(a.sendTo + 1) << 16 | static_cast<std::uint64_t>(a.recvFrom + 1) << 40);
    }
    return packed;
}

std::vector<CollectiveArrival> unpackArrivals(const std::vector<std::uint64_t>& packed) {
    if (packed.size() % 2 != 0) throw std::runtime_error("a process sent a truncated list of arrivals");
    std::vector<CollectiveArrival> arrivals;
    for (std::size_t i = 0; i < packed.size(); i += 2) {
        const std::uint64_t meta = packed[i + 1];
        const std::size_t group = (meta >> 8) & 0xff;
        if (group >= kGroups.size()) throw std::runtime_error("a process sent an unknown collective group");
        CollectiveArrival a;
        a.arrivalNs = packed[i];
        a.kind = static_cast<CollectiveKind>(meta & 0xff);
        a.group = kGroups[group];
        a.sendTo = static_cast<std::int32_t>((meta >> 16) & 0xffffff) - 1;
        a.recvFrom = static_cast<std::int32_t>((meta >> 40) & 0xffffff) - 1;
        arrivals.push_back(std::move(a));
    }
    return arrivals;
}

}  // namespace ascendsim
