#pragma once
// The L2 lines a write covers whole and those it covers only in part (docs/fidelity.md §92, §94):
// a line covered in part that L2 does not hold takes the write's bytes alone, and L2 completes it
// from HBM later (l2.partial_line_fill, partial_lines.h).
#include <cstdint>
#include <functional>

#include "models/memory/l2_cache.h"

namespace ascendsim {

// Calls `visit(firstLine, lineCount, whole)` for the lines of `lineBytes` (a power of two) the
// bursts touch, in ascending order: runs of lines the bursts cover whole (whole = true) and single
// lines covered in part (false). Without `burstsApart`, bytes two bursts put in one line add up and
// back-to-back bursts are one range (a stride below the burst size counts as back to back); with
// it each burst is a write of its own (a move that goes burst by burst, transfer_timing.h
// paddedBursts), so a line two bursts share is visited twice, in part each time.
void forEachWrittenLine(const L2Bursts& bursts, std::uint32_t lineBytes, bool burstsApart,
                        const std::function<void(std::uint64_t, std::uint64_t, bool)>& visit);

// The bytes of line `lineIndex` the bursts touch: the hull [begin, end) of them within the line
// (offsets from its start), how many bursts touch it, and whether the touched bytes are one piece
// (bursts that overlap or meet join). begin == end when no burst touches the line.
struct LineBytesTouched {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    std::uint64_t bursts = 0;
    bool contiguous = true;
};
LineBytesTouched lineBytesTouched(const L2Bursts& bursts, std::uint64_t lineIndex, std::uint32_t lineBytes);

}  // namespace ascendsim
