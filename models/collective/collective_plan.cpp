#include "models/collective/collective_plan.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "models/collective/collective_builder.h"
#include "models/collective/hccl_all_to_all.h"
#include "models/collective/hccl_group_layout.h"
#include "models/collective/hccl_hierarchical.h"
#include "models/collective/hccl_inter_server.h"
#include "models/collective/hccl_point_to_point.h"

namespace ascendsim {

namespace {

void require(bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument("collective request: " + message);
}

void validate(const CollectiveRequest& r) {
    const auto n = static_cast<std::uint32_t>(r.groupRanks.size());
    require(n >= 1, "the group has no member");
    require(std::set<std::uint32_t>(r.groupRanks.begin(), r.groupRanks.end()).size() == n,
            "a global rank appears twice in the group");
    if (r.op == CollectiveOp::Broadcast || r.op == CollectiveOp::Reduce)
        require(r.root < n, "root " + std::to_string(r.root) + " outside the group");
    if (r.op == CollectiveOp::AllToAllV) {
        require(r.sendBytes.size() == n, "sendBytes needs one row per member");
        for (const auto& row : r.sendBytes)
            require(row.size() == n, "sendBytes needs one column per member");
    }
    if (isPointToPointOp(r.op)) {
        require(!r.messages.empty(), "a point-to-point op without a message");
        require(r.op == CollectiveOp::BatchSendRecv || r.messages.size() == 1,
                "Send and Recv carry exactly one message");
        for (const P2pMessage& m : r.messages)
            require(m.src < n && m.dst < n && m.src != m.dst,
                    "a message needs two distinct members of the group");
    }
}

struct Built {
    std::vector<CollectivePhase> phases;
    std::vector<HcclTask> tasks;
    std::uint64_t opEndNs = 0;
    std::uint64_t memberEndNs = 0;
};

// The single routine both the plan and a member's schedule come from.
Built build(const CollectiveRequest& r, const ClusterTopology& topology,
            InterServerAlgorithm algorithm, std::optional<std::uint32_t> member) {
    CollectiveBuilder b(r, topology, member);
    Built out;
    if (isPointToPointOp(r.op)) {
        const PointToPointEnds ends = planPointToPointPhases(b, r, topology);
        out.opEndNs = ends.opEndNs;
        out.memberEndNs = ends.memberEndNs;
    } else if (r.groupRanks.size() == 1) {
        // A group of one only copies its input to its output ([D] e5a31957 test_rank_0
        // hcom_reduceScatter__693_0 over group (0): LOCAL only).
        out.opEndNs = b.localCopy("copy input to output", 0, r.bytes, r.bytes);
    } else {
        const GroupLayout layout(r.groupRanks, topology);
        const HierarchicalContext c{b, layout, r, algorithm};
        switch (r.op) {
            case CollectiveOp::AllReduce:
                out.opEndNs = hierarchicalAllReduce(c);
                break;
            case CollectiveOp::AllGather:
                out.opEndNs = hierarchicalAllGather(c);
                break;
            case CollectiveOp::ReduceScatter:
                out.opEndNs = hierarchicalReduceScatter(c);
                break;
            case CollectiveOp::Broadcast:
                out.opEndNs = hierarchicalBroadcast(c);
                break;
            case CollectiveOp::Reduce:
                out.opEndNs = hierarchicalReduce(c);
                break;
            case CollectiveOp::AllToAll:
            case CollectiveOp::AllToAllV:
                out.opEndNs = planAllToAllPhases(b, layout, r);
                break;
            case CollectiveOp::Send:
            case CollectiveOp::Recv:
            case CollectiveOp::BatchSendRecv:
                break;
        }
    }
    if (!isPointToPointOp(r.op)) out.memberEndNs = out.opEndNs;
    out.phases = b.takePhases();
    out.tasks = b.takeTasks();
    return out;
}

std::uint32_t serversSpanned(const CollectiveRequest& r, const ClusterTopology& topology) {
    std::set<std::uint32_t> servers;
    for (const std::uint32_t rank : r.groupRanks) servers.insert(topology.serverOf(rank));
    return static_cast<std::uint32_t>(servers.size());
}

const char* levelOneName(InterServerAlgorithm algorithm) {
    switch (algorithm) {
        case InterServerAlgorithm::HalvingDoubling:
            return "HD";
        case InterServerAlgorithm::Pairwise:
            return "PAIRWISE";
        case InterServerAlgorithm::None:
        case InterServerAlgorithm::Ring:
            break;
    }
    return "RING";
}

}  // namespace

InterServerAlgorithm chooseInterServerAlgorithm(CollectiveOp op, std::uint32_t servers,
                                                std::uint64_t bytes) {
    if (servers <= 1 || isPointToPointOp(op)) return InterServerAlgorithm::None;
    if (op == CollectiveOp::AllToAll || op == CollectiveOp::AllToAllV)
        return InterServerAlgorithm::Pairwise;
    if (isPowerOfTwo(servers)) return InterServerAlgorithm::HalvingDoubling;
    // The fold for a non-power-of-2 count is modelled for AllReduce only.
    if (op == CollectiveOp::AllReduce && bytes <= kHalvingDoublingSmallBytes)
        return InterServerAlgorithm::HalvingDoubling;
    return InterServerAlgorithm::Ring;
}

CollectivePlan planCollective(const CollectiveRequest& request, const ClusterTopology& topology) {
    validate(request);
    CollectivePlan plan;
    plan.request = request;
    plan.servers = serversSpanned(request, topology);
    plan.interServer = chooseInterServerAlgorithm(request.op, plan.servers, request.bytes);
    // Assumed: "<level 0>-<level 1>" as the one-server trace's "MESH-RING" names them.
    plan.algorithmName = std::string("MESH-") + levelOneName(plan.interServer);
    Built built = build(request, topology, plan.interServer, std::nullopt);
    plan.phases = std::move(built.phases);
    plan.durationNs = built.opEndNs;
    return plan;
}

CollectiveSchedule memberSchedule(const CollectivePlan& plan, std::uint32_t member,
                                  const ClusterTopology& topology) {
    if (member >= plan.request.groupRanks.size())
        throw std::invalid_argument("member " + std::to_string(member) + " outside the group");
    Built built = build(plan.request, topology, plan.interServer, member);
    CollectiveSchedule schedule;
    schedule.tasks = std::move(built.tasks);
    schedule.durationNs = built.memberEndNs;
    return schedule;
}

}  // namespace ascendsim
