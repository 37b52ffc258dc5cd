#include "models/collective/hccl_point_to_point.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace ascendsim {

namespace {

std::uint64_t sentBy(const CollectiveRequest& r, std::uint32_t member) {
    std::uint64_t bytes = 0;
    for (const P2pMessage& m : r.messages)
        if (m.src == member) bytes += m.bytes;
    return bytes;
}

std::uint64_t receivedBy(const CollectiveRequest& r, std::uint32_t member) {
    std::uint64_t bytes = 0;
    for (const P2pMessage& m : r.messages)
        if (m.dst == member) bytes += m.bytes;
    return bytes;
}

}  // namespace

bool takesPartInPointToPoint(const CollectiveRequest& request, std::uint32_t member) {
    return std::any_of(request.messages.begin(), request.messages.end(),
                       [member](const P2pMessage& m) { return m.src == member || m.dst == member; });
}

PointToPointEnds planPointToPointPhases(CollectiveBuilder& b, const CollectiveRequest& request,
                                        const ClusterTopology& topology) {
    const bool sends = request.op != CollectiveOp::Recv;
    const bool receives = request.op != CollectiveOp::Send;
    const std::uint32_t m = b.member();
    const bool active = b.buildsTasks() && takesPartInPointToPoint(request, m);

    std::uint64_t slowestSent = 0;
    std::uint64_t slowestReceived = 0;
    // The slowest message: the largest transfer time over its own transport.
    P2pMessage slowest = request.messages.front();
    HcclLinkType slowestLink = HcclLinkType::Hccs;
    std::uint64_t slowestNs = 0;
    for (const P2pMessage& msg : request.messages) {
        slowestSent = std::max(slowestSent, sentBy(request, msg.src));
        slowestReceived = std::max(slowestReceived, receivedBy(request, msg.dst));
        const HcclLinkType link = topology.transportBetween(request.groupRanks[msg.src],
                                                            request.groupRanks[msg.dst]);
        const std::uint64_t ns = topology.transferNs(link, msg.bytes);
        if (ns >= slowestNs) {
            slowestNs = ns;
            slowest = msg;
            slowestLink = link;
        }
    }

    const auto sent = sentBy(request, m);
    const auto received = receivedBy(request, m);
    std::uint64_t now = b.localCopy("copy input", 0,
                                    active && sends && sent > 0 ? std::optional(sent) : std::nullopt,
                                    slowestSent);
    // Who moves a message over the link: the sender of a Send ([D] e5a31957 hcom_send_: the RDMA
    // transfer on the sender, the receivers LOCAL only); the receiver of a batch ([D] ef63bc64
    // level2 rank 0: a send-only hcom_batchSendRecv_ 0 MB HCCS, a receive-only one 8.39 MB, a
    // send-and-receive one 8.39 MB, one message).
    const bool receiverPulls = request.op == CollectiveOp::BatchSendRecv;
    std::vector<PeerExchange> exchanges;
    const auto exchangeWith = [&exchanges](std::uint32_t peer, std::optional<std::uint64_t> bytes) {
        const auto known = std::find_if(exchanges.begin(), exchanges.end(),
                                        [peer](const PeerExchange& e) { return e.peer == peer; });
        if (known == exchanges.end())
            exchanges.push_back({peer, bytes});
        else if (bytes)
            known->bytes = bytes;
    };
    if (active) {
        for (const P2pMessage& msg : request.messages)
            if (sends && msg.src == m) exchangeWith(msg.dst, receiverPulls ? std::nullopt : std::optional(msg.bytes));
        for (const P2pMessage& msg : request.messages)
            if (receives && msg.dst == m) exchangeWith(msg.src, receiverPulls ? std::optional(msg.bytes) : std::nullopt);
    }
    SubGroup everyone;
    everyone.ranks.resize(request.groupRanks.size());
    std::iota(everyone.ranks.begin(), everyone.ranks.end(), 0u);
    now = b.phase("p2p transfer", everyone, now, false, slowestLink, exchanges, slowest.bytes);
    const std::uint64_t transferEnd = now;
    now = b.localCopy("copy output", now,
                      active && receives && received > 0 ? std::optional(received) : std::nullopt,
                      slowestReceived);
    PointToPointEnds ends;
    ends.opEndNs = now;
    if (active) ends.memberEndNs = receives && received > 0 ? now : transferEnd;
    return ends;
}

}  // namespace ascendsim
