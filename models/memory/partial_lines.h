#pragma once
// The L2 lines that hold only the bytes writes put in them (l2.partial_read_fill, docs/fidelity.md
// §94). An L2 line has one valid bit (§92's premise): a write that misses L2 and covers a 512 B
// line only in part allocates the line with its own bytes under a byte mask and no fill (the
// writer is not slowed: §92's fill at the write is what the chip does not charge); the line stays
// partial — later writes of its other bytes do not make it whole, only a write covering it whole
// does — until a read needs it: then L2 fills it from HBM before it serves the read, which costs
// the reader what a miss costs, without evicting anything (the line is allocated). The AlexNet
// 910B2 readers of the NC1HWC0 -> NCHW TransData's planar rows (676 B / 2916 B / 12100 B bursts,
// written burst by burst) read at 14-20 / 28-31 / 35-37 B per cycle a core with no L2 victims,
// against 50-79 B per cycle for data written in whole lines (docs/fidelity.md §94).
#include <cstdint>
#include <set>

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
    // longer holds is forgotten (the read's miss fills it whole).
    std::uint64_t fillOnRead(const L2Bursts& bursts, const L2Cache& l2);

    bool isPartial(std::uint64_t lineIndex) const { return lines_.count(lineIndex) != 0; }

private:
    // Ordered, so that a transfer's runs of lines are looked up as ranges, not line by line.
    std::set<std::uint64_t> lines_;
};

}  // namespace ascendsim
