#include "models/collective/hccl_inter_server.h"

#include <optional>
#include <vector>

namespace ascendsim {

namespace {

std::uint32_t largestPowerOfTwoAtMost(std::uint32_t n) {
    std::uint32_t p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

// This member's index in `inter`, or nullopt when only phases are built or it is elsewhere.
std::optional<std::uint32_t> selfIn(const CollectiveBuilder& b, const SubGroup& inter) {
    if (!b.buildsTasks()) return std::nullopt;
    return inter.indexOf(b.member());
}

// One step: `sender` (index) moves `bytes` to `receiver`; both handshake. Other members idle.
std::vector<PeerExchange> oneWay(std::optional<std::uint32_t> self, std::uint32_t sender,
                                 std::uint32_t receiver, std::uint64_t bytes) {
    if (self == sender) return {{receiver, bytes}};
    if (self == receiver) return {{sender, std::nullopt}};
    return {};
}

// One step of every member exchanging `bytes` with its partner (index XOR distance), among the
// first `active` members.
std::vector<PeerExchange> swapWithPartner(std::optional<std::uint32_t> self,
                                          std::uint32_t distance, std::uint32_t active,
                                          std::uint64_t bytes) {
    if (!self || *self >= active) return {};
    return {{*self ^ distance, bytes}};
}

std::uint64_t ringSteps(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t now,
                        const char* name, bool reduces, std::uint64_t blockBytes) {
    const auto servers = static_cast<std::uint32_t>(inter.ranks.size());
    const std::optional<std::uint32_t> self = selfIn(b, inter);
    std::vector<PeerExchange> next;
    if (self) next.push_back({(*self + 1) % servers, blockBytes});
    for (std::uint32_t step = 0; step + 1 < servers; ++step)
        now = b.phase(name, inter, now, reduces, HcclLinkType::Rdma, next, blockBytes);
    return now;
}

// Folds the members past the largest power of two into their partner (index - p2) before a
// halving-doubling run, or unfolds them after it; `toPartner` gives the direction.
std::uint64_t foldStep(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t now,
                       const char* name, bool reduces, std::uint64_t bytes, bool toPartner) {
    const auto servers = static_cast<std::uint32_t>(inter.ranks.size());
    const std::uint32_t p2 = largestPowerOfTwoAtMost(servers);
    if (p2 == servers) return now;
    const std::optional<std::uint32_t> self = selfIn(b, inter);
    std::vector<PeerExchange> exchanges;
    if (self && *self >= p2) exchanges = toPartner ? oneWay(self, *self, *self - p2, bytes)
                                                   : oneWay(self, *self - p2, *self, bytes);
    if (self && *self + p2 < servers)
        exchanges = toPartner ? oneWay(self, *self + p2, *self, bytes)
                              : oneWay(self, *self, *self + p2, bytes);
    return b.phase(name, inter, now, reduces, HcclLinkType::Rdma, exchanges, bytes);
}

}  // namespace

bool isPowerOfTwo(std::uint32_t n) {
    return n != 0 && (n & (n - 1)) == 0;
}

std::uint64_t interReduceScatter(CollectiveBuilder& b, const SubGroup& inter,
                                 std::uint64_t startNs, InterServerAlgorithm algorithm,
                                 std::uint64_t blockBytes) {
    const auto servers = static_cast<std::uint32_t>(inter.ranks.size());
    if (algorithm != InterServerAlgorithm::HalvingDoubling || !isPowerOfTwo(servers))
        return ringSteps(b, inter, startNs, "inter ring reduce-scatter", true, blockBytes);
    const std::optional<std::uint32_t> self = selfIn(b, inter);
    std::uint64_t now = startNs;
    for (std::uint32_t distance = servers / 2; distance >= 1; distance /= 2) {
        const std::uint64_t bytes = blockBytes * distance;  // half of what is still unreduced
        now = b.phase("inter halving reduce-scatter", inter, now, true, HcclLinkType::Rdma,
                      swapWithPartner(self, distance, servers, bytes), bytes);
    }
    return now;
}

std::uint64_t interAllGather(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                             InterServerAlgorithm algorithm, std::uint64_t blockBytes) {
    const auto servers = static_cast<std::uint32_t>(inter.ranks.size());
    if (algorithm != InterServerAlgorithm::HalvingDoubling || !isPowerOfTwo(servers))
        return ringSteps(b, inter, startNs, "inter ring all-gather", false, blockBytes);
    const std::optional<std::uint32_t> self = selfIn(b, inter);
    std::uint64_t now = startNs;
    for (std::uint32_t distance = 1; distance < servers; distance *= 2) {
        const std::uint64_t bytes = blockBytes * distance;  // everything gathered so far
        now = b.phase("inter doubling all-gather", inter, now, false, HcclLinkType::Rdma,
                      swapWithPartner(self, distance, servers, bytes), bytes);
    }
    return now;
}

std::uint64_t interAllReduce(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                             InterServerAlgorithm algorithm, std::uint64_t bytes) {
    const auto servers = static_cast<std::uint32_t>(inter.ranks.size());
    if (algorithm != InterServerAlgorithm::HalvingDoubling) {
        const std::uint64_t block = (bytes + servers - 1) / servers;
        const std::uint64_t now = interReduceScatter(b, inter, startNs, algorithm, block);
        return interAllGather(b, inter, now, algorithm, block);
    }
    // Halving-doubling among the largest power of two; the others fold in and out.
    const std::uint32_t p2 = largestPowerOfTwoAtMost(servers);
    SubGroup core = inter;
    core.ranks.resize(p2);
    const std::uint64_t block = (bytes + p2 - 1) / p2;
    std::uint64_t now = foldStep(b, inter, startNs, "inter fold-in", true, bytes, true);
    now = interReduceScatter(b, core, now, algorithm, block);
    now = interAllGather(b, core, now, algorithm, block);
    return foldStep(b, inter, now, "inter fold-out", false, bytes, false);
}

std::uint64_t interBroadcast(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                             InterServerAlgorithm algorithm, std::uint64_t bytes,
                             std::uint32_t root) {
    const auto servers = static_cast<std::uint32_t>(inter.ranks.size());
    const std::optional<std::uint32_t> self = selfIn(b, inter);
    // Positions relative to the root: v = (index - root) mod S.
    const auto at = [&](std::uint32_t v) { return (v + root) % servers; };
    std::uint64_t now = startNs;
    if (algorithm == InterServerAlgorithm::HalvingDoubling && isPowerOfTwo(servers)) {
        for (std::uint32_t distance = 1; distance < servers; distance *= 2) {
            std::vector<PeerExchange> exchanges;
            for (std::uint32_t v = 0; v < distance; ++v) {
                const std::vector<PeerExchange> step = oneWay(self, at(v), at(v + distance), bytes);
                exchanges.insert(exchanges.end(), step.begin(), step.end());
            }
            now = b.phase("inter binomial broadcast", inter, now, false, HcclLinkType::Rdma,
                          exchanges, bytes);
        }
        return now;
    }
    for (std::uint32_t v = 0; v + 1 < servers; ++v)
        now = b.phase("inter chain broadcast", inter, now, false, HcclLinkType::Rdma,
                      oneWay(self, at(v), at(v + 1), bytes), bytes);
    return now;
}

std::uint64_t interReduce(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                          InterServerAlgorithm algorithm, std::uint64_t bytes, std::uint32_t root) {
    const auto servers = static_cast<std::uint32_t>(inter.ranks.size());
    const std::optional<std::uint32_t> self = selfIn(b, inter);
    const auto at = [&](std::uint32_t v) { return (v + root) % servers; };
    std::uint64_t now = startNs;
    if (algorithm == InterServerAlgorithm::HalvingDoubling && isPowerOfTwo(servers)) {
        for (std::uint32_t distance = servers / 2; distance >= 1; distance /= 2) {
            std::vector<PeerExchange> exchanges;
            for (std::uint32_t v = 0; v < distance; ++v) {
                const std::vector<PeerExchange> step = oneWay(self, at(v + distance), at(v), bytes);
                exchanges.insert(exchanges.end(), step.begin(), step.end());
            }
            now = b.phase("inter binomial reduce", inter, now, true, HcclLinkType::Rdma, exchanges,
                          bytes);
        }
        return now;
    }
    for (std::uint32_t v = servers - 1; v >= 1; --v)
        now = b.phase("inter chain reduce", inter, now, true, HcclLinkType::Rdma,
                      oneWay(self, at(v), at(v - 1), bytes), bytes);
    return now;
}

}  // namespace ascendsim
