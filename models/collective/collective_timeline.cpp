// timelinesForArrivals / memberTimeline (collective_plan.h): a member that arrives early runs
// its tasks up to its first Notify_Wait at once, then waits there until the last member has
// arrived; everything after that wait moves by the difference.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "models/collective/collective_plan.h"
#include "models/collective/hccl_point_to_point.h"

namespace ascendsim {

namespace {

// When every member the op synchronises has arrived.
std::uint64_t allArrivedNs(const CollectivePlan& plan, const std::vector<std::uint64_t>& arrivals) {
    std::uint64_t last = 0;
    for (std::uint32_t i = 0; i < arrivals.size(); ++i)
        if (!isPointToPointOp(plan.request.op) || takesPartInPointToPoint(plan.request, i))
            last = std::max(last, arrivals[i]);
    return last;
}

}  // namespace

MemberTimeline memberTimeline(const CollectivePlan& plan, std::uint32_t member,
                              const std::vector<std::uint64_t>& arrivalNs,
                              const ClusterTopology& topology) {
    if (arrivalNs.size() != plan.request.groupRanks.size())
        throw std::invalid_argument("arrival times: " + std::to_string(arrivalNs.size()) +
                                    " for a group of " +
                                    std::to_string(plan.request.groupRanks.size()));
    MemberTimeline timeline;
    timeline.startNs = arrivalNs.at(member);
    timeline.schedule = memberSchedule(plan, member, topology);
    std::uint64_t firstWaitNs = std::numeric_limits<std::uint64_t>::max();
    for (const HcclTask& t : timeline.schedule.tasks)
        if (t.kind == HcclTaskKind::NotifyWait) firstWaitNs = std::min(firstWaitNs, t.startNs);
    // A member without a handshake (a group of one, a bystander) does not wait for anyone.
    if (firstWaitNs == std::numeric_limits<std::uint64_t>::max()) return timeline;

    const std::uint64_t lateNs = allArrivedNs(plan, arrivalNs) - std::min(
        allArrivedNs(plan, arrivalNs), timeline.startNs);
    for (HcclTask& t : timeline.schedule.tasks) {
        if (t.startNs < firstWaitNs) continue;
        if (t.startNs == firstWaitNs && t.kind == HcclTaskKind::NotifyWait)
            t.durationNs += lateNs;
        else
            t.startNs += lateNs;
    }
    timeline.schedule.durationNs += lateNs;
    return timeline;
}

std::vector<MemberTimeline> timelinesForArrivals(const CollectivePlan& plan,
                                                 const std::vector<std::uint64_t>& arrivalNs,
                                                 const ClusterTopology& topology) {
    std::vector<MemberTimeline> timelines;
    for (std::uint32_t member = 0; member < plan.request.groupRanks.size(); ++member)
        timelines.push_back(memberTimeline(plan, member, arrivalNs, topology));
    return timelines;
}

}  // namespace ascendsim
