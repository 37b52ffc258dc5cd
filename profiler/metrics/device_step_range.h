#pragma once
// Which profiler step a kernel belongs to, as torch_npu decides it (formats.md §3.1): a step's
// device range spans its ProfilerStep#N host range widened to the kernels launched inside it, and
// a kernel belongs to the first step whose range contains it by *string* comparison of the
// kernel's "Start Time(us)" text (3 decimals plus a trailing TAB) against the step's start/end
// texts (3 decimals, no TAB). So a kernel starting exactly at a step's end is outside it.
#include <cstdint>
#include <optional>
#include <vector>

#include "profiler/record/run_record.h"

namespace ascendsim {

struct DeviceStepRange {
    std::uint32_t stepNumber = 0;
    std::uint64_t startNs = 0;  // simulated ns
    std::uint64_t endNs = 0;
};

// One range per RunRecord::steps entry, in the same order.
std::vector<DeviceStepRange> deviceStepRanges(const RunRecord& run);

// The step of a kernel that starts at `kernelStartNs` (simulated), or nothing when it lies outside
// every step. `epochNs` turns simulated time into the printed wall-clock text.
std::optional<std::uint32_t> stepOfKernel(const std::vector<DeviceStepRange>& ranges,
                                          std::uint64_t epochNs, std::uint64_t kernelStartNs);

}  // namespace ascendsim
