// The 910B parts' MTE2 holds each GM load until its data is in (docs/fidelity.md §66): unlike the
// 910A (§64, pipes.mte2_load_issue_cycles), a second load does not overlap the first one's wait.
// The real one-block kernels of both 910B samples (msinsight ef63bc64 st/level2 ranks 0 and 2,
// Ascend910B4_1650; e5a31957 text/level2 rank0, Ascend910B2) keep MTE2 busy 166-224 cycles for
// one L2-resident input (Cast [128] / [1024] / [32], Abs []) and 337-434 for two (Add, Equal,
// Greater, NotEqual, Pows, RealDiv, Mul by a 0-d tensor): twice one load, where the 910A's
// in-flight rule would give one load plus its 55-cycle issue. Checked on the shipped configs with
// the real SharedMemorySystem: the kernel runs twice and the second launch, whose reads hit the
// lines the first brought into L2, is measured.
#include <gtest/gtest.h>

#include "models/device/device.h"
#include "models/device/device_test_chip.h"
#include "models/systemc/fresh_simulation_context.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kInputGm = std::uint64_t{1} << 28;
constexpr std::uint64_t kOutputGm = std::uint64_t{1} << 30;
constexpr std::uint32_t kInputBytes = 512;  // Cast [128] fp32: one L2 line

// `inputs` 512 B GM -> UB loads from distinct lines, back to back on MTE2, then one vadds and the
// store of its result: a one-block elementwise kernel. `indexed`: each load is a row of a 1024-row
// table picked by an int32 index in UB (GatherV2's row moves).
KernelTask elementwiseKernel(int inputs, std::uint64_t id, bool indexed = false) {
    std::vector<Instruction> p;
    for (int i = 0; i < inputs; ++i) {
        const auto k = static_cast<std::uint64_t>(i);
        const std::uint64_t spacing = indexed ? std::uint64_t{1} << 20 : 0x10000;  // tables apart
        Instruction load = gmToUb(0x1000 * k, kInputBytes, kInputGm + spacing * k);
        if (indexed) {
            auto& move = std::get<DataMove>(load.operands);
            move.indexBytes = 4;
            move.indexAddr = 0x10000;
            move.indexedRowBytes = kInputBytes;
            move.indexedRows = 1024;
        }
        p.push_back(load);
    }
    p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, 0));
    p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, 0));
    p.push_back(vadds(0x8000, 0));
    p.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte3, 0));
    p.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, 0));
    p.push_back(ubToGm(0x8000, kInputBytes, kOutputGm));
    KernelTask task = vectorTask(std::move(p), 1, id);
    task.codeImage = 0x910B;  // one binary for both launches
    return task;
}

// MTE2 busy of the second of two launches of the kernel (its inputs L2-resident), or with `cold`
// of the first (its inputs miss L2).
std::uint64_t launchMte2Busy(const ChipConfig& chip, int inputs, bool cold, bool indexed = false) {
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    device.submit(elementwiseKernel(inputs, 1, indexed), 0);
    device.runUntilIdle();
    device.submit(elementwiseKernel(inputs, 2, indexed), 0);
    device.runUntilIdle();
    EXPECT_EQ(observer.results.size(), 2u);
    return (cold ? observer.results.front() : observer.results.back()).blocks.at(0).counters[PmuEvent::Mte2Busy];
}

std::uint64_t warmMte2Busy(const ChipConfig& chip, int inputs) { return launchMte2Busy(chip, inputs, false); }

TEST(Ascend910BMte2Hold, TwoL2ResidentLoadsKeepMte2BusyTwiceOneLoad) {
    for (const char* chipName : {"Ascend910B4_1650", "Ascend910B2"}) {
        SCOPED_TRACE(chipName);
        const ChipConfig chip = loadChipByName(chipName, defaultConfigDir());
        EXPECT_EQ(chip.mte2LoadIssueCycles, 0u);
        const std::uint64_t one = warmMte2Busy(chip, 1);
        const std::uint64_t two = warmMte2Busy(chip, 2);
        EXPECT_GE(one, 166u);
        EXPECT_LE(one, 224u);
        EXPECT_GE(two, 337u);
        EXPECT_LE(two, 434u);
        EXPECT_EQ(two, 2 * one);  // the second load waits out the first one's data
    }
}

// The 910A's rule on the same part would put the two loads well below the samples' 337-434: the
// second load's wait overlaps the first's, so MTE2 is busy one load plus the issue cost.
TEST(Ascend910BMte2Hold, The910AInFlightRuleWouldMissTheSamples) {
    ChipConfig chip = loadChipByName("Ascend910B4_1650", defaultConfigDir());
    chip.mte2LoadIssueCycles = loadChipByName("Ascend910", defaultConfigDir()).mte2LoadIssueCycles;
    ASSERT_GT(chip.mte2LoadIssueCycles, 0u);
    const std::uint64_t one = warmMte2Busy(chip, 1);
    const std::uint64_t two = warmMte2Busy(chip, 2);
    EXPECT_EQ(two, one + chip.mte2LoadIssueCycles);
    EXPECT_LT(two, 337u);
}

// Loads that miss L2 (docs/fidelity.md §123, pipes.mte2_miss_wait_in_flight_cycles): on the Qwen3
// part MTE2 issues the second load while the first one's fill is on its way, so two cold loads keep
// it busy two loads less the overlapped wait; the 910B2 (key 0) and hits still wait each load out.
TEST(Ascend910BMte2Hold, ColdLoadsOverlapTheirMissWaitOnlyWhereTheChipSaysSo) {
    const ChipConfig qwenPart = loadChipByName("Ascend910B4_1650", defaultConfigDir());
    ASSERT_GT(qwenPart.mte2MissWaitInFlightCycles, 0u);
    const auto one = static_cast<double>(launchMte2Busy(qwenPart, 1, true));
    const auto two = static_cast<double>(launchMte2Busy(qwenPart, 2, true));
    EXPECT_NEAR(two, 2.0 * one - qwenPart.mte2MissWaitInFlightCycles, 4.0);

    ChipConfig holding = qwenPart;
    holding.mte2MissWaitInFlightCycles = 0;
    const auto heldOne = static_cast<double>(launchMte2Busy(holding, 1, true));
    EXPECT_EQ(heldOne, one);  // one load alone: its busy runs to its data either way
    EXPECT_NEAR(static_cast<double>(launchMte2Busy(holding, 2, true)), 2.0 * heldOne, 4.0);

    const ChipConfig alexPart = loadChipByName("Ascend910B2", defaultConfigDir());
    EXPECT_EQ(alexPart.mte2MissWaitInFlightCycles, 0u);
}

// An indexed load (a table row a run-time index picks, docs/fidelity.md §177) keeps its miss wait on
// MTE2 even on the Qwen3 part: the chip's GatherV2 spends a whole miss on each random row, so two cold
// indexed loads keep MTE2 busy twice one, where two cold plain loads overlap their waits.
TEST(Ascend910BMte2Hold, ColdIndexedLoadsWaitEachMissOut) {
    const ChipConfig qwenPart = loadChipByName("Ascend910B4_1650", defaultConfigDir());
    ASSERT_GT(qwenPart.mte2MissWaitInFlightCycles, 0u);
    const auto one = static_cast<double>(launchMte2Busy(qwenPart, 1, true, true));
    const auto two = static_cast<double>(launchMte2Busy(qwenPart, 2, true, true));
    EXPECT_NEAR(two, 2.0 * one, 4.0);
    const auto plainTwo = static_cast<double>(launchMte2Busy(qwenPart, 2, true));
    EXPECT_LT(plainTwo, two - qwenPart.mte2MissWaitInFlightCycles / 2.0);
}

}  // namespace
}  // namespace ascendsim::test
