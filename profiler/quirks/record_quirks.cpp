#include "profiler/quirks/record_quirks.h"

#include <algorithm>
#include <vector>

namespace ascendsim {

void applyClockSkew(RunRecord& run) {
    const std::uint64_t skew = static_cast<std::uint64_t>(std::max<std::int64_t>(run.rankId, 0)) * kClockSkewNsPerRank;
    run.epochNs = run.epochNs > skew ? run.epochNs - skew : 0;
}

RunRecord withLastStepInterrupted(const RunRecord& run, const ProfilingCycle& cycle) {
    RunRecord cut = run;
    if (cycle.recordedSteps.empty()) return cut;
    for (StepRecord& step : cut.steps) {
        if (step.stepNumber != cycle.recordedSteps.back()) continue;
        // The host issues a step's ops in a burst and then waits for the device, so a stop() that
        // lands inside the step is modelled at the middle of the host's work: the later half of the
        // step's host ops (and the kernels they would have launched) never happen.
        std::vector<std::uint64_t> hostStarts;
        for (const auto& op : run.hostOps) {
            if (op.startNs > step.startNs && op.startNs <= step.endNs) hostStarts.push_back(op.startNs);
        }
        std::sort(hostStarts.begin(), hostStarts.end());
        step.endNs = hostStarts.size() >= 2 ? hostStarts[hostStarts.size() / 2] - 1
                                            : step.startNs + (step.endNs - step.startNs) / 2;
    }
    return cut;
}

}  // namespace ascendsim
