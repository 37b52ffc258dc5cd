#include "models/timing/shared_line_requests.h"

#include <cmath>

namespace ascendsim {

std::uint64_t gmLineRequests(const DataMove& move, std::uint32_t lineBytes) {
    if (lineBytes == 0 || move.burstBytes == 0) return 0;
    const std::uint64_t stride = std::uint64_t{move.burstBytes} + move.srcGapBytes;
    const auto linesOf = [&](std::uint64_t addr) {
        return (addr + move.burstBytes - 1) / lineBytes - addr / lineBytes + 1;
    };
    // Rows a whole number of lines apart all sit the same way on the line grid.
    if (stride % lineBytes == 0) return std::uint64_t{move.burstCount} * linesOf(move.srcAddr);
    std::uint64_t requests = 0;
    for (std::uint32_t row = 0; row < move.burstCount; ++row) requests += linesOf(move.srcAddr + row * stride);
    return requests;
}

std::uint64_t sharedLineWaitCycles(const ChipConfig& chip, const DataMove& move) {
    const std::uint32_t inFlight = chip.mte2LineRequestsInFlight;
    if (!(move.concurrentLineReaders > 1.0f) || move.src != MemSpace::GM || inFlight == 0 || chip.l2.lineBytes == 0)
        return 0;
    const double perRequest = (static_cast<double>(move.concurrentLineReaders) - 1.0) / 2.0 *
                              static_cast<double>(chip.l2.sameLineReadCycles) / static_cast<double>(inFlight);
    return static_cast<std::uint64_t>(
        std::ceil(static_cast<double>(gmLineRequests(move, chip.l2.lineBytes)) * perRequest - 1e-9));
}

std::uint64_t sharedLineReadCycles(const ChipConfig& chip, const DataMove& move) {
    const std::uint32_t rate = chip.mte2SharedLineReadBytesPerCycle;
    if (!move.linesReadByEveryBlock || move.src != MemSpace::GM || rate == 0) return 0;
    return (move.totalBytes() + rate - 1) / rate;
}

}  // namespace ascendsim
