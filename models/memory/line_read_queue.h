#pragma once
// Reads of one L2 line by many cores at once, served one after another (docs/fidelity.md §39).
//
// Every block of a many-block kernel that first reads the same small record from GM (MemSet's
// 96 B tiling header, TIK Transpose's tiling area) sends its read to the same line at the same
// time. The line lives in one place of the L2; a request to it is served when the request ahead
// of it has been (the first one misses and fills, the others queue behind it and then hit), so
// the n-th of them waits n - 1 turns. Real rows (ef63bc64 st/level2 rank 0, kernel_details.csv):
// a warm 40-block MemSet, whose blocks start together, is busy 0.70–0.75 in MTE2 (≈ 4200 of
// 5800 cycles a block) reading two records; the cold one, whose blocks the shared code fetch
// spreads apart (§21), 0.05 (700 cycles) reading the same two.
//
// Model: each line keeps the time its queue frees; a read arriving at t takes its turn at
// max(t, free) and holds the line for `serviceCycles` (l2.same_line_read_cycles). A read of
// several lines waits for the latest of its lines' turns; lines are independent (different
// lines, different queues), so a core streaming its own lines never waits here. The wait is
// added to the read's completion; an uncontended read is unchanged. Writes are not queued
// (the samples show no same-line write pattern to size one).
//
// The lines are tracked in a direct-mapped table: a line evicted from it by another line of the
// same slot forgets its queue (its readers would overlap less), never delays an unrelated line.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/memory/l2_cache.h"

namespace ascendsim {

// One remembered line: its index + 1 (0 = empty) and when its queue frees.
struct LineQueueSlot {
    std::uint64_t lineKey = 0;
    double freePs = 0.0;
};

// One read's turns, taken line by line in ascending order by whoever steps the read's lines:
// LineReadQueue::wait, or the L2 walk of the same read (L2Cache::readBursts), so that the main
// job's reads step their lines once for both (docs/performance.md "Session 27").
class LineTurns {
public:
    LineTurns(LineQueueSlot* slots, double arrivalPs, double servicePs)
        : slots_(slots), arrivalPs_(arrivalPs), servicePs_(servicePs), latestTurnPs_(arrivalPs) {}

    // Takes the line's turn: at the arrival unless the line is queued, then when its queue frees.
    [[gnu::always_inline]] void take(std::uint64_t line) {
        LineQueueSlot& slot = slots_[line % kSlots];
        const double turn = slot.lineKey == line + 1 ? std::max(arrivalPs_, slot.freePs) : arrivalPs_;
        slot.lineKey = line + 1;
        slot.freePs = turn + servicePs_;
        latestTurnPs_ = std::max(latestTurnPs_, turn);
    }
    // How long after its arrival the read's latest turn begins. Subtracting after the max equals
    // the max of the per-line differences (rounding is monotonic, every turn is at least the
    // arrival) and saves a subtraction a line.
    double waitPs() const { return latestTurnPs_ - arrivalPs_; }

    // Lines whose queues are remembered: 16384 × 512 B = 8 MiB of recently read GM, far more than
    // the lines many cores read at once (a tiling record is one or a few).
    static constexpr std::size_t kSlots = 16384;

private:
    LineQueueSlot* slots_;
    double arrivalPs_;
    double servicePs_;
    double latestTurnPs_;
};

class LineReadQueue {
public:
    // servicePs 0: no queue (wait() returns 0). lineBytes a power of two.
    LineReadQueue(double servicePs, std::uint32_t lineBytes);

    // A read of `bursts` arriving at `arrivalPs` (non-decreasing over calls): takes its turn on
    // every line it touches and returns how long after its arrival the latest turn begins.
    double wait(const L2Bursts& bursts, double arrivalPs);
    // The turns of a read arriving at `arrivalPs`, for a walk of its lines that takes them (each
    // line the read touches once, in ascending order, as wait() does); enabled() only.
    LineTurns turnsAt(double arrivalPs) { return LineTurns(slots_.data(), arrivalPs, servicePs_); }

    bool enabled() const { return servicePs_ > 0.0; }

private:
    double servicePs_;
    std::uint32_t lineShift_;
    std::vector<LineQueueSlot> slots_;
};

}  // namespace ascendsim
