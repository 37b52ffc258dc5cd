// TimelineReplay (sim/engine/device/device_timeline.h): a replayed kernel keeps its simulated
// duration and its lag after ready, and moves with its new submission or its stream's previous
// kernel; a run that submits other kernels is refused.
#include <gtest/gtest.h>

#include "sim/engine/device/device_timeline.h"

namespace ascendsim {
namespace {

TaskResult kernel(std::uint64_t tag, std::uint32_t stream, std::uint64_t submit, std::uint64_t start,
                  std::uint64_t end) {
    TaskResult r;
    r.userTag = tag;
    r.streamId = stream;
    r.submitNs = submit;
    r.startNs = start;
    r.endNs = end;
    BlockResult b;
    b.startNs = start + 1;
    b.endNs = end;
    r.blocks.push_back(b);
    return r;
}

// Two kernels on stream 0: the first submitted at 100, ready then, starting 5 ns later and
// lasting 50; the second submitted at 120 while the first runs (ready at its end, 155).
DeviceTimeline twoKernels() {
    return timelineOf({kernel(1, 0, 100, 105, 155), kernel(2, 0, 120, 160, 200)}, DeviceStats{}, 2);
}

TEST(DeviceTimeline, ReadyIsTheLaterOfSubmissionAndTheStreamsPreviousEnd) {
    const DeviceTimeline t = twoKernels();
    ASSERT_EQ(t.kernels.size(), 2u);
    EXPECT_EQ(t.kernels[0].readyNs, 100u);
    EXPECT_EQ(t.kernels[1].readyNs, 155u);
}

TEST(DeviceTimeline, AKernelSubmittedLaterMovesByTheDelayAndKeepsItsDuration) {
    const DeviceTimeline t = twoKernels();
    TimelineReplay replay(t);
    const TaskResult a = replay.next(1, 0, 1100);  // 1000 ns later (a p2p wait before it)
    EXPECT_EQ(a.submitNs, 1100u);
    EXPECT_EQ(a.startNs, 1105u);
    EXPECT_EQ(a.endNs, 1155u);
    ASSERT_EQ(a.blocks.size(), 1u);
    EXPECT_EQ(a.blocks[0].startNs, 1106u);
    // The second, submitted early as before, now waits for the moved first one.
    const TaskResult b = replay.next(2, 0, 130);
    EXPECT_EQ(b.startNs, 1160u);
    EXPECT_EQ(b.endNs, 1200u);
    EXPECT_EQ(replay.idleNs(), 1200u);
    EXPECT_TRUE(replay.finished());
}

TEST(DeviceTimeline, AKernelCanMoveEarlier) {
    const DeviceTimeline t = twoKernels();
    TimelineReplay replay(t);
    replay.next(1, 0, 100);
    // The first kernel as before; the second now submitted after it ended: ready at 300.
    const TaskResult b = replay.next(2, 0, 300);
    EXPECT_EQ(b.startNs, 305u);
    EXPECT_EQ(b.endNs, 345u);
}

TEST(DeviceTimeline, AnotherProgramIsRefused) {
    const DeviceTimeline t = twoKernels();
    TimelineReplay replay(t);
    EXPECT_THROW(replay.next(7, 0, 100), std::logic_error);  // another kernel
    TimelineReplay other(t);
    EXPECT_THROW(other.next(1, 3, 100), std::logic_error);  // another stream
    TimelineReplay longer(t);
    longer.next(1, 0, 100);
    longer.next(2, 0, 200);
    EXPECT_TRUE(longer.finished());
    EXPECT_THROW(longer.next(2, 0, 300), std::logic_error);  // more kernels than the timeline
}

}  // namespace
}  // namespace ascendsim
