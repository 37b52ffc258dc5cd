#pragma once
// Collective (HCCL) ops of a workload: how they are recognised, lowered to a per-rank schedule of
// link tasks instead of AI core kernels, and named the way CANN's HCCL trace names them.
#include <cstdint>
#include <optional>
#include <string>

#include <vector>

#include "models/chip/chip_config.h"
#include "models/collective/collective_plan.h"
#include "models/collective/hccl_task.h"
#include "models/kernels/op_instance.h"

namespace ascendsim {

// The stream HCCL's tasks run on (the real Level1 sample's HCCL stream is 4; compute is 2).
inline constexpr std::uint32_t kCommunicationStreamId = 4;

// The HCCL ops a workload can hold: HcomAllReduce, HcomAllGather, HcomReduceScatter,
// HcomBroadcast, HcomReduce, HcomAllToAll, HcomAllToAllV, HcomSend, HcomReceive,
// HcomBatchSendRecv; planned by models/collective/collective_plan.h.
using CollectiveKind = CollectiveOp;

// The kind of a workload op type; nullopt for an op that is not a collective.
std::optional<CollectiveKind> collectiveKindOf(const std::string& opType);
bool isCollectiveOpType(const std::string& opType);

// What the engine needs of one collective op: its size and the time it takes on every rank.
struct LoweredCollective {
    CollectiveKind kind = CollectiveKind::AllReduce;
    // The bytes the model plans with: the buffer (AllReduce, Broadcast), one rank's input
    // (AllGather) or one rank's output (ReduceScatter).
    std::uint64_t bytes = 0;
    // Elements, as HCCL's API counts them: the buffer's (AllReduce, Broadcast), sendCount
    // (AllGather: one rank's input), recvCount (ReduceScatter: one rank's output).
    std::uint64_t count = 0;
    DataType dtype = DataType::Fp32;
    std::uint32_t ranks = 0;  // group size
    std::string group = "world";  // the `parallel:` group kind it spans (its `group` attribute)
    // From all members' arrival to the op's end (collective_plan.h: every phase ends together).
    std::uint64_t durationNs = 0;
    CollectivePlan plan;  // algorithm, phases, the request (group, bytes, root, messages)
};

// The op over the world group 0..ranks-1 (the data-parallel run); p2p ops as seen by member 0.
// Throws std::invalid_argument when the chip has no link model or the op's attributes do not fit
// the group.
LoweredCollective lowerCollective(const OpInstance& op, std::uint32_t ranks,
                                  const ChipConfig& chip);

// The op over `groupRanks` (global ranks, group order) as group rank `member` issues it: its
// attributes name group ranks (root, peer, send_to, recv_from). Attributes:
//   HcomBroadcast, HcomReduce: root (default 0).
//   HcomSend: peer (the receiver); HcomReceive: peer (the sender). One message of the input's
//     bytes.
//   HcomBatchSendRecv: send_to, recv_from (group ranks); the input splits evenly over send_to,
//     the output over recv_from.
//   HcomAllToAllV: send_counts (dim-0 rows to each member); every member is taken to send the
//     same counts (the workload is one program for all members).
LoweredCollective lowerCollective(const OpInstance& op,
                                  const std::vector<std::uint32_t>& groupRanks,
                                  std::uint32_t member, const ChipConfig& chip);

// The `group` attribute of a collective op ("world" when absent).
std::string collectiveGroupOf(const OpInstance& op);

// `rank`'s (group rank's) tasks of a lowered collective, times from all members' arrival.
CollectiveSchedule collectiveScheduleFor(const LoweredCollective& collective, std::uint32_t rank,
                                         const ChipConfig& chip);

// The schedule of a rank that arrived `waitNs` before its group's last rank, as hccl's
// timelinesForArrivals gives it: its tasks up to its first Notify_Wait run at once, that wait
// lasts until the last rank's signal (the early ranks' long first Notify_Wait of real cluster
// traces), the rest moves by the wait. A schedule without a Notify_Wait gets one first.
CollectiveSchedule collectiveScheduleAfterWait(const LoweredCollective& collective, std::uint32_t rank,
                                               const ChipConfig& chip, std::uint64_t waitNs);

// HCCL's spelling of a reduction dtype: "FP32", "FP16", "BFP16", "INT8", "INT32", "INT64", ...
std::string hcclDataTypeName(DataType dtype);

// The world communicator's name as the HCCL trace shows it: a 64-bit hash printed in decimal.
// Assumption: FNV-1a of torch's default group name "hccl_world_group" (the real value is a hash
// HCCL computes from the rank table, which a simulation has none of).
std::string worldGroupHash();

// The AscendCL API HCCL reports the op under, the kernel_details Type: "hcom_allReduce_",
// "hcom_allGather_", "hcom_reduceScatter_", "hcom_broadcast_", "hcom_send_", "hcom_receive_",
// "hcom_batchSendRecv_" ([D] e5a31957 test_data and ef63bc64 level2 kernel_details.csv /
// api_statistic.csv / communication_matrix.json); assumed in the same spelling:
// "hcom_reduce_", "hcom_alltoall_", "hcom_alltoallv_".
const char* collectiveApiName(CollectiveKind kind);

// The torch_npu op record of the c10d call ("HcclAllreduce" for dist.all_reduce).
// Assumption for the others: ProcessGroupHCCL's names "HcclAllgather", "HcclReduceScatter",
// "HcclBroadcast", and HCCL's API names for the rest ("HcclReduce", "HcclAlltoAll",
// "HcclAlltoAllV", "HcclSend", "HcclRecv", "HcclBatchSendRecv": the libhccl functions msprof's
// mspti hccl_inject.cpp hooks); no sample trace shows them.
const char* collectiveNpuOpName(CollectiveKind kind);

// HCCL's alg_type ("MESH-RING", ...) is the plan's algorithmName (collective_plan.h).

// "hcom_allReduce__<last 3 digits of the group hash>_<n>_1": HCCL numbers a communicator's ops of one
// iteration from 0 whatever their kind ([D] e5a31957 test_data: broadcast _0, _1, allReduce _2,
// allGather _3, ...); the sample's prefix is the last three digits of the group hash.
std::string collectiveOpName(CollectiveKind kind, const std::string& groupHash,
                             std::uint32_t indexInStep);

}  // namespace ascendsim
