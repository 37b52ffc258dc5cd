#include "models/memory/line_read_queue.h"

#include <algorithm>
#include <bit>

namespace ascendsim {

LineReadQueue::LineReadQueue(double servicePs, std::uint32_t lineBytes)
    : servicePs_(servicePs),
      lineShift_(static_cast<std::uint32_t>(std::countr_zero(lineBytes))),
      slots_(servicePs > 0.0 ? LineTurns::kSlots : 0) {}

double LineReadQueue::wait(const L2Bursts& bursts, double arrivalPs) {
    if (!enabled() || bursts.bytes == 0) return 0.0;
    const std::uint32_t count = std::max(bursts.count, 1u);
    const std::uint64_t lineBytes = std::uint64_t{1} << lineShift_;
    LineTurns turns = turnsAt(arrivalPs);
    // Each line is queued once, in ascending order (a line two bursts share is one request to
    // it). Bursts whose gaps are shorter than a line (or that overlap) touch every line from the
    // first burst's first byte to the last burst's last byte (no line fits in a gap): one walk of
    // that range, without stepping each burst (a strided read of many short rows has many bursts
    // a line).
    if (count == 1 || bursts.strideBytes < bursts.bytes + lineBytes) {
        const std::uint64_t span = count == 1 ? bursts.bytes : (count - 1) * bursts.strideBytes + bursts.bytes;
        const std::uint64_t first = bursts.address >> lineShift_;
        const std::uint64_t last = (bursts.address + span - 1) >> lineShift_;
        for (std::uint64_t line = first; line <= last; ++line) turns.take(line);
        return turns.waitPs();
    }
    // Gaps of a line or more: each burst's lines lie past the previous burst's (the first line
    // of the next burst is after the gap), so no line is shared and each burst's lines are
    // queued in turn, stepping the burst's start by the stride.
    std::uint64_t start = bursts.address;
    for (std::uint32_t burst = 0; burst < count; ++burst, start += bursts.strideBytes) {
        const std::uint64_t last = (start + bursts.bytes - 1) >> lineShift_;
        for (std::uint64_t line = start >> lineShift_; line <= last; ++line) turns.take(line);
    }
    return turns.waitPs();
}

}  // namespace ascendsim
