#include "models/memory/partial_lines.h"

#include "models/memory/partial_line_writes.h"

namespace ascendsim {

void PartialLines::noteWrite(const L2Bursts& bursts, bool burstsApart, const L2Cache& l2) {
    forEachWrittenLine(bursts, l2.lineBytes(), burstsApart, [&](std::uint64_t first, std::uint64_t count, bool whole) {
        if (!whole) {
            if (!l2.contains(first)) lines_.insert(first);
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
        while (it != lines_.end() && *it < first + count) {
            if (l2.contains(*it)) ++fills;
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
