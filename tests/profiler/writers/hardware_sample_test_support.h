#pragma once
// Sampled-hardware records for the HBM/LLC writer tests.
#include <cstdint>

#include "profiler/record/run_record.h"

namespace ascendsim::testing_support {

// A sample at timeNs with no traffic over no interval (a window's first sample): 4 HBM stacks,
// 2 LLCs, as the engine produces them.
inline HardwareTrafficSample emptyHardwareSample(std::uint64_t timeNs) {
    HardwareTrafficSample sample;
    sample.timeNs = timeNs;
    sample.hbmReadBytes = sample.hbmWriteBytes = {0, 0, 0, 0};
    sample.llcReadHits = sample.llcReadMisses = sample.llcReadBytes = {0, 0};
    return sample;
}

}  // namespace ascendsim::testing_support
