#include "sim/engine/ranks/rank_records.h"

#include <algorithm>
#include <stdexcept>

#include "sim/workload/parallel/parallel_layout.h"

namespace ascendsim {

namespace {

DistributedRecord distributedRecordOf(const ParallelLayout& layout, std::uint32_t rank) {
    DistributedRecord d;
    d.tensorParallel = layout.tp;
    d.pipelineParallel = layout.pp;
    d.dataParallel = layout.dp;
    d.expertParallel = layout.ep;
    d.worldSize = layout.worldSize();
    for (const ParallelGroup& g : parallelGroupsOf(layout, rank))
        d.groups.push_back({g.key, g.name, g.groupRank, g.globalRanks});
    return d;
}

}  // namespace

RunRecord recordOfRank(const SimulationResult& result, std::uint32_t rank) {
    if (rank >= result.ranks)
        throw std::invalid_argument("rank " + std::to_string(rank) + " outside the run");
    if (result.communicationPlans.size() != result.record.communicationOps.size() ||
        result.communicationWaits.size() != result.communicationPlans.size())
        throw std::logic_error("collective plans and records disagree");
    RunRecord r = result.record;
    r.rankId = rank;
    r.deviceId = rank;
    r.processId += rank;
    r.mainThreadId += rank;
    for (auto& op : r.hostOps) op.threadId += rank;
    for (auto& api : r.apis) api.threadId += rank;
    for (auto& q : r.taskQueue) {
        q.enqueueThreadId += rank;
        q.dequeueThreadId += rank;
    }
    for (auto& m : r.memoryEvents) m.threadId += rank;
    for (auto& p : r.pythonCalls) p.threadId += rank;
    for (auto& m : r.mstxEvents) m.threadId += rank;
    const ParallelLayout& layout = result.workload.parallel;
    if (layout.declared) r.distributed = distributedRecordOf(layout, rank);
    for (std::size_t i = 0; i < r.communicationOps.size(); ++i) {
        const LoweredCollective& plan = result.communicationPlans[i];
        CommunicationOpRecord& op = r.communicationOps[i];
        // The rank's place in the op's group: its peers and slices are the group's.
        const std::vector<std::uint32_t> members = groupMembers(layout, plan.group, rank);
        const auto localRank =
            static_cast<std::uint32_t>(std::find(members.begin(), members.end(), rank) - members.begin());
        op.groupName = communicatorHash(collectiveGroupKey(layout, plan.group, rank));
        op.name = collectiveOpName(plan.kind, op.groupName, op.indexInStep);
        op.tasks = collectiveScheduleAfterWait(plan, localRank, *result.chip, result.communicationWaits[i]).tasks;
    }
    return r;
}

}  // namespace ascendsim
