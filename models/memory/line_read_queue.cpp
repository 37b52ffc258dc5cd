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
    const std::uint64_t lineBytes = std::uint64_t{1} << lineShift_;
    // Each line is queued once, in ascending order (a line two bursts share is one request to
    // it). Bursts whose gaps are shorter than a line (or that overlap) touch every line from the
    // first burst's first byte to the last burst's last byte (no line fits in a gap): one walk of
    // that range, without stepping each burst (a strided read of many short rows has many bursts
    // a line).
    if (count == 1 || bursts.strideBytes < bursts.bytes + lineBytes) {
        const std::uint64_t span = count == 1 ? bursts.bytes : (count - 1) * bursts.strideBytes + bursts.bytes;
        const std::uint64_t first = bursts.address >> lineShift_;
        const std::uint64_t last = (bursts.address + span - 1) >> lineShift_;
        double latestTurn = arrivalPs;
        for (std::uint64_t line = first; line <= last; ++line)
            latestTurn = std::max(latestTurn, takeTurn(line, arrivalPs));
        return latestTurn - arrivalPs;
    }
    // Gaps of a line or more: each burst's lines lie past the previous burst's (the first line
    // of the next burst is after the gap), so no line is shared and each burst's lines are
    // queued in turn, stepping the burst's start by the stride.
    double latestTurn = arrivalPs;
    std::uint64_t start = bursts.address;
    for (std::uint32_t burst = 0; burst < count; ++burst, start += bursts.strideBytes) {
        const std::uint64_t last = (start + bursts.bytes - 1) >> lineShift_;
        for (std::uint64_t line = start >> lineShift_; line <= last; ++line)
            latestTurn = std::max(latestTurn, takeTurn(line, arrivalPs));
    }
    return latestTurn - arrivalPs;
}

}  // namespace ascendsim
