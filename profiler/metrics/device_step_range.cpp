#include "profiler/metrics/device_step_range.h"

#include <algorithm>

#include "profiler/format/time_format.h"

namespace ascendsim {

std::vector<DeviceStepRange> deviceStepRanges(const RunRecord& run) {
    std::vector<DeviceStepRange> ranges;
    for (const StepRecord& step : run.steps) {
        DeviceStepRange range{step.stepNumber, step.startNs, step.endNs};
        for (const KernelRecord& kernel : run.kernels) {
            if (kernel.hostOpIndex < 0 || static_cast<std::size_t>(kernel.hostOpIndex) >= run.hostOps.size()) {
                continue;
            }
            const HostOpRecord& op = run.hostOps[static_cast<std::size_t>(kernel.hostOpIndex)];
            if (op.startNs < step.startNs || op.startNs > step.endNs) continue;
            range.startNs = std::min(range.startNs, kernel.device.startNs);
            range.endNs = std::max(range.endNs, kernel.device.endNs);
        }
        ranges.push_back(range);
    }
    return ranges;
}

std::optional<std::uint32_t> stepOfKernel(const std::vector<DeviceStepRange>& ranges,
                                          std::uint64_t epochNs, std::uint64_t kernelStartNs) {
    const std::string kernelText = nsToUsStringWithTab(epochNs + kernelStartNs);
    for (const DeviceStepRange& range : ranges) {
        const std::string startText = nsToUsString(epochNs + range.startNs);
        const std::string endText = nsToUsString(epochNs + range.endNs);
        if (startText <= kernelText && kernelText <= endText) return range.stepNumber;
    }
    return std::nullopt;
}

}  // namespace ascendsim
