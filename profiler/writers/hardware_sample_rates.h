#pragma once
// Rates of the sampled memory-side counters (HardwareTrafficSample), the formulas behind the
// trace's HBM/LLC counters and the DB tables HBM and LLC: traffic over the sample's interval.
#include <cmath>
#include <cstdint>

namespace ascendsim {

// Bytes per second over an interval; 0 for the first sample of a window (interval 0).
inline double bytesPerSecond(std::uint64_t bytes, std::uint64_t intervalNs) {
    return intervalNs == 0 ? 0.0 : static_cast<double>(bytes) * 1e9 / static_cast<double>(intervalNs);
}

// The trace's MB/s: MiB, as msprof's byte-to-MB conversions use (assumed: the samples cannot tell).
inline double mebibytesPerSecond(std::uint64_t bytes, std::uint64_t intervalNs) {
    return bytesPerSecond(bytes, intervalNs) / (1024.0 * 1024.0);
}

// Read hits / read lookups in [0, 1]; 0 when nothing was read (the real samples show 0.0 there).
inline double llcHitRatio(std::uint64_t hits, std::uint64_t misses) {
    return hits + misses == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(hits + misses);
}

// `value` rounded to `decimals` places, as Python's round() leaves it for printing.
inline double roundedTo(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

}  // namespace ascendsim
