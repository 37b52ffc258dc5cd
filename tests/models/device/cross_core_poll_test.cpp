// A KFC matmul server's wait for its AIVs (docs/fidelity.md §45): the AIC of a MIX kernel whose
// AIVs call matmul through Ascend C's KFC polls a message queue on its scalar unit
// (CrossCoreFlag::polled), so the wait counts as scalar busy; a hardware cross-core wait counts
// as a flag wait. The timing is the same either way.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

// The AIVs work 400 cycles, then signal their AIC (mode 2), which waits for both and works 10.
TaskResult runGroup(bool polled) {
    DeviceRun run;
    const std::vector<Instruction> cube = {Instruction::crossCoreWait(4, 2, polled), Instruction::scalar(10)};
    const std::vector<Instruction> vec = {Instruction::scalar(400), Instruction::crossCoreSet(4, 2, Pipe::Scalar)};
    KernelTask t;
    t.type = TaskType::MixAic;
    t.blockDim = 1;
    t.mixBlockDim = 2;
    t.program = mixPrograms(cube, vec);
    return run.runOne(std::move(t));
}

TEST(CrossCorePoll, PolledWaitCountsAsScalarBusy) {
    const TaskResult blocked = runGroup(false);
    const TaskResult polled = runGroup(true);
    const std::uint64_t waited = blocked.cubeSum[PmuEvent::WaitFlagScalar];
    EXPECT_GE(waited, 400u);
    EXPECT_EQ(polled.cubeSum[PmuEvent::WaitFlagScalar], 0u);
    EXPECT_EQ(polled.cubeSum[PmuEvent::ScalarBusy], blocked.cubeSum[PmuEvent::ScalarBusy] + waited);
    EXPECT_EQ(polled.endNs - polled.startNs, blocked.endNs - blocked.startNs);
}

}  // namespace
}  // namespace ascendsim::test
