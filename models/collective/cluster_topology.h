#pragma once
// The cluster a collective runs on: servers of npusPerServer NPUs joined inside a server by HCCS
// (and, on dual-die cards, SIO between the two dies of a card) and between servers by RoCE, one
// NIC per NPU through the cluster switch. Global rank r sits on server r / npusPerServer at local
// index r % npusPerServer (torch.distributed's and HCCL's rank table order: a server's devices
// take consecutive ranks).
//
// The link model of every transport is the same: a transfer of S bytes takes
//     latency + S / bandwidth
// (HcclLinkConfig figures; their sources are in configs/*.yaml and docs/chip-config.md).
// Every timing in the collective plans (collective_plan.h) comes from transferNs().
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/collective/hccl_task.h"

namespace ascendsim {

class ClusterTopology {
  public:
    // Throws std::invalid_argument when the chip has no link model (hccl section missing).
    explicit ClusterTopology(const HcclLinkConfig& link);

    const HcclLinkConfig& link() const { return link_; }
    std::uint32_t npusPerServer() const { return link_.npusPerServer; }

    // The handshake tasks of every transport: Notify_Record, Notify_Wait when already signalled.
    std::uint64_t notifyRecordNs() const;
    std::uint64_t notifyWaitNs() const;

    std::uint32_t serverOf(std::uint32_t globalRank) const;
    std::uint32_t localIndexOf(std::uint32_t globalRank) const;

    // The transport between two global ranks: OnChip for the same rank, Sio for the two dies of
    // one card (when the chip has SIO), Hccs inside a server, Rdma between servers.
    HcclLinkType transportBetween(std::uint32_t a, std::uint32_t b) const;

    // One direction of one link of that transport, GB/s (1e9 B/s): Hccs linkBandwidthGBps,
    // Rdma the NPU's NIC (rdmaBandwidthGBps), Sio sioBandwidthGBps, OnChip the SDMA copy rate.
    double bandwidthGBps(HcclLinkType transport) const;
    // Fixed cost of one transfer: Hccs/Sio transferLatencyUs; Rdma rdmaLatencyUs plus one switch
    // hop (switchLatencyUs); OnChip none.
    std::uint64_t latencyNs(HcclLinkType transport) const;
    // The rate bytes cross that transport at: bandwidthGBps, or for a reducing transfer the
    // rate reduceTransferNs charges. Throws for Rdma when the chip has no RoCE figures.
    double rateGBps(HcclLinkType transport, bool reduces) const;
    // latency + bytes / bandwidth, rounded to 1 ns: the time of one Memcpy task.
    std::uint64_t transferNs(HcclLinkType transport, std::uint64_t bytes) const;
    // The time of one reducing transfer (Reduce_Inline): over Hccs/Sio the SDMA inline reduce
    // rate (reduceBandwidthGBps); over Rdma the NIC moves the bytes into the peer's buffer and
    // the peer's SDMA reduces them on chip (latency + bytes / rdma + bytes / local copy rate, as
    // one rate; assumed: RoCE has no inline reduce).
    std::uint64_t reduceTransferNs(HcclLinkType transport, std::uint64_t bytes) const;

  private:
    HcclLinkConfig link_;
};

}  // namespace ascendsim
