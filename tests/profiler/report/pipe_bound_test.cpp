#include "profiler/report/pipe_bound.h"

#include <gtest/gtest.h>

namespace ascendsim {
namespace {

TaskResult taskWithCubeSide(std::uint64_t total, std::uint64_t mac, std::uint64_t mte2) {
    TaskResult t;
    t.type = TaskType::AiCore;
    t.cubeSum.totalCycles = total;
    t.cubeSum[PmuEvent::MacBusy] = mac;
    t.cubeSum[PmuEvent::Mte2Busy] = mte2;
    return t;
}

TEST(PipeBound, TheBusiestPipeBoundsTheKernel) {
    EXPECT_EQ(boundPipeOf(taskWithCubeSide(1000, 900, 400)), BoundPipe::Cube);
    EXPECT_EQ(boundPipeOf(taskWithCubeSide(1000, 300, 950)), BoundPipe::Mte2);
}

TEST(PipeBound, RatiosCompareAcrossSidesByEachSidesOwnCycles) {
    TaskResult t = taskWithCubeSide(1000, 500, 100);
    t.type = TaskType::MixAic;
    t.vectorSum.totalCycles = 100;  // a short vector side that is almost always busy
    t.vectorSum[PmuEvent::VecBusy] = 90;
    EXPECT_EQ(boundPipeOf(t), BoundPipe::Vector);
}

TEST(PipeBound, AiCpuTasksAreBoundByTheAiCpu) {
    TaskResult t;
    t.type = TaskType::AiCpu;
    EXPECT_EQ(boundPipeOf(t), BoundPipe::AiCpu);
}

}  // namespace
}  // namespace ascendsim
