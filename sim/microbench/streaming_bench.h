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

// Single-core bandwidth (GB/s) of the same transfer with the data already in L2.
double singleCoreStreamingGBps(const ChipConfig& chip, CoreKind kind, std::uint64_t transferBytes);

}  // namespace ascendsim
