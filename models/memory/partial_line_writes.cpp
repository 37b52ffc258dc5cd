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

}  // namespace ascendsim
