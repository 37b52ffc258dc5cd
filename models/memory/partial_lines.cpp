#include "models/memory/partial_lines.h"

#include "models/memory/partial_line_writes.h"

#include <algorithm>

namespace ascendsim {

void PartialLines::notePart(std::uint64_t line, std::uint64_t start, std::uint64_t end, const L2Cache& l2) {
    const std::uint64_t lineBytes = l2.lineBytes();
    const std::uint64_t base = line * lineBytes;
    const std::uint64_t sectors = std::max<std::uint64_t>(lineBytes / kSectorBytes, 1);
    const std::uint64_t all = sectors >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << sectors) - 1;
    const std::uint64_t firstWhole = (start - base + kSectorBytes - 1) / kSectorBytes;
    const std::uint64_t endWhole = (end - base) / kSectorBytes;
    std::uint64_t covered = 0;
    for (std::uint64_t sector = firstWhole; sector < endWhole && sector < 64; ++sector) covered |= std::uint64_t{1} << sector;
    const auto it = lines_.find(line);
    if (it == lines_.end()) {
        if (!l2.contains(line) && covered != all) lines_.emplace(line, covered);
        return;
    }
    it->second |= covered;
    if (it->second == all) lines_.erase(it);
}

void PartialLines::noteWrite(const L2Bursts& bursts, bool burstsApart, const L2Cache& l2) {
    if (bursts.bytes == 0) return;
    const std::uint64_t lineBytes = l2.lineBytes();
    const std::uint32_t count = std::max(bursts.count, 1u);
    // Back-to-back bursts of one write are one range (partial_line_writes.h's rule).
    const bool oneRange = !burstsApart && (count == 1 || bursts.strideBytes <= bursts.bytes);
    const std::uint64_t rangeBytes = oneRange ? bursts.bytes * count : bursts.bytes;
    const std::uint32_t ranges = oneRange ? 1 : count;
    std::uint64_t start = bursts.address;
    for (std::uint32_t r = 0; r < ranges; ++r, start += bursts.strideBytes) {
        const std::uint64_t end = start + rangeBytes;
        const std::uint64_t first = start / lineBytes;
        const std::uint64_t last = (end - 1) / lineBytes;
        const std::uint64_t firstWhole = start % lineBytes == 0 ? first : first + 1;
        const std::uint64_t endWhole = end % lineBytes == 0 ? last + 1 : last;
        if (firstWhole < endWhole) lines_.erase(lines_.lower_bound(firstWhole), lines_.lower_bound(endWhole));
        if (firstWhole != first) notePart(first, start, std::min(end, (first + 1) * lineBytes), l2);
        if (endWhole == last && last != first) notePart(last, last * lineBytes, end, l2);
        else if (endWhole == last && firstWhole == first) notePart(last, start, end, l2);
    }
}

std::uint64_t PartialLines::fillOnRead(const L2Bursts& bursts, const L2Cache& l2) {
    if (lines_.empty()) return 0;
    std::uint64_t fills = 0;
    forEachWrittenLine(bursts, l2.lineBytes(), false, [&](std::uint64_t first, std::uint64_t count, bool) {
        auto it = lines_.lower_bound(first);
        while (it != lines_.end() && it->first < first + count) {
            if (l2.contains(it->first)) ++fills;
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
