// hbm.read_efficiency / write_efficiency: HBM serves fills and write-backs at their share of the
// nominal bandwidth, on one server (a copy's reads and write-backs queue behind each other).
#include <gtest/gtest.h>

#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

constexpr std::uint64_t kPsPerCycle = 1000;  // 1000 MHz core clock

GmAccess readOf(std::uint64_t address, std::uint64_t bytes, std::uint64_t startPs = 0) {
    return GmAccess{startPs, 0, address, bytes, false};
}

TEST(HbmEfficiency, ReadMissTakesNominalTimeOverReadEfficiency) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.readEfficiency = 0.5;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    // 8 KiB of fills at 1 B/ps x 0.5 = 16384 ps, plus 100 cycles latency.
    EXPECT_EQ(memory.access(readOf(0, 8192), counters), 16384 + 100 * kPsPerCycle);
    EXPECT_EQ(memory.hbmBytesRead(), 8192u);  // traffic counts bytes, not time
}

TEST(HbmEfficiency, WriteBacksCostTheirOwnEfficiencyOnTheSameServer) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.readEfficiency = 0.5;
    chip.hbm.writeEfficiency = 0.25;
    chip.hbm.readLatencyCycles = 0;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(GmAccess{0, 0, 0, chip.l2.sizeBytes, true}, counters);  // L2 full of dirty lines
    const double before = memory.hbmServer().busyPs();
    // 4 lines of fills evict 4 dirty lines: 2048 B / 0.5 + 2048 B / 0.25 = 4096 + 8192 ps of HBM.
    memory.access(readOf(chip.l2.sizeBytes, 2048, 10'000'000), counters);
    EXPECT_DOUBLE_EQ(memory.hbmServer().busyPs() - before, 4096.0 + 8192.0);
    EXPECT_EQ(memory.hbmBytesWritten(), 2048u);
}

// hbm.read_only_efficiency: a fill while no write-back is queued at HBM pays no bus turnaround;
// one arriving while a write is still queued pays read_efficiency.
TEST(HbmEfficiency, ReadsWithoutQueuedWritesGetTheReadOnlyEfficiency) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.readEfficiency = 0.5;
    chip.hbm.readOnlyEfficiency = 0.8;
    chip.l2.writeBackQueueBytes = 1;  // eager: every write is an HBM write-back
    chip.hbm.readLatencyCycles = 0;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(readOf(0, 8192), counters);
    EXPECT_DOUBLE_EQ(memory.hbmServer().busyPs(), 8192.0 / 0.8);  // read-only stream
    const std::uint64_t t = 1'000'000;
    memory.access(GmAccess{t, 0, 1 << 20, 4096, true}, counters);  // 4096 ps of writes queued at t
    const double before = memory.hbmServer().busyPs();
    memory.access(readOf(1 << 24, 8192, t), counters);  // arrives while the write is queued
    EXPECT_DOUBLE_EQ(memory.hbmServer().busyPs() - before, 8192.0 / 0.5);
    const double drained = memory.hbmServer().busyPs();
    memory.access(readOf(1 << 25, 8192, 10 * t), counters);  // long after: read-only again
    EXPECT_DOUBLE_EQ(memory.hbmServer().busyPs() - drained, 8192.0 / 0.8);
}

TEST(HbmEfficiency, HitsDoNotPayHbmEfficiency) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.readEfficiency = 0.1;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(readOf(0, 8192), counters);
    const std::uint64_t start = 100'000'000;
    // L2 hit: 8192 / 5 B/ps through L2, plus 10 cycles, whatever the HBM efficiency.
    EXPECT_EQ(memory.access(readOf(0, 8192, start), counters),
              start + static_cast<std::uint64_t>(8192 / 5.0 + 0.999) + 10 * kPsPerCycle);
}

TEST(HbmEfficiency, OutOfRangeEfficiencyIsRejected) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.writeEfficiency = 0.0;
    EXPECT_THROW(SharedMemorySystem{chip}, std::invalid_argument);
    chip.hbm.writeEfficiency = 1.5;
    EXPECT_THROW(SharedMemorySystem{chip}, std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
