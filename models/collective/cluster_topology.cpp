#include "models/collective/cluster_topology.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/collective/hccl_mesh_phase.h"

namespace ascendsim {

namespace {

std::uint64_t microsToNs(double us) {
    return static_cast<std::uint64_t>(std::llround(us * 1000.0));
}

}  // namespace

std::uint64_t ClusterTopology::notifyRecordNs() const {
    return microsToNs(link_.notifyRecordUs);
}

std::uint64_t ClusterTopology::notifyWaitNs() const {
    return microsToNs(link_.notifyWaitUs);
}

ClusterTopology::ClusterTopology(const HcclLinkConfig& link) : link_(link) {
    if (link_.linkBandwidthGBps <= 0.0 || link_.npusPerServer < 1)
        throw std::invalid_argument("the chip config has no hccl link model (section 'hccl')");
    if (link_.diesPerCard < 1 || link_.npusPerServer % link_.diesPerCard != 0)
        throw std::invalid_argument("hccl.dies_per_card must divide hccl.npus_per_server");
}

std::uint32_t ClusterTopology::serverOf(std::uint32_t globalRank) const {
    return globalRank / link_.npusPerServer;
}

std::uint32_t ClusterTopology::localIndexOf(std::uint32_t globalRank) const {
    return globalRank % link_.npusPerServer;
}

HcclLinkType ClusterTopology::transportBetween(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return HcclLinkType::OnChip;
    if (serverOf(a) != serverOf(b)) return HcclLinkType::Rdma;
    if (link_.diesPerCard > 1 && a / link_.diesPerCard == b / link_.diesPerCard)
        return HcclLinkType::Sio;
    return HcclLinkType::Hccs;
}

double ClusterTopology::bandwidthGBps(HcclLinkType transport) const {
    switch (transport) {
        case HcclLinkType::OnChip:
            return link_.localCopyBandwidthGBps;
        case HcclLinkType::Hccs:
        case HcclLinkType::Pcie:  // assumed: no PCIe figures; a card without HCCS is not modelled
            return link_.linkBandwidthGBps;
        case HcclLinkType::Rdma:
            return link_.rdmaBandwidthGBps;
        case HcclLinkType::Sio:
            return link_.sioBandwidthGBps;
        case HcclLinkType::None:
            break;
    }
    throw std::invalid_argument("a transfer without a transport");
}

std::uint64_t ClusterTopology::latencyNs(HcclLinkType transport) const {
    switch (transport) {
        case HcclLinkType::OnChip:
            return 0;
        case HcclLinkType::Hccs:
        case HcclLinkType::Sio:
        case HcclLinkType::Pcie:
            return microsToNs(link_.transferLatencyUs);
        case HcclLinkType::Rdma:
            return microsToNs(link_.rdmaLatencyUs + link_.switchLatencyUs);
        case HcclLinkType::None:
            break;
    }
    throw std::invalid_argument("a transfer without a transport");
}

double ClusterTopology::rateGBps(HcclLinkType transport, bool reduces) const {
    if (transport == HcclLinkType::Rdma && link_.rdmaBandwidthGBps <= 0.0)
        throw std::invalid_argument(
            "the chip config has no RoCE figures (hccl.rdma_bandwidth_gbps): a group spanning "
            "servers cannot be planned");
    const double move = bandwidthGBps(transport);
    if (!reduces) return move;
    switch (transport) {
        case HcclLinkType::Hccs:
        case HcclLinkType::Sio:
        case HcclLinkType::Pcie:
            // The SDMA engine reduces while it moves: the slower of the two rates bounds it.
            return std::min(link_.reduceBandwidthGBps, move);
        case HcclLinkType::Rdma:
            // The NIC writes, then the peer's SDMA reduces on chip: the two times add.
            return 1.0 / (1.0 / move + 1.0 / link_.localCopyBandwidthGBps);
        case HcclLinkType::OnChip:
            return move;
        case HcclLinkType::None:
            break;
    }
    throw std::invalid_argument("a transfer without a transport");
}

std::uint64_t ClusterTopology::transferNs(HcclLinkType transport, std::uint64_t bytes) const {
    return latencyNs(transport) + hcclTransferNs(bytes, rateGBps(transport, false));
}

std::uint64_t ClusterTopology::reduceTransferNs(HcclLinkType transport,
                                                std::uint64_t bytes) const {
    return latencyNs(transport) + hcclTransferNs(bytes, rateGBps(transport, true));
}

}  // namespace ascendsim
