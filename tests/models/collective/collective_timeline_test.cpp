// Members arriving at different times: the op starts when the last one arrives; an early member
// waits in its first Notify_Wait (the real traces' long first wait), the last one does not.
#include <gtest/gtest.h>

#include <numeric>

#include "models/collective/collective_plan.h"
#include "tests/models/collective/hccl_collective_test_support.h"

namespace ascendsim {
namespace {

CollectiveRequest allReduceOver(std::uint32_t ranks) {
    CollectiveRequest r;
    r.op = CollectiveOp::AllReduce;
    r.bytes = 1 << 20;
    r.groupRanks.resize(ranks);
    std::iota(r.groupRanks.begin(), r.groupRanks.end(), 0u);
    return r;
}

const HcclTask& firstWait(const CollectiveSchedule& s) {
    for (const HcclTask& t : s.tasks)
        if (t.kind == HcclTaskKind::NotifyWait) return t;
    throw std::logic_error("no Notify_Wait");
}

TEST(CollectiveTimeline, AnEarlyMemberWaitsInItsFirstNotifyWaitUntilTheLastArrives) {
    const ClusterTopology topology(testing::roundFigureLink());
    const CollectivePlan plan = planCollective(allReduceOver(4), topology);
    const std::vector<std::uint64_t> arrivals = {1000, 101000, 51000, 1000};
    const std::vector<MemberTimeline> timelines = timelinesForArrivals(plan, arrivals, topology);
    const CollectiveSchedule onTime = memberSchedule(plan, 0, topology);
    const std::uint64_t waitNs = firstWait(onTime).durationNs;

    // The last member (1) runs its planned schedule unchanged.
    EXPECT_EQ(timelines[1].schedule.durationNs, plan.durationNs);
    EXPECT_EQ(firstWait(timelines[1].schedule).durationNs, waitNs);
    // Member 0 came 100 us early: its first wait lasts 100 us longer, and so does its op.
    EXPECT_EQ(firstWait(timelines[0].schedule).durationNs, waitNs + 100000);
    EXPECT_EQ(timelines[0].schedule.durationNs, plan.durationNs + 100000);
    // Every member ends at the same moment.
    for (std::uint32_t m = 0; m < 4; ++m)
        EXPECT_EQ(timelines[m].startNs + timelines[m].schedule.durationNs,
                  101000 + plan.durationNs)
            << m;
    // The tasks before the wait run at arrival; the ones after it move by the lateness.
    const CollectiveSchedule& early = timelines[0].schedule;
    for (std::size_t i = 0; i < early.tasks.size(); ++i) {
        if (early.tasks[i].startNs < firstWait(onTime).startNs) {
            EXPECT_EQ(early.tasks[i].startNs, onTime.tasks[i].startNs);
        } else if (early.tasks[i].startNs > firstWait(onTime).startNs) {
            EXPECT_EQ(early.tasks[i].startNs, onTime.tasks[i].startNs + 100000);
        }
    }
}

TEST(CollectiveTimeline, PointToPointWaitsOnlyForItsTwoEnds) {
    const ClusterTopology topology(testing::roundFigureLink());
    CollectiveRequest r = allReduceOver(4);
    r.op = CollectiveOp::Recv;
    r.messages.push_back({2, 1, 4096});
    const CollectivePlan plan = planCollective(r, topology);
    // Member 3 is far late but takes no part; the sender (2) arrives 5 us after the receiver.
    const std::vector<MemberTimeline> t =
        timelinesForArrivals(plan, {0, 10000, 15000, 900000}, topology);
    EXPECT_EQ(t[1].startNs + t[1].schedule.durationNs, 15000 + plan.durationNs);
    EXPECT_TRUE(t[3].schedule.tasks.empty());
}

TEST(CollectiveTimeline, ArrivalsMustNameEveryMember) {
    const ClusterTopology topology(testing::roundFigureLink());
    const CollectivePlan plan = planCollective(allReduceOver(4), topology);
    EXPECT_THROW(timelinesForArrivals(plan, {0, 0}, topology), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
