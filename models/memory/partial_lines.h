#pragma once
// The L2 lines that hold only the bytes writes put in them, and when L2 completes them from HBM
// (l2.partial_line_fill, docs/fidelity.md §92, §94, §103).
//
// A write that misses L2 and covers a 512 B line only in part allocates the line with its own
// bytes and no fill: the writer is not slowed (§92: a fill at the write is what the chip does not
// charge its partial-line writers). L2 keeps a valid bit per 32 B sector (the DMA's burst unit,
// one UB block, hardware.md §2.3): a write sets the bits of the sectors it covers whole, a sector
// it covers only in part stays invalid (its other bytes are in HBM), and the line is whole once
// every sector is valid — two tiles that store the two 256 B halves of a line make it whole, two
// planar bursts that meet mid-sector never do (§103). The line stays partial until whichever
// comes first:
// - a read needs it: L2 fills it from HBM before it serves the read, which costs the reader what a
//   miss costs, without evicting (the line is allocated). The AlexNet 910B2 readers of the
//   NC1HWC0 -> NCHW TransData's planar rows (676 B / 2916 B / 12100 B bursts, written burst by
//   burst) read at 14-20 / 28-31 / 35-37 B per cycle a core with no L2 victims, against 50-79 B
//   per cycle for data written in whole lines (§94a);
// - it is evicted (PartialLineFill::OnReadOrEvict): L2 writes back whole lines only, so it reads
//   the line's other bytes from HBM first — a line of HBM read the evicting access pays beside the
//   write-back. A write-back with a byte mask (OnRead) needs none.
#include <cstdint>
#include <map>
#include <vector>

#include "models/memory/l2_cache.h"

namespace ascendsim {

class PartialLines {
public:
    // A write of `bursts` (each burst a write of its own when `burstsApart`, else back-to-back
    // bursts are one range), called before L2 sees it: a line it covers in part that `l2` does
    // not hold becomes partial with the sectors it covers whole, a partial line gains the sectors
    // it covers whole (whole once all are), a line it covers whole is whole again; a held line
    // that is not partial is whole and stays so.
    void noteWrite(const L2Bursts& bursts, bool burstsApart, const L2Cache& l2);
    // A read of `bursts`, called before L2 sees it: the partial lines it touches that `l2` still
    // holds are filled now (whole from then on); their count is returned. A partial line L2 no
    // longer holds is forgotten (the read's miss fills it whole).
    std::uint64_t fillOnRead(const L2Bursts& bursts, const L2Cache& l2);
    // The dirty lines an access evicted (L2RangeOutcome::dirtyVictims): the partial ones among
    // them leave L2 and are forgotten; their count is returned (the lines whose write-back must
    // first read the rest of the line, under OnReadOrEvict).
    std::uint64_t evicted(const std::vector<std::uint64_t>& dirtyVictims);

    bool isPartial(std::uint64_t lineIndex) const { return lines_.count(lineIndex) != 0; }
    std::size_t count() const { return lines_.size(); }

    static constexpr std::uint32_t kSectorBytes = 32;

private:
    // The bytes [start, end) of one write within `line` (a part of it): its whole sectors join the
    // line's valid ones.
    void notePart(std::uint64_t line, std::uint64_t start, std::uint64_t end, const L2Cache& l2);

    // Per partial line, its valid sectors (bit i: bytes 32 i .. 32 i + 32). Ordered, so that a
    // transfer's runs of lines are looked up as ranges, not line by line.
    std::map<std::uint64_t, std::uint64_t> lines_;
};

}  // namespace ascendsim
