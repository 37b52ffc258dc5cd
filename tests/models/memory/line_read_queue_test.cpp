// l2.sameLineReadCycles: reads of one L2 line by several cores at once are served one after
// another (models/memory/line_read_queue.h, docs/fidelity.md §39).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "models/memory/line_read_queue.h"
#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

using testing_support::kSmallChipLineBytes;
constexpr std::uint64_t kTurnPs = 50 * 1000;  // 50 cycles at the small chip's 1 GHz

ChipConfig queuedChip(std::uint32_t cycles) {
    ChipConfig chip = testing_support::smallMemoryChip();
    chip.l2.sameLineReadCycles = cycles;
    return chip;
}

using testing_support::gmReadOf;

// Eight cores read one record at once: each waits one turn more than the core before it (the
// L2 itself serves 96 B in about 20 ps, so without the queue they would all end together).
TEST(LineReadQueue, ReadsOfOneLineAtOnceAreServedOneAfterAnother) {
    SharedMemorySystem memory(queuedChip(50));
    PmuCounters counters;
    memory.access(gmReadOf(4096, 96, 0, 0), counters);  // the record in L2
    const std::uint64_t start = 10'000'000;
    const std::uint64_t first = memory.access(gmReadOf(4096, 96, start, 0), counters);
    for (std::uint32_t core = 1; core < 8; ++core)
        EXPECT_NEAR(static_cast<double>(memory.access(gmReadOf(4096, 96, start, core), counters) - first),
                    static_cast<double>(core * kTurnPs), 200.0)
            << core;
}

TEST(LineReadQueue, ZeroCyclesServesEveryReadAtOnce) {
    SharedMemorySystem memory(queuedChip(0));
    PmuCounters counters;
    memory.access(gmReadOf(4096, 96, 0, 0), counters);
    const std::uint64_t start = 10'000'000;
    const std::uint64_t first = memory.access(gmReadOf(4096, 96, start, 0), counters);
    EXPECT_LT(memory.access(gmReadOf(4096, 96, start, 7), counters) - first, 200u);
}

TEST(LineReadQueue, ReadsOfDifferentLinesDoNotWait) {
    SharedMemorySystem queued(queuedChip(50));
    SharedMemorySystem free(queuedChip(0));
    PmuCounters counters;
    for (std::uint32_t core = 0; core < 4; ++core) {
        const GmAccess read = gmReadOf(core * kSmallChipLineBytes, 96, 0, core);
        EXPECT_EQ(queued.access(read, counters), free.access(read, counters)) << core;
    }
}

// A read that arrives after the line's queue has drained is served at once; one arriving in the
// middle of the previous read's turn waits for the rest of it.
TEST(LineReadQueue, AReadWaitsOnlyForTheTurnsStillAhead) {
    LineReadQueue queue(static_cast<double>(kTurnPs), kSmallChipLineBytes);
    const L2Bursts record{4096, 96, 1, 0};
    EXPECT_EQ(queue.wait(record, 0.0), 0.0);
    EXPECT_EQ(queue.wait(record, 20'000.0), 30'000.0);  // turn at 50 000, free at 100 000
    EXPECT_EQ(queue.wait(record, 100'000.0), 0.0);
}

// A read of several lines waits for the latest of its lines' turns; each line queues once even
// when two of its bursts share it.
TEST(LineReadQueue, AReadOfSeveralLinesWaitsForItsLatestTurn) {
    LineReadQueue queue(static_cast<double>(kTurnPs), kSmallChipLineBytes);
    queue.wait({2 * kSmallChipLineBytes, 96, 1, 0}, 0.0);
    queue.wait({2 * kSmallChipLineBytes, 96, 1, 0}, 0.0);  // line 2 now free at 100 000
    EXPECT_EQ(queue.wait({0, 3 * kSmallChipLineBytes, 1, 0}, 0.0), 100'000.0);
    // Two 256 B bursts in line 5 and one in line 6: lines 5 and 6 each take one turn.
    EXPECT_EQ(queue.wait({5 * kSmallChipLineBytes, 256, 3, 256}, 0.0), 0.0);
    EXPECT_EQ(queue.wait({5 * kSmallChipLineBytes, 96, 1, 0}, 0.0), static_cast<double>(kTurnPs));
}

TEST(LineReadQueue, WritesDoNotQueue) {
    SharedMemorySystem queued(queuedChip(50));
    SharedMemorySystem free(queuedChip(0));
    PmuCounters counters;
    for (std::uint32_t core = 0; core < 4; ++core) {
        const GmAccess write{0, core, 4096, 96, true};
        EXPECT_EQ(queued.access(write, counters), free.access(write, counters)) << core;
    }
}

// The queue as a plain per-line table (16384 direct-mapped slots keyed by line index + 1), the
// wait as the latest of the per-line waits: LineReadQueue::wait, which subtracts the arrival once
// from the latest turn, must equal it to the bit.
struct ReferenceLineQueue {
    static constexpr std::uint64_t kSlots = 16384;
    double servicePs;
    std::vector<std::uint64_t> keys = std::vector<std::uint64_t>(kSlots, 0);
    std::vector<double> freePs = std::vector<double>(kSlots, 0.0);
    double wait(const L2Bursts& bursts, double arrivalPs) {
        std::set<std::uint64_t> lines;
        for (std::uint32_t b = 0; b < bursts.count; ++b) {
            const std::uint64_t start = bursts.address + b * (bursts.count > 1 ? bursts.strideBytes : 0);
            for (std::uint64_t line = start / 512; line <= (start + bursts.bytes - 1) / 512; ++line)
                lines.insert(line);
        }
        double latest = 0.0;
        for (std::uint64_t line : lines) {
            const std::uint64_t slot = line % kSlots;
            const double turn = keys[slot] == line + 1 ? std::max(arrivalPs, freePs[slot]) : arrivalPs;
            keys[slot] = line + 1;
            freePs[slot] = turn + servicePs;
            latest = std::max(latest, turn - arrivalPs);
        }
        return latest;
    }
};

// Random reads of 1 to 20 lines (lines one table apart that evict each other's queues, bursts
// with gaps and shared lines) at arrivals that are not round numbers, close enough that many wait.
TEST(LineReadQueue, WaitsEqualTheLatestPerLineWaitToTheBit) {
    constexpr double kServicePs = 173.0 * 555.5;  // 173 cycles at 1.8 GHz
    LineReadQueue queue(kServicePs, 512);
    ReferenceLineQueue reference{kServicePs};
    std::uint64_t state = 2026;
    double arrivalPs = 1000.3;
    int waited = 0;
    for (int read = 0; read < 20000; ++read) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint64_t line = (16384 - 20 + (state >> 33) % 60) + ((state >> 12) % 3) * 16384;
        L2Bursts bursts;
        bursts.address = line * 512 + (state >> 20) % 512;
        bursts.bytes = 1 + (state >> 24) % (10 * 512);
        bursts.count = 1 + static_cast<std::uint32_t>((state >> 40) % 3);
        bursts.strideBytes = (state >> 44) % 2 == 0 ? bursts.bytes : (state >> 46) % 3000 + 1;
        arrivalPs += static_cast<double>((state >> 50) % 20000) / 7.0;
        const double expected = reference.wait(bursts, arrivalPs);
        ASSERT_EQ(queue.wait(bursts, arrivalPs), expected) << "read " << read;
        waited += expected > 0.0;
    }
    EXPECT_GT(waited, 1000);
}

// wait()'s two walks (bursts whose gaps are shorter than a line: every line from the first to
// the last byte; gaps of a line or more: burst by burst) against the reference's set of lines, on
// reads of many short rows a line (32 B rows 64 B apart), rows a line or more apart, overlapping
// rows and single bursts, close enough in time that many wait.
TEST(LineReadQueue, RangeAndBurstWalksEqualTheReference) {
    constexpr double kServicePs = 173.0 * 555.5;
    LineReadQueue queue(kServicePs, 512);
    ReferenceLineQueue reference{kServicePs};
    std::uint64_t state = 26;
    double arrivalPs = 7.7;
    int waited = 0;
    int rangeWalks = 0;
    int burstWalks = 0;
    for (int read = 0; read < 20000; ++read) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        L2Bursts bursts;
        bursts.address = ((state >> 33) % 80) * 512 + (state >> 20) % 512;
        bursts.bytes = 1 + (state >> 24) % 600;
        bursts.count = 1 + static_cast<std::uint32_t>((state >> 40) % 40);
        bursts.strideBytes = (state >> 46) % 1400;
        arrivalPs += static_cast<double>((state >> 50) % 20000) / 7.0;
        const double expected = reference.wait(bursts, arrivalPs);
        ASSERT_EQ(queue.wait(bursts, arrivalPs), expected) << "read " << read;
        waited += expected > 0.0;
        const bool multiBurst = bursts.count > 1;
        rangeWalks += multiBurst && bursts.strideBytes < bursts.bytes + 512;
        burstWalks += multiBurst && bursts.strideBytes >= bursts.bytes + 512;
    }
    EXPECT_GT(waited, 1000);
    EXPECT_GT(rangeWalks, 5000);
    EXPECT_GT(burstWalks, 2000);
}


// The turns the L2 walk takes as it looks up a read's lines (L2Cache::readBursts, the main job's
// path since session 27) against the reference queue, and its lookups against accessBursts():
// the same waits to the bit and the same L2 outcomes, on 16-way sets (the compiled-apart walk)
// and 4-way ones, with range and burst-by-burst walks over lines a table apart, some reads longer
// than a batch of the burst walk's gathered lines.
TEST(LineReadQueue, TurnsTakenByTheL2WalkEqualTheReference) {
    constexpr double kServicePs = 173.0 * 555.5;
    for (std::uint32_t ways : {16u, 4u}) {
        SCOPED_TRACE(std::to_string(ways) + " ways");
        LineReadQueue queue(kServicePs, 512);
        ReferenceLineQueue reference{kServicePs};
        L2Cache walked(std::uint64_t{64} * ways * 512, 512, ways);
        L2Cache alone(std::uint64_t{64} * ways * 512, 512, ways);
        std::uint64_t state = 27 + ways;
        double arrivalPs = 3.3;
        int waited = 0;
        for (int read = 0; read < 20000; ++read) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            L2Bursts bursts;
            const std::uint64_t line = (state >> 33) % 200 + ((state >> 12) % 3) * LineTurns::kSlots;
            bursts.address = line * 512 + (state >> 20) % 512;
            bursts.bytes = 1 + (state >> 24) % 1600;
            // One read in eight of up to 140 bursts: past the 64-line batches the burst-by-burst walk
            // gathers (l2_cache.cpp, walkLineList).
            bursts.count = 1 + static_cast<std::uint32_t>((state >> 40) % ((state >> 37) % 8 == 0 ? 140 : 12));
            bursts.strideBytes = (state >> 44) % 2 == 0 ? (state >> 46) % 700 : (state >> 46) % 3000 + 512;
            arrivalPs += static_cast<double>((state >> 50) % 20000) / 7.0;
            const bool isWrite = (state >> 8) % 5 == 0;
            L2RangeOutcome got;
            L2RangeOutcome expected;
            double gotWait = 0.0;
            double expectedWait = 0.0;
            if (isWrite) {
                walked.accessBursts(bursts, true, got);
            } else {
                LineTurns turns = queue.turnsAt(arrivalPs);
                walked.readBursts(bursts, got, turns);
                gotWait = turns.waitPs();
                expectedWait = reference.wait(bursts, arrivalPs);
            }
            alone.accessBursts(bursts, isWrite, expected);
            ASSERT_EQ(gotWait, expectedWait) << "read " << read;
            ASSERT_EQ(got.hits[0], expected.hits[0]) << "read " << read;
            ASSERT_EQ(got.hits[1], expected.hits[1]) << "read " << read;
            ASSERT_EQ(got.misses[0], expected.misses[0]) << "read " << read;
            ASSERT_EQ(got.misses[1], expected.misses[1]) << "read " << read;
            ASSERT_EQ(got.dirtyEvictions, expected.dirtyEvictions) << "read " << read;
            ASSERT_EQ(got.linesDirtied, expected.linesDirtied) << "read " << read;
            ASSERT_EQ(got.emptyWaysFilled, expected.emptyWaysFilled) << "read " << read;
            waited += expectedWait > 0.0;
        }
        EXPECT_GT(waited, 1000);
    }
}

}  // namespace
}  // namespace ascendsim
