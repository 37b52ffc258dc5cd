// docs/fidelity.md §128e: a write whose every line hits and that dirties clean lines (an in-place
// update of data the kernel has just read: ApplyAdamWV2's var / m / v) waits its FCFS turn at HBM,
// as §60 / §117's evicting writes do; a write into free ways is still posted and shares HBM.
#include <gtest/gtest.h>

#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace in_place_write_fcfs {

constexpr std::uint64_t kL2Bytes = 1 << 20;
constexpr std::uint64_t kLater = 100'000'000;  // ps: the first read has long drained by then
constexpr std::uint64_t kQueueBytes = 4096;

// The ps a 2 KiB write at `writeAddress` takes behind eight 4 KiB reads queued at HBM (1 B/ps),
// after a read of the 2 KiB at address 0 that left its lines clean in L2.
std::uint64_t writeBehindEightReads(std::uint64_t writeAddress, std::uint64_t& writeBacks) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.l2.writeBackQueueBytes = kQueueBytes;
    chip.l2.sizeBytes = kL2Bytes;
    chip.hbm.readLatencyCycles = 0;
    chip.l2.hitLatencyCycles = 0;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(GmAccess{0, 0, 0, 2048, false}, counters);  // the kernel's read of what it updates
    for (std::uint32_t core = 1; core <= 8; ++core)
        memory.access(GmAccess{kLater, core, kL2Bytes * 8 + core * 4096, 4096, false}, counters);
    const std::uint64_t before = counters[PmuEvent::MainMemWrite];
    const std::uint64_t done = memory.access(GmAccess{kLater, 0, writeAddress, 2048, true}, counters);
    writeBacks = counters[PmuEvent::MainMemWrite] - before;
    return done - kLater;
}

TEST(InPlaceWriteFcfs, AWriteThatDirtiesTheCleanLinesItHitsWaitsItsFcfsTurnAtHbm) {
    std::uint64_t inPlaceWriteBacks = 0, freshWriteBacks = 0;
    const std::uint64_t inPlace = writeBehindEightReads(0, inPlaceWriteBacks);
    const std::uint64_t fresh = writeBehindEightReads(kL2Bytes / 2, freshWriteBacks);
    EXPECT_EQ(inPlaceWriteBacks, 2048u / 8);  // eager: the lines it dirties are written back now
    EXPECT_EQ(freshWriteBacks, 2048u / 8);
    EXPECT_EQ(inPlace, 8 * 4096u + 2048u - kQueueBytes);  // FCFS: the backlog, its bytes, less the queue
    EXPECT_LT(fresh, 8 * 4096u - kQueueBytes);            // into free ways: processor sharing, less the queue
}

}  // namespace in_place_write_fcfs
}  // namespace ascendsim
