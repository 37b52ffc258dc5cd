#pragma once
// Interpolation over a measured (bytes, cycles) transfer curve (hardware.md §1.3). Kept apart from
// the timing classes so the loader's validation and the calibration report use the same rule.
#include <cstdint>

#include "models/chip/chip_config.h"

namespace ascendsim {

// Cycles one transfer of `bytes` takes according to `curve` (ascending bytes, >= 1 point):
// - between two points: linear in bytes;
// - past the last point: last cycles + extra bytes / peakBytesPerCycle (the streaming rate);
// - below the first point: the straight line through the first two points (its intercept is the
//   per-transfer fixed cost), never below bytes / peakBytesPerCycle and never below 1 cycle.
//   A one-point curve scales its cycles in proportion to bytes below that point.
double interpolateTransferCycles(const TransferCurve& curve, double peakBytesPerCycle,
                                 std::uint64_t bytes);

}  // namespace ascendsim
