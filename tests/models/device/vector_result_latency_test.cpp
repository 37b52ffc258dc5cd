// The vector pipe's result latency (VectorTiming::resultLatencyCycles, docs/fidelity.md §40): a
// vector instruction's results land that long after it leaves the pipe; back-to-back instructions
// overlap it, a sync the vector pipe executes (SetFlag from V, PipeBarrier<PIPE_V>, PIPE_ALL) waits
// for it; a hand-off's wait counts as vector busy (the results are in flight), a PipeBarrier<PIPE_V>'s
// as no pipe's (§81: the real rows' vector time leaves the barriers' waits out).
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

constexpr std::uint32_t kLatency = 20;

PmuCounters run(const std::vector<Instruction>& program, std::uint32_t latency) {
    ChipConfig chip = deviceTestChip();
    chip.vector.resultLatencyCycles = latency;
    DeviceRun device(chip);
    return onlyBlock(device.runOne(vectorTask(program)));
}

// `vadds` one-repeat instructions (4 cycles each on the test chip), optionally a PipeBarrier<PIPE_V>
// between them, then the results handed to the scalar unit, which then works 10 cycles.
std::vector<Instruction> vaddsThenHandOff(int vadds, bool barriers) {
    std::vector<Instruction> p;
    for (int i = 0; i < vadds; ++i) {
        if (i > 0 && barriers) p.push_back(Instruction::barrier(Pipe::Vector));
        p.push_back(ascendsim::test::vadds(0x10000 + 0x1000 * static_cast<std::uint64_t>(i), 0));
    }
    p.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Scalar, 0));
    p.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Scalar, 0));
    p.push_back(Instruction::scalar(10));
    return p;
}

TEST(VectorResultLatency, AHandOffWaitsForTheLastResultsAndCountsAsVectorBusy) {
    const PmuCounters without = run(vaddsThenHandOff(1, false), 0);
    const PmuCounters with = run(vaddsThenHandOff(1, false), kLatency);
    EXPECT_EQ(without[PmuEvent::VecBusy], 4u);
    EXPECT_EQ(with[PmuEvent::VecBusy], 4u + kLatency);
    EXPECT_EQ(with.totalCycles, without.totalCycles + kLatency);  // the scalar work starts that much later
}

TEST(VectorResultLatency, BackToBackInstructionsOverlapItAndABarrierPaysItAgainAsNoPipesBusy) {
    const PmuCounters overlapped = run(vaddsThenHandOff(3, false), kLatency);
    EXPECT_EQ(overlapped[PmuEvent::VecBusy], 3u * 4 + kLatency);  // paid once, at the hand-off
    const PmuCounters serial = run(vaddsThenHandOff(3, true), kLatency);
    // Each barrier waits the latency out (the time), but only the hand-off's wait is vector busy.
    EXPECT_EQ(serial.totalCycles, overlapped.totalCycles + 2 * kLatency);
    EXPECT_EQ(serial[PmuEvent::VecBusy], overlapped[PmuEvent::VecBusy]);
    EXPECT_EQ(serial[PmuEvent::ScalarBusy], overlapped[PmuEvent::ScalarBusy]);
    EXPECT_EQ(serial[PmuEvent::WaitFlagVector], overlapped[PmuEvent::WaitFlagVector]);
    // Without a latency the barriers cost nothing: the pipe is in order.
    EXPECT_EQ(run(vaddsThenHandOff(3, true), 0).totalCycles, run(vaddsThenHandOff(3, false), 0).totalCycles);
}

TEST(VectorResultLatency, APipeAllBarrierWaitsForTheVectorResults) {
    std::vector<Instruction> p{vadds(0x10000, 0), Instruction::barrier(Pipe::All), Instruction::scalar(10)};
    EXPECT_EQ(run(p, kLatency).totalCycles, run(p, 0).totalCycles + kLatency);
}

}  // namespace
}  // namespace ascendsim::test
