#include "models/collective/hccl_all_to_all.h"

#include <algorithm>
#include <vector>

namespace ascendsim {

namespace {

// What the member at `from` sends its server peer at position `position` in level 0: its data for
// that position on every server.
std::uint64_t regroupBytes(const GroupLayout& layout, const CollectiveRequest& request,
                           std::uint32_t from, std::uint32_t position) {
    std::uint64_t bytes = 0;
    for (std::uint32_t s = 0; s < layout.servers(); ++s)
        bytes += allToAllBytes(request, from, layout.memberAt(s, position));
    return bytes;
}

// What the member at (server, position) sends the member at (toServer, position) in level 1:
// its server's data for that member.
std::uint64_t serverBytesFor(const GroupLayout& layout, const CollectiveRequest& request,
                             std::uint32_t server, std::uint32_t toServer,
                             std::uint32_t position) {
    std::uint64_t bytes = 0;
    const std::uint32_t to = layout.memberAt(toServer, position);
    for (std::uint32_t p = 0; p < layout.perServer(); ++p)
        bytes += allToAllBytes(request, layout.memberAt(server, p), to);
    return bytes;
}

}  // namespace

std::uint64_t allToAllBytes(const CollectiveRequest& request, std::uint32_t from,
                            std::uint32_t to) {
    if (request.op == CollectiveOp::AllToAllV) return request.sendBytes[from][to];
    return request.bytes;
}

std::uint64_t planAllToAllPhases(CollectiveBuilder& b, const GroupLayout& layout,
                                 const CollectiveRequest& request) {
    const auto members = static_cast<std::uint32_t>(request.groupRanks.size());
    const std::uint32_t m = b.member();
    const std::uint32_t servers = layout.servers();
    const std::uint32_t perServer = layout.perServer();

    std::uint64_t slowestOwn = 0;
    for (std::uint32_t i = 0; i < members; ++i)
        slowestOwn = std::max(slowestOwn, allToAllBytes(request, i, i));
    std::uint64_t now = b.localCopy("copy own data", 0, allToAllBytes(request, m, m), slowestOwn);

    if (perServer > 1) {
        std::uint64_t slowest = 0;
        for (std::uint32_t i = 0; i < members; ++i)
            for (std::uint32_t p = 0; p < perServer; ++p)
                if (p != layout.positionOf(i))
                    slowest = std::max(slowest, regroupBytes(layout, request, i, p));
        std::vector<PeerExchange> exchanges;
        if (b.buildsTasks())
            for (std::uint32_t p = 0; p < perServer; ++p)
                if (p != layout.positionOf(m))
                    exchanges.push_back({p, regroupBytes(layout, request, m, p)});
        now = b.phase("intra all-to-all", layout.intraOf(m), now, false, HcclLinkType::Hccs,
                      exchanges, slowest);
    }
    for (std::uint32_t step = 1; step < servers; ++step) {
        std::uint64_t slowest = 0;
        for (std::uint32_t s = 0; s < servers; ++s)
            for (std::uint32_t p = 0; p < perServer; ++p)
                slowest = std::max(slowest,
                                   serverBytesFor(layout, request, s, (s + step) % servers, p));
        std::vector<PeerExchange> exchanges;
        if (b.buildsTasks()) {
            const std::uint32_t s = layout.serverOf(m);
            const std::uint32_t to = (s + step) % servers;
            exchanges.push_back(
                {to, serverBytesFor(layout, request, s, to, layout.positionOf(m))});
        }
        now = b.phase("inter pairwise all-to-all", layout.interOf(m), now, false,
                      HcclLinkType::Rdma, exchanges, slowest);
    }
    return now;
}

}  // namespace ascendsim
