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
#include <cstdint>
#include <vector>

#include "models/memory/l2_cache.h"

namespace ascendsim {

class LineReadQueue {
public:
    // servicePs 0: no queue (wait() returns 0). lineBytes a power of two.
    LineReadQueue(double servicePs, std::uint32_t lineBytes);

    // A read of `bursts` arriving at `arrivalPs` (non-decreasing over calls): takes its turn on
    // every line it touches and returns how long after its arrival the latest turn begins.
    double wait(const L2Bursts& bursts, double arrivalPs);

    bool enabled() const { return servicePs_ > 0.0; }

private:
    // Takes one line's turn; returns when it begins (the arrival unless the line is queued).
    double takeTurn(std::uint64_t line, double arrivalPs);

    struct Slot {
        std::uint64_t lineKey = 0;  // line index + 1; 0 = empty
        double freePs = 0.0;
    };
    double servicePs_;
    std::uint32_t lineShift_;
    std::vector<Slot> slots_;
};

}  // namespace ascendsim
