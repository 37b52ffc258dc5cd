// A block's first GM read is its launch's argument record (pipes.block_argument_read_bytes,
// docs/fidelity.md §58): every block of one launch reads the same record, at its start, before its
// first issue; it is the scalar unit's load, so the wait past the block's start-up and prologue
// counts scalar busy and no data pipe counts it (§121).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kTestGmBytes = std::uint64_t{1} << 30;

ChipConfig chipReadingArguments(std::uint32_t bytes) {
    ChipConfig chip = deviceTestChip();
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::GM)] = kTestGmBytes;
    chip.blockArgumentReadBytes = bytes;
    return chip;
}

// The GM reads of `run` that no program issued: the argument reads (the program reads address 0).
std::vector<GmAccess> argumentReads(const DeviceRun& run) {
    std::vector<GmAccess> reads;
    for (const GmAccess& a : run.memory.accesses)
        if (!a.isWrite && a.address != 0) reads.push_back(a);
    return reads;
}

TEST(LaunchArgumentRead, EveryBlockOfALaunchReadsTheSameRecordFirst) {
    DeviceRun run(chipReadingArguments(96));
    run.runOne(vectorTask(loadThenCompute(), 4, 7));
    const std::vector<GmAccess> reads = argumentReads(run);
    ASSERT_EQ(reads.size(), 4u);
    std::set<std::uint32_t> cores;
    for (const GmAccess& read : reads) {
        EXPECT_EQ(read.bytes, 96u);
        EXPECT_EQ(read.address, reads.front().address);  // one record per launch
        EXPECT_LT(read.address + read.bytes, kTestGmBytes + 1);
        cores.insert(read.coreId);
    }
    EXPECT_EQ(cores.size(), 4u);
    // Each block sends it before its program's load.
    for (std::uint32_t core : cores) {
        for (const GmAccess& a : run.memory.accesses) {
            if (a.coreId != core) continue;
            EXPECT_NE(a.address, 0u) << "core " << core << " loaded before its argument read";
            break;
        }
    }
}

TEST(LaunchArgumentRead, TwoLaunchesReadDifferentRecords) {
    DeviceRun run(chipReadingArguments(96));
    run.runOne(vectorTask(loadThenCompute(), 1, 1));
    run.runOne(vectorTask(loadThenCompute(), 1, 2));
    const std::vector<GmAccess> reads = argumentReads(run);
    ASSERT_EQ(reads.size(), 2u);
    EXPECT_NE(reads[0].address / run.chip.l2.lineBytes, reads[1].address / run.chip.l2.lineBytes);
}

TEST(LaunchArgumentRead, TheFirstIssueWaitsForTheReadAndTheScalarUnitCountsTheWait) {
    constexpr std::uint64_t kReadCycles = 500;  // the test chip runs at 1000 MHz: 1000 ps a cycle
    DeviceRun plain(chipReadingArguments(0));
    plain.memory.latencyPs = kReadCycles * 1000;
    const PmuCounters base = onlyBlock(plain.runOne(vectorTask(loadThenCompute())));
    EXPECT_TRUE(argumentReads(plain).empty());
    DeviceRun run(chipReadingArguments(96));
    run.memory.latencyPs = kReadCycles * 1000;
    const PmuCounters c = onlyBlock(run.runOne(vectorTask(loadThenCompute())));
    EXPECT_EQ(c.totalCycles, base.totalCycles + kReadCycles);
    EXPECT_EQ(c[PmuEvent::Mte2Busy], base[PmuEvent::Mte2Busy]);
    // The scalar unit stalls on its load for every cycle the block waits.
    EXPECT_EQ(c[PmuEvent::ScalarBusy], base[PmuEvent::ScalarBusy] + kReadCycles);
}

TEST(LaunchArgumentRead, AReadShorterThanTheBlocksStartUpAddsNoTime) {
    ChipConfig noRead = chipReadingArguments(0);
    noRead.blockPrologueScalarCycles = 400;
    DeviceRun plain(noRead);
    plain.memory.latencyPs = 300 * 1000;  // under the 400-cycle prologue
    const PmuCounters base = onlyBlock(plain.runOne(vectorTask(loadThenCompute())));
    ChipConfig reading = noRead;
    reading.blockArgumentReadBytes = 96;
    DeviceRun run(reading);
    run.memory.latencyPs = 300 * 1000;
    const PmuCounters c = onlyBlock(run.runOne(vectorTask(loadThenCompute())));
    EXPECT_EQ(c.totalCycles, base.totalCycles);
    EXPECT_EQ(c[PmuEvent::Mte2Busy], base[PmuEvent::Mte2Busy]);
    EXPECT_EQ(c[PmuEvent::ScalarBusy], base[PmuEvent::ScalarBusy]);  // the prologue covers the load
}

// A memory that serves reads of the argument record (every address but the program's 0) one after
// another, `turnPs` each: the launch's blocks queue on the record's line (line_read_queue.h).
class RecordTurnsMemory final : public MemorySystem {
public:
    explicit RecordTurnsMemory(std::uint64_t turnPs) : turnPs_(turnPs) {}
    std::uint64_t access(const GmAccess& a, PmuCounters&) override {
        if (a.isWrite || a.address == 0) return a.startPs;
        freePs_ = std::max(freePs_, a.startPs) + turnPs_;
        return freePs_;
    }

private:
    std::uint64_t turnPs_;
    std::uint64_t freePs_ = 0;
};

// Blocks that start together queue on the record: the later a block's turn, the more cycles its
// scalar unit stalls on the load (a warm many-block launch, docs/fidelity.md §116f, §121).
TEST(LaunchArgumentRead, BlocksQueuedOnTheRecordStallTheirScalarUnitByTheirTurn) {
    constexpr std::uint64_t kTurnCycles = 300;  // 1000 ps a cycle on the test chip
    FreshSimulationContext context;
    ChipConfig chip = chipReadingArguments(96);
    chip.blockPrologueScalarCycles = 0;
    chip.blockStartCycles = 0;
    chip.blockDispatchIntervalCycles = 0;
    RecordTurnsMemory memory(kTurnCycles * 1000);
    RecordingObserver observer;
    Device device(chip, observer, memory);
    device.submit(vectorTask(loadThenCompute(), 4, 7), 0);
    device.runUntilIdle();
    ASSERT_EQ(observer.results.size(), 1u);
    std::vector<std::uint64_t> scalar;
    for (const BlockResult& block : observer.results[0].blocks) scalar.push_back(block.counters[PmuEvent::ScalarBusy]);
    ASSERT_EQ(scalar.size(), 4u);
    std::sort(scalar.begin(), scalar.end());
    for (std::size_t i = 1; i < scalar.size(); ++i) EXPECT_EQ(scalar[i] - scalar[i - 1], kTurnCycles) << "turn " << i;
}

}  // namespace
}  // namespace ascendsim::test
