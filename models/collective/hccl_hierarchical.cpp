#include "models/collective/hccl_hierarchical.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "models/collective/hccl_all_reduce.h"
#include "models/collective/hccl_broadcast.h"
#include "models/collective/hccl_inter_server.h"

namespace ascendsim {

namespace {

// Level-0 exchanges of the member at `position` with every other member of its server, each
// moving `bytes[peer position]` (nullopt entries: handshakes only).
std::vector<PeerExchange> intraExchanges(const HierarchicalContext& c,
                                         const std::vector<std::uint64_t>& bytes) {
    if (!c.builder.buildsTasks()) return {};
    return exchangeWithEveryPeer(c.layout.positionOf(c.member()), bytes);
}

bool hasIntra(const HierarchicalContext& c) {
    return c.layout.perServer() > 1;
}

// Where the root of a Broadcast or Reduce sits, and how the builder's member relates to it.
struct RootView {
    std::uint32_t root = 0;
    std::uint32_t server = 0;
    std::uint32_t position = 0;
    bool isRoot = false;
    bool onRootServer = false;
};

RootView rootViewOf(const HierarchicalContext& c) {
    RootView v;
    v.root = c.request.root;
    v.server = c.layout.serverOf(v.root);
    v.position = c.layout.positionOf(v.root);
    v.isRoot = c.builder.buildsTasks() && c.member() == v.root;
    v.onRootServer = c.builder.buildsTasks() && c.layout.serverOf(c.member()) == v.server;
    return v;
}

// The level-0 phase on the root's server between the root and each other member (a Broadcast's
// scatter, a Reduce's gather): every other member moves `memberBytes` over its link to the root,
// the root only handshakes; members of other servers wait.
std::uint64_t rootPhase(const HierarchicalContext& c, const RootView& v, const std::string& name,
                        std::uint64_t startNs, std::uint64_t memberBytes,
                        std::uint64_t slowestBytes) {
    std::vector<PeerExchange> exchanges;
    if (v.isRoot) {
        for (std::uint32_t p = 0; p < c.layout.perServer(); ++p)
            if (p != v.position) exchanges.push_back({p, std::nullopt});
    } else if (v.onRootServer) {
        exchanges.push_back({v.position, memberBytes});
    }
    return c.builder.phase(name, c.layout.intraOf(v.onRootServer ? c.member() : v.root), startNs,
                           false, HcclLinkType::Hccs, exchanges, slowestBytes);
}

std::optional<std::uint64_t> onlyIf(bool condition, std::uint64_t bytes) {
    return condition ? std::optional<std::uint64_t>(bytes) : std::nullopt;
}

}  // namespace

std::uint64_t hierarchicalAllReduce(const HierarchicalContext& c) {
    CollectiveBuilder& b = c.builder;
    const std::uint32_t m = c.member();
    // Level 0 slices the buffer as the single-server allreduce does.
    const std::vector<std::uint64_t> slices =
        meshSlices(c.request.bytes, c.layout.perServer(), kHcclSliceAlignBytes);
    const std::uint64_t largest = slices.front();
    const std::uint64_t mine = slices[c.layout.positionOf(m)];
    const SubGroup intra = c.layout.intraOf(m);
    std::uint64_t now = b.localCopy("copy input slice", 0, mine, largest);
    if (hasIntra(c))
        now = b.phase("intra reduce-scatter", intra, now, true, HcclLinkType::Hccs,
                      intraExchanges(c, slices), largest);
    // Level 1 reduces this member's slice with the same slice on every other server. Slices
    // differ by at most the last one: the steps move the largest.
    now = interAllReduce(b, c.layout.interOf(m), now, c.algorithm, largest);
    now = b.localCopy("copy reduced slice", now, mine, largest);
    if (hasIntra(c))
        now = b.phase("intra all-gather", intra, now, false, HcclLinkType::Hccs,
                      intraExchanges(c, slices), largest);
    return now;
}

std::uint64_t hierarchicalAllGather(const HierarchicalContext& c) {
    CollectiveBuilder& b = c.builder;
    const std::uint32_t m = c.member();
    const std::uint64_t chunk = c.request.bytes;
    const std::uint32_t perServer = c.layout.perServer();
    std::uint64_t now = b.localCopy("copy input chunk", 0, chunk, chunk);
    if (hasIntra(c))
        now = b.phase("intra all-gather", c.layout.intraOf(m), now, false, HcclLinkType::Hccs,
                      intraExchanges(c, std::vector<std::uint64_t>(perServer, chunk)), chunk);
    // Level 1 then moves whole servers' worth: [D] e5a31957 test_rank_0 hcom_allGather__822_4
    // over 16 ranks on 2 servers: 100 B to each of 7 HCCS peers, one 800 B RDMA transfer.
    now = interAllGather(b, c.layout.interOf(m), now, c.algorithm, chunk * perServer);
    // Inside one server the output copy moves one chunk ([D] e5a31957 hcom_allGather__483_3: LOCAL
    // = 2 chunks); across servers the whole output ([D] hcom_allGather__822_4: LOCAL 1800 B for
    // 100 B chunks over 16 ranks, ~ input chunk + the 1600 B output).
    const std::uint64_t output =
        c.layout.servers() == 1 ? chunk : chunk * perServer * c.layout.servers();
    return b.localCopy("copy output", now, output, output);
}

std::uint64_t hierarchicalReduceScatter(const HierarchicalContext& c) {
    CollectiveBuilder& b = c.builder;
    const std::uint32_t m = c.member();
    const std::uint64_t chunk = c.request.bytes;
    const std::uint32_t perServer = c.layout.perServer();
    std::uint64_t now = b.localCopy("copy input chunk", 0, chunk, chunk);
    // Level 1 first, on blocks of one server's outputs, so level 0 reduces contiguous chunks.
    now = interReduceScatter(b, c.layout.interOf(m), now, c.algorithm, chunk * perServer);
    if (hasIntra(c))
        now = b.phase("intra reduce-scatter", c.layout.intraOf(m), now, true, HcclLinkType::Hccs,
                      intraExchanges(c, std::vector<std::uint64_t>(perServer, chunk)), chunk);
    return b.localCopy("copy output chunk", now, chunk, chunk);
}

std::uint64_t hierarchicalBroadcast(const HierarchicalContext& c) {
    CollectiveBuilder& b = c.builder;
    const std::uint32_t m = c.member();
    const RootView v = rootViewOf(c);
    const std::uint64_t total = c.request.bytes;
    const std::vector<std::uint64_t> slices =
        meshSlices(total, c.layout.perServer(), kHcclBroadcastSliceAlignBytes);

    std::uint64_t now = b.localCopy("root copies input", 0, onlyIf(v.isRoot, total), total);
    if (hasIntra(c)) {
        // Level 0 on the root's server: each member reads its slice from the root.
        std::uint64_t largestScattered = 0;
        for (std::uint32_t p = 0; p < slices.size(); ++p)
            if (p != v.position) largestScattered = std::max(largestScattered, slices[p]);
        now = rootPhase(c, v, "intra scatter", now, slices[c.layout.positionOf(m)],
                        largestScattered);
    }
    // Level 1: each position's slice goes from the root's server to every server.
    now = interBroadcast(b, c.layout.interOf(m), now, c.algorithm, slices.front(), v.server);
    if (hasIntra(c))
        now = b.phase("intra all-gather", c.layout.intraOf(m), now, false, HcclLinkType::Hccs,
                      intraExchanges(c, slices), slices.front());
    return b.localCopy("copy output", now, onlyIf(!v.isRoot, total), total);
}

std::uint64_t hierarchicalReduce(const HierarchicalContext& c) {
    CollectiveBuilder& b = c.builder;
    const std::uint32_t m = c.member();
    const RootView v = rootViewOf(c);
    const std::uint64_t total = c.request.bytes;
    const std::vector<std::uint64_t> slices =
        meshSlices(total, c.layout.perServer(), kHcclSliceAlignBytes);
    const std::uint64_t largest = slices.front();
    const std::uint64_t mine = slices[c.layout.positionOf(m)];

    std::uint64_t now = b.localCopy("copy input slice", 0, mine, largest);
    if (hasIntra(c))
        now = b.phase("intra reduce-scatter", c.layout.intraOf(m), now, true, HcclLinkType::Hccs,
                      intraExchanges(c, slices), largest);
    now = interReduce(b, c.layout.interOf(m), now, c.algorithm, largest, v.server);
    // Level 0 on the root's server: every member writes its reduced slice to the root.
    if (hasIntra(c)) now = rootPhase(c, v, "intra gather", now, mine, largest);
    return b.localCopy("root copies output", now, onlyIf(v.isRoot, total), total);
}

}  // namespace ascendsim
