#include "models/memory/partial_line_writes.h"

#include <algorithm>

namespace ascendsim {

void forEachWrittenLine(const L2Bursts& bursts, std::uint32_t lineBytes, bool burstsApart,
                        const std::function<void(std::uint64_t, std::uint64_t, bool)>& visit) {
    if (bursts.bytes == 0 || lineBytes == 0) return;
    const std::uint32_t count = std::max(bursts.count, 1u);
    // Back-to-back bursts of one write are one range: only its two end lines can be partial.
    const bool oneRange = !burstsApart && (count == 1 || bursts.strideBytes <= bursts.bytes);
    const std::uint64_t burstBytes = oneRange ? bursts.bytes * count : bursts.bytes;
    const std::uint32_t burstCount = oneRange ? 1 : count;
    // The end line being summed and the bytes the bursts put in it so far.
    bool pending = false;
    std::uint64_t line = 0;
    std::uint64_t covered = 0;
    auto flush = [&] {
        if (pending) visit(line, 1, covered >= lineBytes);
        pending = false;
    };
    auto add = [&](std::uint64_t lineIndex, std::uint64_t bytes) {
        if (!burstsApart && pending && lineIndex == line) {
            covered += bytes;
            return;
        }
        flush();
        pending = true;
        line = lineIndex;
        covered = bytes;
    };
    std::uint64_t start = bursts.address;
    const std::uint64_t stride = oneRange ? 0 : bursts.strideBytes;
    for (std::uint32_t burst = 0; burst < burstCount; ++burst, start += stride) {
        const std::uint64_t end = start + burstBytes;
        const std::uint64_t first = start / lineBytes;
        const std::uint64_t last = (end - 1) / lineBytes;
        if (first == last) {
            add(first, burstBytes);
            continue;
        }
        add(first, (first + 1) * lineBytes - start);
        if (last > first + 1) {  // the lines between: whole
            flush();
            visit(first + 1, last - first - 1, true);
        }
        add(last, end - last * lineBytes);
    }
    flush();
}

LineBytesTouched lineBytesTouched(const L2Bursts& bursts, std::uint64_t lineIndex, std::uint32_t lineBytes) {
    LineBytesTouched touched;
    const std::uint64_t lineStart = lineIndex * lineBytes;
    const std::uint64_t lineEnd = lineStart + lineBytes;
    const std::uint64_t burstBytes = bursts.bytes;
    const std::uint64_t stride = bursts.count > 1 ? bursts.strideBytes : 0;
    const std::uint64_t lastBurst = stride == 0 ? 0 : bursts.count - 1;
    if (burstBytes == 0 || bursts.address >= lineEnd) return touched;
    // The bursts [first, last] that reach into the line: start < lineEnd and start + bytes > lineStart.
    std::uint64_t first = 0;
    if (bursts.address + burstBytes <= lineStart) {
        if (stride == 0) return touched;
        first = (lineStart - bursts.address - burstBytes) / stride + 1;
    }
    const std::uint64_t last = stride == 0 ? 0 : std::min(lastBurst, (lineEnd - 1 - bursts.address) / stride);
    std::uint64_t hullEnd = 0;
    for (std::uint64_t burst = first; burst <= last; ++burst) {
        const std::uint64_t start = bursts.address + burst * stride;
        if (start >= lineEnd || start + burstBytes <= lineStart) continue;
        const std::uint64_t from = std::max(start, lineStart) - lineStart;
        const std::uint64_t to = std::min(start + burstBytes, lineEnd) - lineStart;
        if (touched.bursts == 0) {
            touched.begin = static_cast<std::uint32_t>(from);
        } else if (from > hullEnd) {
            touched.contiguous = false;
        }
        hullEnd = std::max(hullEnd, to);
        ++touched.bursts;
    }
    touched.end = static_cast<std::uint32_t>(hullEnd);
    return touched;
}

}  // namespace ascendsim
