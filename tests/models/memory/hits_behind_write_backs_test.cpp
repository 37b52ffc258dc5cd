// SharedMemorySystem, docs/fidelity.md §120: a read that hits L2 waits while the posted writes'
// write-backs queued at HBM exceed the write queue; a write that waits its own FCFS turn (it evicts
// held lines) is not in that queue and holds no hit.
#include <gtest/gtest.h>

#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

// The small chip (1 B/ps HBM, 5 B/ps L2, 10-cycle hits, 16 KiB 2-way L2 of 512 B lines) with eager
// write-back and a 2 KiB write queue.
constexpr std::uint64_t kQueueBytes = 2048;
constexpr std::uint64_t kHitLatencyPs = 10 * 1000;
constexpr std::uint64_t kLater = 1'000'000;  // ps: the first accesses have long drained by then

ChipConfig queuedWriteBackChip() {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.l2.writeBackQueueBytes = kQueueBytes;
    return chip;
}

TEST(HitsBehindWriteBacks, AHitWaitsUntilThePostedWriteBacksFitTheWriteQueue) {
    SharedMemorySystem memory(queuedWriteBackChip());
    PmuCounters counters;
    memory.access(testing_support::gmReadOf(0, 1024, 0, 1), counters);  // lines 0, 1 held clean
    // 8 KiB into the sets' free ways (no held line evicted): posted, its write-back at HBM until
    // kLater + 8192 ps; the write itself waits only for the part beyond the queue.
    EXPECT_EQ(memory.access(testing_support::gmWriteOf(8192, 8192, kLater), counters), kLater + 8192 - kQueueBytes + kHitLatencyPs);
    PmuCounters hitCounters;
    const std::uint64_t hitDone = memory.access(testing_support::gmReadOf(0, 1024, kLater, 1), hitCounters);
    EXPECT_EQ(hitCounters[PmuEvent::MainMemRead], 0u);  // a hit: no HBM traffic of its own
    EXPECT_EQ(hitDone, kLater + 8192 - kQueueBytes + kHitLatencyPs);
    // Once the queue has drained to its depth the hit is served at L2 speed again.
    const std::uint64_t drained = kLater + 8192;
    EXPECT_EQ(memory.access(testing_support::gmReadOf(0, 1024, drained, 1), hitCounters),
              drained + 1024 / 5 + 1 + kHitLatencyPs);
}

TEST(HitsBehindWriteBacks, AWriteThatWaitsItsOwnFcfsTurnHoldsNoHit) {
    SharedMemorySystem memory(queuedWriteBackChip());
    PmuCounters counters;
    memory.access(testing_support::gmReadOf(0, 16 * 1024, 0, 1), counters);  // the whole L2 held clean
    // 8 KiB into lines 32-47: each evicts the older of its set's held lines (0-15), so the write is
    // not posted (§117) and waits its FCFS turn itself.
    EXPECT_EQ(memory.access(testing_support::gmWriteOf(16 * 1024, 8192, kLater), counters), kLater + 8192 - kQueueBytes + kHitLatencyPs);
    // Lines 16 and 17 are still held: the hit waits for the L2's bandwidth only (the write's 8 KiB
    // ahead of it at 5 B/ps), not for the write-backs.
    PmuCounters hitCounters;
    const std::uint64_t hitDone = memory.access(testing_support::gmReadOf(8192, 1024, kLater, 1), hitCounters);
    EXPECT_EQ(hitCounters[PmuEvent::MainMemRead], 0u);
    EXPECT_EQ(hitDone, kLater + (8192 + 1024 + 4) / 5 + kHitLatencyPs);  // 1843.2 ps of L2, rounded up
    EXPECT_LT(hitDone, kLater + 8192 - kQueueBytes + kHitLatencyPs);       // what a posted write would hold it to
}

}  // namespace
}  // namespace ascendsim
