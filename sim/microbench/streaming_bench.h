#pragma once
// Chip-wide streaming: every core of one kind reads its own GM region into its local buffer in
// fixed-size transfers, in two passes (two tasks on one stream), so the second pass finds the
// data in L2 when it fits. Aggregate bandwidth = bytes of the pass / pass duration.
#include <cstdint>

#include "models/chip/chip_config.h"

namespace ascendsim {

struct StreamingPasses {
    double firstPassGBps = 0.0;   // 1e9 bytes per second
    double secondPassGBps = 0.0;
    std::uint32_t cores = 0;
};

// `kind` Cube streams GM->L1, Vector streams GM->UB (split chips; coupled chips use their AI
// cores for both). `transferBytes` must fit the destination buffer. `cores` = 0: every core of
// that kind.
StreamingPasses runStreamingPasses(const ChipConfig& chip, CoreKind kind,
                                   std::uint64_t transferBytes, std::uint64_t bytesPerCore,
                                   std::uint32_t cores = 0);

// Which way a many-core stream moves its data: GM->UB reads (MTE2), UB->GM writes (MTE3), or a
// copy (one read and one write per transfer, as a double-buffered TensorMove does).
enum class StreamDirection : std::uint8_t { Read, Write, Copy };

// `cores` vector cores (AI cores on coupled chips) each stream their own cold GM region of
// `bytesPerCore` in `transferBytes` transfers, in one pass. Returns the aggregate bandwidth in
// GB/s (1e9 B/s) counting read and written bytes, as bytes / kernel duration of a real profile.
double runDirectionalStream(const ChipConfig& chip, StreamDirection direction,
                            std::uint64_t transferBytes, std::uint64_t bytesPerCore,
                            std::uint32_t cores);

// Single-core bandwidth (GB/s) of the same transfer with the data already in L2.
double singleCoreStreamingGBps(const ChipConfig& chip, CoreKind kind, std::uint64_t transferBytes);

}  // namespace ascendsim
