// hbm.outstandingReadLinesPerCore: a core's cold reads arrive at most `outstanding` lines per HBM
// read latency (Little's law), however idle HBM is; hits and writes are not limited.
#include <gtest/gtest.h>

#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

using testing_support::kSmallChipLineBytes;
constexpr std::uint64_t kLatencyPs = 100 * 1000;  // small chip: 100 cycles at 1 GHz

ChipConfig limitedChip(std::uint32_t outstandingLines) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.hbm.outstandingReadLinesPerCore = outstandingLines;
    return chip;
}

using testing_support::gmReadOf;

TEST(OutstandingReads, ColdLinesArriveOutstandingPerLatency) {
    SharedMemorySystem memory(limitedChip(4));
    PmuCounters counters;
    // 16 missed lines, 4 in flight: 4 latencies to receive them (HBM alone would take 8192 ps),
    // then the last line's own latency.
    EXPECT_EQ(memory.access(gmReadOf(0, 16 * kSmallChipLineBytes, 0, 0), counters), 4 * kLatencyPs + kLatencyPs);
}

TEST(OutstandingReads, ZeroMeansOnlyHbmBoundsTheFills) {
    SharedMemorySystem memory(limitedChip(0));
    PmuCounters counters;
    EXPECT_EQ(memory.access(gmReadOf(0, 16 * kSmallChipLineBytes, 0, 0), counters), 16 * kSmallChipLineBytes + kLatencyPs);
}

TEST(OutstandingReads, HitsAndWritesAreNotLimited) {
    SharedMemorySystem memory(limitedChip(1));
    PmuCounters counters;
    memory.access(gmReadOf(0, 16 * kSmallChipLineBytes, 0, 0), counters);
    const std::uint64_t start = 100'000'000;
    // A second read of the same lines hits: L2 rate (5 B/ps) plus the 10-cycle hit latency.
    EXPECT_EQ(memory.access(gmReadOf(0, 16 * kSmallChipLineBytes, start, 0), counters),
              start + static_cast<std::uint64_t>(16 * kSmallChipLineBytes / 5.0 + 0.999) + 10 * 1000);
    const GmAccess write{start, 0, 1 << 20, 16 * kSmallChipLineBytes, true};
    EXPECT_LT(memory.access(write, counters), start + kLatencyPs);
}

// The limit is each core's: two cores reading cold data at once both finish as one core alone
// would, so the chip moves twice the bytes in the same time while HBM is far from busy.
TEST(OutstandingReads, EachCoreHasItsOwnLimit) {
    SharedMemorySystem alone(limitedChip(4));
    SharedMemorySystem pair(limitedChip(4));
    PmuCounters counters;
    const std::uint64_t aloneDone = alone.access(gmReadOf(0, 16 * kSmallChipLineBytes, 0, 0), counters);
    const std::uint64_t doneA = pair.access(gmReadOf(0, 16 * kSmallChipLineBytes, 0, 0), counters);
    const std::uint64_t doneB = pair.access(gmReadOf(1 << 20, 16 * kSmallChipLineBytes, 0, 1), counters);
    EXPECT_EQ(doneA, aloneDone);
    EXPECT_EQ(doneB, aloneDone);
}

// When HBM is the tighter bound the limit does not add to it.
TEST(OutstandingReads, HbmBoundReadsAreNotSlowedFurther) {
    SharedMemorySystem memory(limitedChip(1000));
    PmuCounters counters;
    // 256 KiB of misses: HBM 262144 ps; 512 lines / 1000 per latency = 51200 ps.
    EXPECT_EQ(memory.access(gmReadOf(0, 512 * kSmallChipLineBytes, 0, 0), counters), 512 * kSmallChipLineBytes + kLatencyPs);
}

}  // namespace
}  // namespace ascendsim
