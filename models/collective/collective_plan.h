#pragma once
// The plan of one HCCL op over one communication group (any subset of the cluster's global
// ranks): the algorithm HCCL picks, its phases with their link figures, and each member's task
// list. This is the interface between the collective models (models/collective) and the engine
// that runs ranks against each other (sim/engine/ranks): the engine asks for a plan, gives each
// member's arrival time, and places the tasks it gets back.
//
// Hierarchy ([S] CANN HCCL user guide, "分级通信原理" hcclug_000005: the two-level topology, Server
// 内 = level 0, Server 间 = level 1):
//   AllReduce      intra ReduceScatter -> inter AllReduce  -> intra AllGather
//   ReduceScatter  inter ReduceScatter -> intra ReduceScatter
//   AllGather      intra AllGather     -> inter AllGather
//   Broadcast      intra Scatter       -> inter Broadcast  -> intra AllGather
//   Reduce         intra ReduceScatter -> inter Reduce     -> intra Gather
//   AllToAll(V)    intra AllToAll(V)   -> inter AllToAll(V)
// Level 0 is the mesh (every peer over its own HCCS link, hccl_mesh_phase.h); level 1 runs
// between the members of the same local index on each server, each over its own NIC: ring or
// recursive halving-doubling (HCCL's "H-D_R"), chosen by chooseInterServerAlgorithm.
// A group inside one server has no level 1 (the single-server mesh models, unchanged).
//
// Times: every task time is measured from the moment all members have arrived (planned
// schedules) or from the member's own arrival (timelinesForArrivals). Task ranks (srcRank,
// dstRank) are group ranks, the member indices HCCL's trace and communication_matrix.json use
// ([D] e5a31957 test_rank_0 communication_matrix.json: the allreduce over global ranks (0, 8)
// has the link "0-1"); groupRanks maps them back to global ranks.
#include <cstdint>
#include <string>
#include <vector>

#include "models/collective/cluster_topology.h"
#include "models/collective/hccl_task.h"

namespace ascendsim {

// The HCCL ops a workload can hold; their workload op types and HCCL names are in
// sim/engine/ranks/collective_ops.cpp.
enum class CollectiveOp : std::uint8_t {
    AllReduce,
    AllGather,
    ReduceScatter,
    Broadcast,
    Reduce,
    AllToAll,
    AllToAllV,
    Send,
    Recv,
    BatchSendRecv,
};

// Send, Recv and BatchSendRecv: ops between named pairs of members rather than the whole group.
inline bool isPointToPointOp(CollectiveOp op) {
    return op == CollectiveOp::Send || op == CollectiveOp::Recv ||
           op == CollectiveOp::BatchSendRecv;
}

// One point-to-point message of a Send, Recv or BatchSendRecv, in group ranks.
struct P2pMessage {
    std::uint32_t src = 0;
    std::uint32_t dst = 0;
    std::uint64_t bytes = 0;
};

// What the engine knows of one op when it asks for a plan.
struct CollectiveRequest {
    CollectiveOp op = CollectiveOp::AllReduce;
    // The bytes the op moves, as the op's API counts them:
    //   AllReduce, Broadcast, Reduce: the whole buffer;
    //   AllGather: one member's input; ReduceScatter: one member's output;
    //   AllToAll: what each member sends to each member (sendCount x dtype size).
    // Unused by AllToAllV, Send, Recv, BatchSendRecv (sendBytes / messages).
    std::uint64_t bytes = 0;
    // The group's global ranks; group rank i is groupRanks[i]. Any subset of the cluster, in
    // the order the group was created with (at least one member). Send, Recv and BatchSendRecv
    // take part only on the members their messages name; the others get no tasks and their
    // arrival times are ignored.
    std::vector<std::uint32_t> groupRanks;
    // Broadcast and Reduce: the root's group rank.
    std::uint32_t root = 0;
    // AllToAllV: sendBytes[i][j] bytes group rank i sends to group rank j (members x members).
    std::vector<std::vector<std::uint64_t>> sendBytes;
    // Send, Recv: one message; BatchSendRecv: every message of the batch (each member sends and
    // receives those naming it).
    std::vector<P2pMessage> messages;
    // Send, Recv, BatchSendRecv: the group rank that issued the op (every message names it as
    // its source or its destination).
    std::uint32_t member = 0;
};

// The inter-server (level-1) algorithm.
enum class InterServerAlgorithm : std::uint8_t {
    None,              // the group sits in one server (or the op is point-to-point)
    Ring,              // HCCL "ring"
    HalvingDoubling,   // HCCL "H-D_R" (recursive halving-doubling)
    Pairwise,          // AllToAll(V): one peer server per step
};

// HCCL's choice for `op` over `servers` servers moving `bytes` (CollectiveRequest::bytes).
// [S] CANN HCCL_ALGO (envref_07_0079): H-D_R suits a power-of-2 server count, or any count
// when the data is small; ring suits few servers; Atlas training series default: ring for a
// non-power-of-2 count, H-D_R otherwise; pairwise is the AllToAll(V) algorithm. So: AllToAll(V)
// pairwise; a power-of-2 count H-D_R; an AllReduce of at most kHalvingDoublingSmallBytes H-D_R
// (folding the servers past the power of 2); anything else ring. None for one server or p2p.
InterServerAlgorithm chooseInterServerAlgorithm(CollectiveOp op, std::uint32_t servers,
                                                std::uint64_t bytes);

// Below this, H-D_R is chosen for a non-power-of-2 server count too. Assumption: 1 MiB (the
// guide says "small" without a figure; at 1 MiB one RoCE step's latency is still ~20 % of it).
inline constexpr std::uint64_t kHalvingDoublingSmallBytes = 1ull << 20;

// One phase of the plan as the link model times it: `steps` sequential steps, each moving
// `bytesPerStep` over `transport` (per link; every member's links run in parallel), each step
// taking handshakes + latency + bytes / bandwidth. The sum of the phases' durationNs is the
// plan's durationNs. Tests pin these against the link figures.
struct CollectivePhase {
    std::string name;  // "intra reduce-scatter", "inter ring all-reduce", ...
    HcclLinkType transport = HcclLinkType::Hccs;
    bool reduces = false;  // Reduce_Inline (reduceTransferNs) rather than Memcpy (transferNs)
    std::uint32_t steps = 0;
    std::uint64_t bytesPerStep = 0;  // the largest transfer of one step over one link
    std::uint64_t durationNs = 0;
};

struct CollectivePlan {
    CollectiveRequest request;
    std::uint32_t servers = 1;  // servers the group spans
    InterServerAlgorithm interServer = InterServerAlgorithm::None;
    std::string algorithmName;  // the trace's alg_type: "MESH-RING", "MESH-HD", ...
    std::vector<CollectivePhase> phases;
    // From all members' arrival to the op's end on every member (each phase ends together on
    // all members). Point-to-point ops: from the arrival of the members the messages name to
    // the last receiver's end.
    std::uint64_t durationNs = 0;
};

// The plan of one op: algorithm and phases, without the members' task lists (cheap: no work per
// member). Throws std::invalid_argument on a bad request (empty group, a rank twice, a root or
// message outside the group, sendBytes not members x members) or a chip without a link model.
CollectivePlan planCollective(const CollectiveRequest& request, const ClusterTopology& topology);

// The tasks group rank `member` runs, times from the moment all members have arrived. The
// schedule's durationNs is the member's end (plan.durationNs for collectives; for p2p ops the
// member's own part). A member with nothing to do (a Send's bystander) gets no tasks.
CollectiveSchedule memberSchedule(const CollectivePlan& plan, std::uint32_t member,
                                  const ClusterTopology& topology);

// One member's part once the arrival times are known.
struct MemberTimeline {
    std::uint64_t startNs = 0;  // the member's arrival: when its first task starts
    // Its tasks, times from startNs. A member that arrived before the last one waits in the
    // first Notify_Wait of each plane until the last member's Notify_Record has come (the real
    // traces' long first Notify_Wait on early ranks); the last member's waits stay short.
    CollectiveSchedule schedule;  // durationNs: from startNs to the member's end
};

// Every member's timeline. `arrivalNs[i]` is group rank i's arrival on a common clock (the
// moment its stream reaches the op); the op starts for all at max(arrivalNs) and runs as
// memberSchedule plans it. Throws std::invalid_argument when arrivalNs has not one entry per
// member.
std::vector<MemberTimeline> timelinesForArrivals(const CollectivePlan& plan,
                                                 const std::vector<std::uint64_t>& arrivalNs,
                                                 const ClusterTopology& topology);

// The same for one member (the engine may want only the ranks it writes).
MemberTimeline memberTimeline(const CollectivePlan& plan, std::uint32_t member,
                              const std::vector<std::uint64_t>& arrivalNs,
                              const ClusterTopology& topology);

}  // namespace ascendsim
