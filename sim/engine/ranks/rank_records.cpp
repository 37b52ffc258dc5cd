#include "sim/engine/ranks/rank_records.h"

#include <stdexcept>

namespace ascendsim {

RunRecord recordOfRank(const SimulationResult& result, std::uint32_t rank) {
    if (rank >= result.ranks)
        throw std::invalid_argument("rank " + std::to_string(rank) + " outside the run");
    if (result.communicationPlans.size() != result.record.communicationOps.size())
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
    for (std::size_t i = 0; i < r.communicationOps.size(); ++i)
        r.communicationOps[i].tasks =
            collectiveScheduleFor(result.communicationPlans[i], rank, *result.chip).tasks;
    return r;
}

}  // namespace ascendsim
