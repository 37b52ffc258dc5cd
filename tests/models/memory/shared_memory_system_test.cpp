// SharedMemorySystem: per-line L2 events, HBM traffic, and bandwidth shared between requesters.
#include <gtest/gtest.h>

#include <optional>

#include "models/memory/bandwidth_server.h"
#include "models/memory/hbm_sharing.h"
#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

constexpr std::uint64_t kLine = testing_support::kSmallChipLineBytes;
constexpr std::uint64_t kPsPerCycle = 1000;  // 1000 MHz core clock

ChipConfig smallChip() { return testing_support::smallMemoryChip(); }

GmAccess readOf(std::uint64_t address, std::uint64_t bytes, std::uint64_t startPs = 0,
                std::uint32_t core = 0) {
    return GmAccess{startPs, core, address, bytes, false};
}

GmAccess writeOf(std::uint64_t address, std::uint64_t bytes, std::uint64_t startPs = 0) {
    return GmAccess{startPs, 0, address, bytes, true};
}

TEST(BandwidthServer, IdleServerServesFromArrivalBusyServerQueues) {
    BandwidthServer server(2.0);
    EXPECT_DOUBLE_EQ(server.serve(100.0, 200.0), 200.0);
    EXPECT_DOUBLE_EQ(server.serve(150.0, 200.0), 300.0);  // waits until 200
    EXPECT_DOUBLE_EQ(server.serve(1000.0, 20.0), 1010.0);
    EXPECT_DOUBLE_EQ(server.busyPs(), 210.0);
}

TEST(SharedMemorySystem, ColdReadMissesEveryLineAndFillsFromHbm) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(readOf(0, 4 * kLine), counters);
    EXPECT_EQ(counters[PmuEvent::L2R0ReadMissAllocate], 2u);  // lines 0, 2
    EXPECT_EQ(counters[PmuEvent::L2R1ReadMissAllocate], 2u);  // lines 1, 3
    EXPECT_EQ(counters[PmuEvent::L2R0ReadHit] + counters[PmuEvent::L2R1ReadHit], 0u);
    EXPECT_EQ(counters[PmuEvent::L2Read], 4 * kLine / 256);
    EXPECT_EQ(counters[PmuEvent::MainMemRead], 4 * kLine / 8);
}

TEST(SharedMemorySystem, SecondReadHitsAndCausesNoHbmTraffic) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters first;
    PmuCounters second;
    memory.access(readOf(0, 4 * kLine), first);
    memory.access(readOf(0, 4 * kLine, 1'000'000), second);
    EXPECT_EQ(second[PmuEvent::L2R0ReadHit] + second[PmuEvent::L2R1ReadHit], 4u);
    EXPECT_EQ(second[PmuEvent::MainMemRead], 0u);
}

TEST(SharedMemorySystem, PartialLinesCountEachTouchedLineOnce) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(readOf(kLine - 32, 64), counters);  // straddles lines 0 and 1
    EXPECT_EQ(counters[PmuEvent::L2R0ReadMissAllocate] + counters[PmuEvent::L2R1ReadMissAllocate],
              2u);
    EXPECT_EQ(counters[PmuEvent::L2Read], 1u);  // 64 B rounds up to one 256 B unit
}

GmAccess stridedReadOf(std::uint64_t address, std::uint32_t bursts, std::uint64_t burstBytes,
                       std::uint64_t strideBytes) {
    GmAccess access = readOf(address, bursts * burstBytes);
    access.burstCount = bursts;
    access.burstStrideBytes = strideBytes;
    return access;
}

TEST(SharedMemorySystem, StridedReadTouchesOnlyTheLinesItsBurstsCover) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    // 4 bursts of 128 B, one every 4 lines: lines 0, 4, 8, 12 (all even), not the 13 lines the
    // range from the first to the last byte spans.
    memory.access(stridedReadOf(0, 4, 128, 4 * kLine), counters);
    EXPECT_EQ(counters[PmuEvent::L2R0ReadMissAllocate], 4u);
    EXPECT_EQ(counters[PmuEvent::L2R1ReadMissAllocate], 0u);
    EXPECT_EQ(counters[PmuEvent::MainMemRead], 4 * kLine / 8);
    EXPECT_EQ(memory.hbmBytesRead(), 4 * kLine);
    EXPECT_EQ(counters[PmuEvent::L2Read], 2u);  // 512 bytes moved, in 256 B units
    EXPECT_TRUE(memory.l2().contains(4));
    EXPECT_FALSE(memory.l2().contains(2));
}

TEST(SharedMemorySystem, BurstsSharingALineLookItUpOnce) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    // 8 bursts of 64 B every 128 B: lines 0 and 1, each looked up once (one miss, no hit).
    memory.access(stridedReadOf(0, 8, 64, 128), counters);
    EXPECT_EQ(counters[PmuEvent::L2R0ReadMissAllocate] + counters[PmuEvent::L2R1ReadMissAllocate], 2u);
    EXPECT_EQ(counters[PmuEvent::L2R0ReadHit] + counters[PmuEvent::L2R1ReadHit], 0u);
    EXPECT_EQ(memory.hbmBytesRead(), 2 * kLine);
}

TEST(SharedMemorySystem, WriteMissAllocatesWithoutReadingHbm) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(writeOf(0, 2 * kLine), counters);
    memory.access(writeOf(0, kLine), counters);
    EXPECT_EQ(counters[PmuEvent::L2WriteMissAllocate], 2u);
    EXPECT_EQ(counters[PmuEvent::L2WriteHit], 1u);
    EXPECT_EQ(counters[PmuEvent::L2Write], 3 * kLine / 256);
    EXPECT_EQ(counters[PmuEvent::MainMemRead], 0u);
    EXPECT_EQ(counters[PmuEvent::MainMemWrite], 0u);
}

TEST(SharedMemorySystem, EvictingDirtyLinesWritesThemBackToHbm) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(writeOf(0, chip.l2.sizeBytes), counters);  // fill the cache with dirty lines
    EXPECT_EQ(counters[PmuEvent::MainMemWrite], 0u);
    memory.access(readOf(chip.l2.sizeBytes, 4 * kLine), counters);  // evicts 4 dirty lines
    EXPECT_EQ(counters[PmuEvent::MainMemWrite], 4 * kLine / 8);
    EXPECT_EQ(memory.hbmBytesWritten(), 4 * kLine);
}

// Eager write-back (l2.write_back_queue_bytes > 0): a write goes to HBM as it lands in L2, the
// line stays clean, and the writer waits only for the HBM queue beyond the buffered bytes.
ChipConfig eagerChip(std::uint32_t queueBytes) {
    ChipConfig chip = smallChip();
    chip.l2.writeBackQueueBytes = queueBytes;
    return chip;
}

TEST(SharedMemorySystem, EagerWriteBackSendsWritesToHbmAsTheyDirtyLines) {
    const ChipConfig chip = eagerChip(4096);
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(writeOf(0, 2 * kLine), counters);
    EXPECT_EQ(counters[PmuEvent::MainMemWrite], 2 * kLine / 8);
    EXPECT_EQ(counters[PmuEvent::L2WriteMissAllocate], 2u);
    EXPECT_TRUE(memory.l2().isDirty(0));
    EXPECT_TRUE(memory.l2().contains(0));
    // Evicting the written lines costs nothing more: they were paid for when written.
    memory.access(readOf(chip.l2.sizeBytes, chip.l2.sizeBytes), counters);
    EXPECT_EQ(memory.hbmBytesWritten(), 2 * kLine);
}

// Eager write-back stands for an L2 full of dirty lines: a write pays a line of HBM write for
// each line it makes dirty (a miss, or a clean line a read filled); a write to a dirty line pays
// none.
TEST(SharedMemorySystem, EagerWriteBackChargesOnlyTheLinesAWriteMakesDirty) {
    SharedMemorySystem memory(eagerChip(4096));
    PmuCounters counters;
    memory.access(readOf(0, 2 * kLine), counters);  // lines 0 and 1 filled clean by a read
    memory.access(writeOf(0, 4 * kLine), counters);  // lines 0, 1 hit clean; lines 2, 3 allocate
    EXPECT_EQ(memory.hbmBytesWritten(), 4 * kLine);
    EXPECT_EQ(counters[PmuEvent::L2WriteHit], 2u);
    const double busy = memory.hbmServer().busyPs();
    memory.access(writeOf(0, 4 * kLine, 1'000'000), counters);  // all four lines dirty: no HBM
    EXPECT_EQ(memory.hbmBytesWritten(), 4 * kLine);
    EXPECT_DOUBLE_EQ(memory.hbmServer().busyPs(), busy);
    memory.access(writeOf(100 * kLine, 32), counters);  // a partial line still dirties a line
    memory.access(writeOf(100 * kLine + 32, 32), counters);  // ... once
    EXPECT_EQ(memory.hbmBytesWritten(), 5 * kLine);
}

TEST(SharedMemorySystem, EagerWriteBackWaitsOnlyForTheQueueBeyondItsBuffer) {
    // 8 KiB written at t = 0: L2 serves it in 8192 / 5 ps, HBM in 8192 ps (1 B/ps).
    const std::uint64_t l2Ps = static_cast<std::uint64_t>(8192 / 5.0 + 0.999);
    {
        SharedMemorySystem memory(eagerChip(8192));  // the whole write fits the buffer
        PmuCounters counters;
        EXPECT_EQ(memory.access(writeOf(0, 8192), counters), l2Ps + 10 * kPsPerCycle);
    }
    {
        SharedMemorySystem memory(eagerChip(2048));  // 6 KiB must drain before the write completes
        PmuCounters counters;
        EXPECT_EQ(memory.access(writeOf(0, 8192), counters), (8192 - 2048) + 10 * kPsPerCycle);
    }
}

TEST(SharedMemorySystem, EagerWriteBacksDelayLaterHbmReads) {
    SharedMemorySystem memory(eagerChip(16384));
    PmuCounters counters;
    memory.access(writeOf(0, 8192), counters);  // 8192 ps of HBM writes queued at t = 0
    // A read miss at t = 0 shares HBM with them (hbm_sharing.h): its 4096 ps at half the rate,
    // 8192 ps, plus the read latency; the read after it waits for both.
    EXPECT_EQ(memory.access(readOf(1 << 20, 4096), counters), 8192 + 100 * kPsPerCycle);
    EXPECT_EQ(memory.hbmServer().nextFreePs(), 8192.0 + 4096.0);
}

// Processor sharing (hbm_sharing.h): behind the same backlog a write of half a read's HBM time
// waits half as long, as real MTE3 / MTE2 busy times show; the FCFS server keeps the throughput.
TEST(SharedMemorySystem, QueuedRequestsWaitInProportionToTheirOwnSize) {
    ChipConfig chip = eagerChip(1);
    chip.l2.sizeBytes = 1 << 20;  // the write fills free ways: one that evicts waits FCFS (§117)
    chip.l2.ways = 16;            // the nine requests share their sets
    chip.hbm.readLatencyCycles = 0;
    chip.l2.hitLatencyCycles = 0;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    for (int core = 0; core < 8; ++core)  // 8 reads of 4096 ps queued at t = 0
        memory.access(readOf(static_cast<std::uint64_t>(core) << 20, 4096, 0, core), counters);
    const double backlog = memory.hbmServer().nextFreePs();
    const std::uint64_t readDone = memory.access(readOf(1 << 28, 4096, 0, 8), counters);
    const std::uint64_t writeDone = memory.access(writeOf(1 << 29, 2048, 0), counters);
    EXPECT_EQ(backlog, 8 * 4096.0);
    EXPECT_NEAR(static_cast<double>(writeDone) / static_cast<double>(readDone), 0.5, 0.1);
    EXPECT_LT(static_cast<double>(writeDone), backlog);  // FCFS would make it wait the whole backlog
    EXPECT_EQ(memory.hbmServer().nextFreePs(), 8 * 4096.0 + 4096.0 + 2048.0);
}

// Write back-pressure (docs/fidelity.md §60, §117): the setup both tests share. On a 1 MiB L2,
// `fill` (if any) first fills it; long after, 8 reads of 4096 ps each queue at HBM, then a 2048 B
// write goes into lines the reads did not touch, so its victims are the fill's lines, or none.
// Returns how long after the queue started the write completes.
namespace write_back_pressure {
constexpr std::uint64_t kL2Bytes = 1 << 20;
constexpr std::uint64_t kLater = 100'000'000;  // ps: the fill has long drained by then

std::uint64_t writeBehindEightReads(const std::optional<GmAccess>& fill, bool checkBacklog) {
    ChipConfig chip = eagerChip(4096);
    chip.l2.sizeBytes = kL2Bytes;
    chip.hbm.readLatencyCycles = 0;
    chip.l2.hitLatencyCycles = 0;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    if (fill) memory.access(*fill, counters);
    for (int core = 0; core < 8; ++core)  // 8 reads of 4096 ps queued at kLater
        memory.access(readOf(kL2Bytes * 8 + static_cast<std::uint64_t>(core) * 4096, 4096, kLater, core), counters);
    if (checkBacklog) {
        EXPECT_EQ(memory.hbmServer().nextFreePs(), kLater + 8 * 4096.0);
    }
    const std::uint64_t writeBacksBefore = counters[PmuEvent::MainMemWrite];
    const std::uint64_t done = memory.access(writeOf(kL2Bytes * 16 + kL2Bytes / 4, 2048, kLater), counters);
    EXPECT_EQ(counters[PmuEvent::MainMemWrite] - writeBacksBefore, 2048u / 8);  // no victim written back
    return done - kLater;
}
}  // namespace write_back_pressure

// §60: behind the same backlog, a write whose lines are free (invalid or clean) is posted and
// shares HBM; one whose lines' victims are dirty (an L2 full of data written earlier) waits its
// turn in the FCFS order, the backlog ahead of it and its own bytes, less what the write queue holds.
TEST(SharedMemorySystem, AWriteThatEvictsDirtyLinesWaitsItsFcfsTurnAtHbm) {
    using namespace write_back_pressure;
    const std::uint64_t posted = writeBehindEightReads(std::nullopt, true);
    const std::uint64_t backPressured = writeBehindEightReads(writeOf(0, kL2Bytes), true);
    EXPECT_LT(posted, 8 * 4096u - 4096u);                 // processor sharing, less the queue
    EXPECT_EQ(backPressured, 8 * 4096u + 2048u - 4096u);  // FCFS: the backlog, its bytes, less the queue
}

// §117, a stream past the L2: a write whose lines' victims are clean (an L2 full of the stream's
// own reads) waits its FCFS turn as §60's dirty victims do; into free ways it is posted and shares HBM.
TEST(SharedMemorySystem, AWriteThatEvictsCleanLinesWaitsItsFcfsTurnAtHbm) {
    using namespace write_back_pressure;
    const std::uint64_t posted = writeBehindEightReads(std::nullopt, false);
    const std::uint64_t pastTheL2 = writeBehindEightReads(readOf(0, kL2Bytes), false);
    EXPECT_LT(posted, 8 * 4096u - 4096u);              // processor sharing, less the queue
    EXPECT_EQ(pastTheL2, 8 * 4096u + 2048u - 4096u);  // FCFS: the backlog, its bytes, less the queue
}

TEST(HbmSharing, AverageLatencyEqualsFcfsAndAnIdleServerServesAtOnce) {
    HbmSharing sharing;
    EXPECT_DOUBLE_EQ(sharing.complete(0.0, 100.0, 100.0), 100.0);
    EXPECT_DOUBLE_EQ(sharing.complete(0.0, 50.0, 150.0), 100.0);   // shares with 1 ahead
    EXPECT_DOUBLE_EQ(sharing.complete(0.0, 100.0, 250.0), 300.0);  // 150 ps ahead, mean 75
    EXPECT_DOUBLE_EQ(sharing.complete(1000.0, 10.0, 1010.0), 1010.0);  // the queue has drained
}

TEST(SharedMemorySystem, MissTimeIsHbmTransferPlusReadLatency) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    // 8 KiB of misses at 1 B/ps = 8192 ps, plus 100 cycles latency.
    EXPECT_EQ(memory.access(readOf(0, 8192), counters), 8192 + 100 * kPsPerCycle);
    // The same bytes again hit: 8192 / 5 B/ps through L2, plus 10 cycles.
    const std::uint64_t start = 1'000'000;
    EXPECT_EQ(memory.access(readOf(0, 8192, start), counters),
              start + static_cast<std::uint64_t>(8192 / 5.0 + 0.999) + 10 * kPsPerCycle);
}

// Two requesters streaming distinct data back to back: each gets half the HBM bandwidth.
TEST(SharedMemorySystem, MteTransfer_HalfBandwidthWhenTwoCoresShareHbm) {
    ChipConfig chip = smallChip();
    chip.hbm.readLatencyCycles = 0;  // one transfer in flight per core: keep it bandwidth-bound
    chip.l2.hitLatencyCycles = 0;
    SharedMemorySystem alone(chip);
    SharedMemorySystem shared(chip);
    PmuCounters counters;
    constexpr std::uint64_t kChunk = 4096;
    constexpr int kTransfers = 200;
    std::uint64_t aloneDone = 0;
    for (int i = 0; i < kTransfers; ++i) {
        aloneDone = alone.access(readOf(i * kChunk, kChunk, aloneDone), counters);
    }
    std::uint64_t doneA = 0;
    std::uint64_t doneB = 0;
    for (int i = 0; i < kTransfers; ++i) {  // issue in time order, as the device does
        if (doneA <= doneB) {
            doneA = shared.access(readOf(i * kChunk, kChunk, doneA, 0), counters);
            doneB = shared.access(readOf((1 << 30) + i * kChunk, kChunk, doneB, 1), counters);
        } else {
            doneB = shared.access(readOf((1 << 30) + i * kChunk, kChunk, doneB, 1), counters);
            doneA = shared.access(readOf(i * kChunk, kChunk, doneA, 0), counters);
        }
    }
    const double aloneRate = static_cast<double>(kTransfers * kChunk) / aloneDone;
    const double rateA = static_cast<double>(kTransfers * kChunk) / doneA;
    const double rateB = static_cast<double>(kTransfers * kChunk) / doneB;
    EXPECT_NEAR(rateA / aloneRate, 0.5, 0.05);
    EXPECT_NEAR(rateB / aloneRate, 0.5, 0.05);
    EXPECT_NEAR(shared.hbmServer().busyPs() / std::max(doneA, doneB), 1.0, 0.05);
}

TEST(SharedMemorySystem, HitsAreServedAtL2BandwidthFiveTimesHbm) {
    const ChipConfig chip = smallChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    constexpr std::uint64_t kBytes = 8192;
    const std::uint64_t coldDone = memory.access(readOf(0, kBytes), counters);
    std::uint64_t hotStart = coldDone;
    std::uint64_t hotDone = 0;
    for (int i = 0; i < 100; ++i) {  // back-to-back hits, latency overlapped by queueing
        hotDone = memory.access(readOf(0, kBytes, hotStart), counters);
        hotStart = std::max(hotStart, static_cast<std::uint64_t>(memory.l2Server().nextFreePs()));
    }
    const double hotBytesPerPs = 100.0 * kBytes / (hotDone - coldDone - 10 * kPsPerCycle);
    EXPECT_NEAR(hotBytesPerPs, 5.0, 0.25);
}


// The timeline's victims (setBackgroundVictims, docs/fidelity.md §103): a miss into a way no
// simulated line used evicts one of the lines the timeline left in L2, dirty in the given share;
// write-back is then lazy, whatever the chip's queue says.
std::uint64_t hbmWrittenByTwoWrites(double dirtyShare, std::uint32_t queueBytes) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.l2.writeBackQueueBytes = queueBytes;
    SharedMemorySystem memory(chip);
    if (dirtyShare >= 0.0) memory.setBackgroundVictims(dirtyShare);
    PmuCounters counters;
    memory.access(GmAccess{0, 0, 0, 4 * 512, true}, counters);          // four lines into empty ways
    memory.access(GmAccess{1'000'000, 0, 0, 4 * 512, true}, counters);  // the same lines again: hits
    return memory.hbmBytesWritten();
}

TEST(SharedMemoryVictims, AMissIntoAnUnusedWayPaysTheTimelinesDirtyShareOfAWriteBack) {
    EXPECT_EQ(hbmWrittenByTwoWrites(-1.0, 0), 0u);         // lazy, no timeline: nothing evicted
    EXPECT_EQ(hbmWrittenByTwoWrites(-1.0, 32768), 2048u);  // eager: every line made dirty, once
    EXPECT_EQ(hbmWrittenByTwoWrites(0.0, 32768), 0u);      // the timeline's victims are clean
    EXPECT_EQ(hbmWrittenByTwoWrites(0.5, 32768), 1024u);   // half of them dirty
    EXPECT_EQ(hbmWrittenByTwoWrites(1.0, 0), 2048u);
    EXPECT_THROW(hbmWrittenByTwoWrites(1.5, 0), std::invalid_argument);
}

// The eager write-back's bound under the timeline (setFreeWayWriteBackShare, docs/fidelity.md
// §178): a write into ways no simulated line used pays the bound's share of a line of HBM write;
// a write that makes a line the simulation holds dirty again pays a whole one.
std::uint64_t hbmWrittenWithFreeWayShare(double share) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.l2.writeBackQueueBytes = 32768;  // eager
    SharedMemorySystem memory(chip);
    if (share >= 0.0) memory.setFreeWayWriteBackShare(share);
    PmuCounters counters;
    memory.access(GmAccess{0, 0, 0, 4 * 512, true}, counters);          // four lines into empty ways
    memory.access(GmAccess{1'000'000, 0, 0, 4 * 512, true}, counters);  // still dirty: no new write-back
    memory.access(GmAccess{2'000'000, 0, 4 * 512, 512, false}, counters);  // a clean line, read in
    memory.access(GmAccess{3'000'000, 0, 4 * 512, 512, true}, counters);   // made dirty: a whole line
    return memory.hbmBytesWritten();
}

TEST(SharedMemoryVictims, AnEagerWriteIntoFreeWaysPaysTheTimelinesBoundOfAWriteBack) {
    EXPECT_EQ(hbmWrittenWithFreeWayShare(-1.0), 5u * 512);  // no timeline: every line made dirty
    EXPECT_EQ(hbmWrittenWithFreeWayShare(1.0), 5u * 512);
    EXPECT_EQ(hbmWrittenWithFreeWayShare(0.25), 512u + 512);  // a quarter of the four, the held one whole
    EXPECT_EQ(hbmWrittenWithFreeWayShare(0.0), 512u);
    EXPECT_THROW(hbmWrittenWithFreeWayShare(1.5), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
