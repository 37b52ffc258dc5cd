#include "models/memory/partial_lines.h"

#include "models/memory/partial_line_writes.h"

namespace ascendsim {

void PartialLines::noteWrite(const L2Bursts& bursts, bool burstsApart, const L2Cache& l2) {
    const std::uint32_t lineBytes = l2.lineBytes();
    forEachWrittenLine(bursts, lineBytes, burstsApart, [&](std::uint64_t first, std::uint64_t count, bool whole) {
        if (!whole) {
            if (l2.contains(first)) return;
            // Burst by burst, a line two bursts share takes two writes: no one write's piece.
            const LineBytesTouched touched = lineBytesTouched(bursts, first, lineBytes);
            const bool onePiece = touched.contiguous && !(burstsApart && touched.bursts > 1);
            lines_[first] = onePiece ? WrittenPiece{touched.begin, touched.end} : WrittenPiece{};
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
            const WrittenPiece piece = it->second;
            const bool held = l2.contains(it->first);
            if (held && piece.end > piece.begin) {
                const LineBytesTouched wanted = lineBytesTouched(bursts, it->first, l2.lineBytes());
                if (wanted.begin >= piece.begin && wanted.end <= piece.end) {
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
