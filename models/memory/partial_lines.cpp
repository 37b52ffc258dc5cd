#include "models/memory/partial_lines.h"

#include "models/memory/partial_line_writes.h"

#include <algorithm>

namespace ascendsim {

void PartialLines::LineContents::add(WrittenPiece piece) {
    // Joins the pieces it overlaps or meets; the others stay as they are, in order.
    std::vector<WrittenPiece> joined;
    joined.reserve(pieces.size() + 1);
    for (const WrittenPiece& held : pieces) {
        if (held.end < piece.begin || held.begin > piece.end) {
            joined.push_back(held);
            continue;
        }
        piece.begin = std::min(piece.begin, held.begin);
        piece.end = std::max(piece.end, held.end);
    }
    const auto after = std::find_if(joined.begin(), joined.end(),
                                    [&](const WrittenPiece& held) { return held.begin > piece.end; });
    joined.insert(after, piece);
    pieces = std::move(joined);
}

bool PartialLines::LineContents::holds(WrittenPiece wanted) const {
    return std::any_of(pieces.begin(), pieces.end(), [&](const WrittenPiece& held) {
        return wanted.begin >= held.begin && wanted.end <= held.end;
    });
}

bool PartialLines::LineContents::whole(std::uint32_t lineBytes) const {
    return pieces.size() == 1 && pieces.front().begin == 0 && pieces.front().end >= lineBytes;
}

void PartialLines::noteWrite(const L2Bursts& bursts, bool burstsApart, const L2Cache& l2) {
    const std::uint32_t lineBytes = l2.lineBytes();
    // One burst, or bursts back to back: the write's bytes in any line are one piece of it.
    const bool singleRange = !burstsApart && (bursts.count <= 1 || bursts.strideBytes <= bursts.bytes);
    forEachWrittenLine(bursts, lineBytes, burstsApart, [&](std::uint64_t first, std::uint64_t count, bool whole) {
        if (!whole) {
            if (l2.contains(first)) {
                if (!singleRange) return;
                const auto known = lines_.find(first);
                if (known == lines_.end() || known->second.pieces.empty()) return;
                const LineBytesTouched touched = lineBytesTouched(bursts, first, lineBytes);
                known->second.add(WrittenPiece{touched.begin, touched.end});
                if (known->second.whole(lineBytes)) lines_.erase(known);
                return;
            }
            // Burst by burst, a line two bursts share takes two writes: no one write's piece.
            const LineBytesTouched touched = lineBytesTouched(bursts, first, lineBytes);
            const bool onePiece = touched.contiguous && !(burstsApart && touched.bursts > 1);
            LineContents contents;
            if (onePiece) contents.pieces.push_back(WrittenPiece{touched.begin, touched.end});
            lines_[first] = std::move(contents);
            return;
        }
        lines_.erase(lines_.lower_bound(first), lines_.lower_bound(first + count));
    });
}

std::uint64_t PartialLines::fillOnRead(const L2Bursts& bursts, const L2Cache& l2) {
    if (lines_.empty()) return 0;
    std::uint64_t fills = 0;
    forEachWrittenLine(bursts, l2.lineBytes(), false, [&](std::uint64_t first, std::uint64_t count, bool) {
        auto it = lines_.lower_bound(first);
        while (it != lines_.end() && it->first < first + count) {
            const bool held = l2.contains(it->first);
            if (held) {
                const LineBytesTouched wanted = lineBytesTouched(bursts, it->first, l2.lineBytes());
                if (it->second.holds(WrittenPiece{wanted.begin, wanted.end})) {
                    ++it;  // served from the bytes L2 holds: no fill, still partial
                    continue;
                }
            }
            if (held) ++fills;
            it = lines_.erase(it);
        }
    });
    return fills;
}

std::uint64_t PartialLines::evicted(const std::vector<std::uint64_t>& dirtyVictims) {
    std::uint64_t partial = 0;
    for (const std::uint64_t line : dirtyVictims) partial += lines_.erase(line);
    return partial;
}

}  // namespace ascendsim
