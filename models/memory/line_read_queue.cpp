#include "models/memory/line_read_queue.h"

#include <algorithm>
#include <bit>

namespace ascendsim {

namespace {
// Lines whose queues are remembered: 16384 × 512 B = 8 MiB of recently read GM, far more than
// the lines many cores read at once (a tiling record is one or a few).
constexpr std::size_t kSlots = 16384;
}  // namespace

LineReadQueue::LineReadQueue(double servicePs, std::uint32_t lineBytes)
    : servicePs_(servicePs),
      lineShift_(static_cast<std::uint32_t>(std::countr_zero(lineBytes))),
      slots_(servicePs > 0.0 ? kSlots : 0) {}

double LineReadQueue::takeTurn(std::uint64_t line, double arrivalPs) {
    Slot& slot = slots_[line % kSlots];
    const double turn = slot.lineKey == line + 1 ? std::max(arrivalPs, slot.freePs) : arrivalPs;
    slot.lineKey = line + 1;
    slot.freePs = turn + servicePs_;
    return turn;
}

// The wait is the latest turn less the arrival: subtracting after the max equals the max of the
// per-line differences (rounding is monotonic, every turn is at least the arrival) and saves a
// subtraction a line.
double LineReadQueue::wait(const L2Bursts& bursts, double arrivalPs) {
    if (!enabled() || bursts.bytes == 0) return 0.0;
    const std::uint32_t count = std::max(bursts.count, 1u);
    double latestTurn = arrivalPs;
    // A line two bursts share is one request to it: each line is queued once, in ascending order.
    bool anyLine = false;
    std::uint64_t lastLine = 0;
    for (std::uint32_t burst = 0; burst < count; ++burst) {
        const std::uint64_t start = bursts.address + burst * (count > 1 ? bursts.strideBytes : 0);
        const std::uint64_t first = start >> lineShift_;
        const std::uint64_t last = (start + bursts.bytes - 1) >> lineShift_;
        for (std::uint64_t line = anyLine ? std::max(first, lastLine + 1) : first; line <= last; ++line)
            latestTurn = std::max(latestTurn, takeTurn(line, arrivalPs));
        if (!anyLine || last > lastLine) lastLine = last;
        anyLine = true;
    }
    return latestTurn - arrivalPs;
}

}  // namespace ascendsim
