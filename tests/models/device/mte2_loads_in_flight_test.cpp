// MTE2 keeps its GM loads in flight on a chip with pipes.mte2_load_issue_cycles (docs/fidelity.md
// §64): the pipe issues the next load after a load's issue cost (or once the memory has taken its
// requests), each load's data and the MTE2 flag set after it arrive at its completion, and MTE2
// busy runs from the first issue to the last data. One load alone is unchanged.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kLatencyCycles = 300;  // every GM access is served this long after it starts
constexpr std::uint32_t kIssueCycles = 50;
constexpr std::uint32_t kLoadBytes = 512;      // 8 cycles on the test chip's curve and port

// requestCycles: how long the memory takes a load's requests (0: at once).
PmuCounters runLoads(const std::vector<Instruction>& program, std::uint32_t issueCycles,
                     std::uint64_t requestCycles = 0) {
    ChipConfig chip = deviceTestChip();
    chip.mte2LoadIssueCycles = issueCycles;
    return runVectorBlockOnTimedMemory(chip, program, kLatencyCycles, requestCycles);
}

// `loads` 512 B GM → UB loads into distinct UB slots, the MTE2 → V hand-off, one vadds on the data.
std::vector<Instruction> loadsThenCompute(int loads) {
    std::vector<Instruction> p;
    for (int i = 0; i < loads; ++i)
        p.push_back(gmToUb(0x1000 * static_cast<std::uint64_t>(i), kLoadBytes, 0x10000 * static_cast<std::uint64_t>(i)));
    p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, 0));
    p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, 0));
    p.push_back(vadds(0x20000, 0));
    return p;
}

TEST(Mte2LoadsInFlight, OneLoadKeepsItsTimeAndBusy) {
    const PmuCounters held = runLoads(loadsThenCompute(1), 0);
    const PmuCounters inFlight = runLoads(loadsThenCompute(1), kIssueCycles);
    EXPECT_EQ(held[PmuEvent::Mte2Busy], kLatencyCycles);
    EXPECT_EQ(inFlight[PmuEvent::Mte2Busy], kLatencyCycles);
    EXPECT_EQ(inFlight.totalCycles, held.totalCycles);  // the flag still waits for the data
}

TEST(Mte2LoadsInFlight, ConsecutiveLoadsOverlapTheirLatency) {
    const PmuCounters held = runLoads(loadsThenCompute(4), 0);
    const PmuCounters inFlight = runLoads(loadsThenCompute(4), kIssueCycles);
    EXPECT_EQ(held[PmuEvent::Mte2Busy], 4 * kLatencyCycles);
    // Busy from the first issue to the last load's data: three issue costs and one latency.
    EXPECT_EQ(inFlight[PmuEvent::Mte2Busy], 3 * kIssueCycles + kLatencyCycles);
    // The vector work waits for the last load's data, which comes that much sooner.
    EXPECT_EQ(inFlight.totalCycles, held.totalCycles - 3 * (kLatencyCycles - kIssueCycles));
}

TEST(Mte2LoadsInFlight, TheNextLoadWaitsForTheRequestsOfThePrevious) {
    // The memory takes a load's requests in 120 cycles, longer than the issue cost: that paces them.
    constexpr std::uint64_t kRequestCycles = 120;
    const PmuCounters paced = runLoads(loadsThenCompute(4), kIssueCycles, kRequestCycles);
    EXPECT_EQ(paced[PmuEvent::Mte2Busy], 3 * kRequestCycles + kLatencyCycles);
}

TEST(Mte2LoadsInFlight, WithoutTheConstantALoadHoldsMte2ToItsData) {
    // Without the chip parameter a load holds MTE2 until its data is in, whatever the memory says
    // about its requests.
    const PmuCounters held = runLoads(loadsThenCompute(4), 0);
    EXPECT_EQ(held[PmuEvent::Mte2Busy], 4 * kLatencyCycles);
}

}  // namespace
}  // namespace ascendsim::test
