#include "models/memory/partial_line_writes.h"

#include <algorithm>

namespace ascendsim {

void forEachPartialLine(const L2Bursts& bursts, std::uint32_t lineBytes,
                        const std::function<void(std::uint64_t)>& visit) {
    if (bursts.bytes == 0 || lineBytes == 0) return;
    // Back-to-back bursts are one range: only its two end lines can be partial.
    const bool oneRange = bursts.count <= 1 || bursts.strideBytes <= bursts.bytes;
    const std::uint64_t burstBytes = oneRange ? bursts.bytes * std::max(bursts.count, 1u) : bursts.bytes;
    const std::uint32_t burstCount = oneRange ? 1 : bursts.count;
    // The line being summed and the bytes the bursts put in it so far.
    bool pending = false;
    std::uint64_t line = 0;
    std::uint64_t covered = 0;
    auto add = [&](std::uint64_t lineIndex, std::uint64_t bytes) {
        if (pending && lineIndex == line) {
            covered += bytes;
            return;
        }
        if (pending && covered < lineBytes) visit(line);
        pending = true;
        line = lineIndex;
        covered = bytes;
    };
    std::uint64_t start = bursts.address;
    for (std::uint32_t burst = 0; burst < burstCount; ++burst, start += bursts.strideBytes) {
        const std::uint64_t end = start + burstBytes;
        const std::uint64_t first = start / lineBytes;
        const std::uint64_t last = (end - 1) / lineBytes;
        if (first == last) {
            add(first, burstBytes);
            continue;
        }
        add(first, (first + 1) * lineBytes - start);
        if (last > first + 1) add(last - 1, lineBytes);  // the whole lines between: never partial
        add(last, end - last * lineBytes);
    }
    if (pending && covered < lineBytes) visit(line);
}

}  // namespace ascendsim
