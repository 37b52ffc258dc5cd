#pragma once
// Rates of the sampled memory-side counters (HardwareTrafficSample) as CANN derives them, the
// values behind the trace's HBM/LLC counters and the DB tables HBM and LLC. CANN's raw sample
// tables hold MB/s (MB = 2^20 bytes: msprof's DB export turns them into B/s with
// `bandwidth * BYTE_SIZE * BYTE_SIZE`, truncated) and the LLC hit rate as a ratio; the LLC values
// carry 3 decimals (the e5a31957 trace: 0.875, 20412.595), the HBM bandwidth full precision.
#include <cmath>
#include <cstdint>

namespace ascendsim {

// `value` rounded to `decimals` places, as Python's round() leaves it for printing.
inline double roundedTo(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

// MB/s over an interval; 0 for the first sample of a window (interval 0).
inline double megabytesPerSecond(std::uint64_t bytes, std::uint64_t intervalNs) {
    if (intervalNs == 0) return 0.0;
    return static_cast<double>(bytes) * 1e9 / static_cast<double>(intervalNs) / (1024.0 * 1024.0);
}

// HBM read or write bandwidth of one stack (MB/s).
inline double hbmBandwidth(std::uint64_t bytes, std::uint64_t intervalNs) {
    return megabytesPerSecond(bytes, intervalNs);
}

// LLC read throughput (MB/s, 3 decimals).
inline double llcThroughput(std::uint64_t bytes, std::uint64_t intervalNs) {
    return roundedTo(megabytesPerSecond(bytes, intervalNs), 3);
}

// LLC read hits / lookups in [0, 1] (3 decimals); 0 when nothing was read (the real samples show
// 0.0 there).
inline double llcHitRatio(std::uint64_t hits, std::uint64_t misses) {
    if (hits + misses == 0) return 0.0;
    return roundedTo(static_cast<double>(hits) / static_cast<double>(hits + misses), 3);
}

// msprof's percent of a ratio (`hitRate * PERCENTAGE`).
inline double percentOf(double ratio) {
    return ratio * 100.0;
}

// The DB's whole B/s of a MB/s value (msprof truncates).
inline std::int64_t dbBytesPerSecond(double megabytesPerSecondValue) {
    return static_cast<std::int64_t>(megabytesPerSecondValue * 1024.0 * 1024.0);
}

}  // namespace ascendsim
