// torch_npu.npu.mstx markers (sim/host/mstx_recorder.h): recorded on the Python thread at their op
// boundaries, numbered in call order, only with msprof_tx and the NPU activity in profiled steps.
#include <gtest/gtest.h>

#include "sim/host/fake_device_queue.h"
#include "sim/host/host_model.h"

namespace ascendsim {
namespace {

using testing::FakeDeviceQueue;
using testing::trainingStep;

// trainingStep's ops: 0 conv2d, 1 relu_, 2 linear, then the backward nodes 3-5.
HostStep markedStep(std::uint32_t number, bool profiled = true) {
    HostStep step = trainingStep(number);
    step.profiled = profiled;
    step.markers.push_back({StepMarkerKind::Mark, 0, true, "step begin", "train", 0});
    step.markers.push_back({StepMarkerKind::RangeStart, 0, true, "forward", "default", 0});
    step.markers.push_back({StepMarkerKind::RangeEnd, 2, false, "forward", "default", 0});
    step.markers.push_back({StepMarkerKind::Mark, 2, false, "loss ready", "default", 0});
    return step;
}

RunRecord runWith(const ProfilerConfig& config, bool markers = true, bool firstProfiled = true) {
    FakeDeviceQueue device(10'000);
    HostModelOptions options;
    options.profiler = config;
    HostModel model(options, device);
    model.runStep(markers ? markedStep(1, firstProfiled) : trainingStep(1));
    model.runStep(markers ? markedStep(2) : trainingStep(2));
    RunRecord record;
    model.finish(record);
    return record;
}

ProfilerConfig mstxOn() {
    ProfilerConfig config;
    config.msprofTx = true;
    return config;
}

const HostOpRecord& nth(const RunRecord& r, const std::string& name, int n) {
    for (const auto& op : r.hostOps)
        if (op.name == name && n-- == 0) return op;
    throw std::runtime_error("no record " + name);
}

TEST(MstxMarkers, MarksAndRangesSitAtTheirOpBoundariesOnThePythonThread) {
    const RunRecord r = runWith(mstxOn());
    ASSERT_EQ(r.mstxEvents.size(), 6u);  // 3 per step
    for (int step = 0; step < 2; ++step) {
        const MstxEventRecord& begin = r.mstxEvents[3 * step];
        const MstxEventRecord& forward = r.mstxEvents[3 * step + 1];
        const MstxEventRecord& loss = r.mstxEvents[3 * step + 2];
        EXPECT_EQ(begin.kind, MstxEventKind::Mark);
        EXPECT_EQ(begin.message, "step begin");
        EXPECT_EQ(begin.domain, "train");
        EXPECT_EQ(begin.startNs, begin.endNs);
        EXPECT_EQ(forward.kind, MstxEventKind::Range);
        EXPECT_EQ(forward.message, "forward");
        EXPECT_EQ(forward.startNs, begin.startNs);
        // The range spans the forward ops' torch calls and ends before the backward starts.
        EXPECT_LE(forward.startNs, nth(r, "aten::conv2d", step).startNs);
        EXPECT_EQ(forward.endNs, nth(r, "aten::linear", step).endNs);
        EXPECT_LT(forward.endNs, nth(r, "AddmmBackward0", step).startNs);
        EXPECT_EQ(loss.kind, MstxEventKind::Mark);
        EXPECT_EQ(loss.startNs, forward.endNs);
        for (const MstxEventRecord* m : {&begin, &forward, &loss})
            EXPECT_EQ(m->threadId, nth(r, "aten::conv2d", step).threadId);
        EXPECT_GE(begin.startNs, r.steps[static_cast<std::size_t>(step)].startNs);
    }
    // Mark ids in call order: mark, range start, mark per step.
    for (std::size_t i = 0; i < r.mstxEvents.size(); ++i) EXPECT_EQ(r.mstxEvents[i].markId, i);
}

TEST(MstxMarkers, NoneWithoutMsprofTxWithoutMarkersWithoutNpuOrOutsideProfiledSteps) {
    EXPECT_TRUE(runWith(ProfilerConfig{}).mstxEvents.empty());
    EXPECT_TRUE(runWith(mstxOn(), false).mstxEvents.empty());
    ProfilerConfig cpuOnly = mstxOn();
    cpuOnly.activityNpu = false;
    EXPECT_TRUE(runWith(cpuOnly).mstxEvents.empty());
    ProfilerConfig e2eCannOnly = mstxOn();
    e2eCannOnly.e2e = E2eProfile{};  // use_e2e_profiler false: no framework data
    EXPECT_TRUE(runWith(e2eCannOnly).mstxEvents.empty());
    const RunRecord secondOnly = runWith(mstxOn(), true, false);
    ASSERT_EQ(secondOnly.mstxEvents.size(), 3u);
    EXPECT_EQ(secondOnly.mstxEvents[0].markId, 0u);
    EXPECT_GE(secondOnly.mstxEvents[0].startNs, secondOnly.steps.back().startNs);
}

TEST(MstxMarkers, MarkersDoNotMoveTheHostTimeline) {
    const RunRecord with = runWith(mstxOn());
    const RunRecord without = runWith(mstxOn(), false);
    ASSERT_EQ(with.hostOps.size(), without.hostOps.size());
    for (std::size_t i = 0; i < with.hostOps.size(); ++i) {
        EXPECT_EQ(with.hostOps[i].startNs, without.hostOps[i].startNs) << with.hostOps[i].name;
        EXPECT_EQ(with.hostOps[i].endNs, without.hostOps[i].endNs) << with.hostOps[i].name;
    }
}

}  // namespace
}  // namespace ascendsim
