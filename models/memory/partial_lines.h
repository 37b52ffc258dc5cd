#pragma once
// The L2 lines that hold only the bytes writes put in them, and when L2 completes them from HBM
// (l2.partial_line_fill, docs/fidelity.md §92, §94, §103).
//
// A write that misses L2 and covers a 512 B line only in part allocates the line with its own
// bytes and no fill: the writer is not slowed (§92: a fill at the write is what the chip does not
// charge its partial-line writers). The line stays partial — later writes of its other bytes do
// not make it whole, only a write covering it whole does (§94b: the line rule, not a 32 B one) —
// until whichever comes first:
// - a read needs it: L2 fills it from HBM before it serves the read, which costs the reader what a
//   miss costs, without evicting (the line is allocated). The AlexNet 910B2 readers of the
//   NC1HWC0 -> NCHW TransData's planar rows (676 B / 2916 B / 12100 B bursts, written burst by
//   burst) read at 14-20 / 28-31 / 35-37 B per cycle a core with no L2 victims, against 50-79 B
//   per cycle for data written in whole lines (§94a);
// - it is evicted (PartialLineFill::OnReadOrEvict): L2 writes back whole lines only, so it reads
//   the line's other bytes from HBM first — a line of HBM read the evicting access pays beside the
//   write-back. A write-back with a byte mask (OnRead) needs none.
// A read that asks a partial line only for bytes the write that allocated it put there (one
// contiguous piece of it) is served as a hit and leaves the line partial (§129): the 910B2's
// one-block kernels read a small tensor the kernel before wrote into part of a line in an L2 hit's
// MTE2 time, not a fill's (e5a31957 text rank0: Cast [32] 281 cycles real, 680 with the fill, 354
// without; Equal [5,32] 469 real, 1140 -> 600). The line rule stands for a read that wants more
// than that piece (§94's planar-row readers).
#include <cstdint>
#include <map>
#include <vector>

#include "models/memory/l2_cache.h"

namespace ascendsim {

class PartialLines {
public:
    // A write of `bursts` (each burst a write of its own when `burstsApart`), called before L2
    // sees it: a line it covers in part that `l2` does not hold becomes partial, a line it covers
    // whole is whole again; a held line covered in part stays as it was.
    void noteWrite(const L2Bursts& bursts, bool burstsApart, const L2Cache& l2);
    // A read of `bursts`, called before L2 sees it: the partial lines it touches that `l2` still
    // holds are filled now (whole from then on); their count is returned. A partial line L2 no
    // longer holds is forgotten (the read's miss fills it whole). A line of which the read wants
    // only bytes its allocating write put there is neither filled nor counted; it stays partial.
    std::uint64_t fillOnRead(const L2Bursts& bursts, const L2Cache& l2);
    // The dirty lines an access evicted (L2RangeOutcome::dirtyVictims): the partial ones among
    // them leave L2 and are forgotten; their count is returned (the lines whose write-back must
    // first read the rest of the line, under OnReadOrEvict).
    std::uint64_t evicted(const std::vector<std::uint64_t>& dirtyVictims);

    bool isPartial(std::uint64_t lineIndex) const { return lines_.count(lineIndex) != 0; }
    std::size_t count() const { return lines_.size(); }

private:
    // The bytes [begin, end) of its line the write that allocated a partial line put there, as
    // one piece; empty (begin == end) when they were not one piece.
    struct WrittenPiece {
        std::uint32_t begin = 0;
        std::uint32_t end = 0;
    };
    // Ordered, so that a transfer's runs of lines are looked up as ranges, not line by line.
    std::map<std::uint64_t, WrittenPiece> lines_;
};

}  // namespace ascendsim
