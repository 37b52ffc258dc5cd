#include "profiler/report/step_split.h"

#include <algorithm>

#include "profiler/writers/timeline/overlap_analysis.h"

namespace ascendsim {

namespace {

double us(std::uint64_t ns) { return static_cast<double>(ns) / 1e3; }

std::uint64_t totalNs(const std::vector<TimeInterval>& intervals) {
    std::uint64_t sum = 0;
    for (const auto& i : intervals) sum += i.endNs - i.startNs;
    return sum;
}

std::size_t stepOf(const std::vector<StepRecord>& steps, std::uint64_t startNs) {
    std::size_t index = 0;
    for (std::size_t s = 0; s < steps.size(); ++s)
        if (steps[s].startNs <= startNs) index = s;
    return index;
}

}  // namespace

std::vector<StepSplit> computeStepSplits(const RunRecord& run) {
    const auto& steps = run.steps;
    std::vector<std::vector<TimeInterval>> compute(steps.size()), communication(steps.size());
    std::vector<std::uint64_t> ends(steps.size());
    for (std::size_t s = 0; s < steps.size(); ++s) ends[s] = steps[s].endNs;
    if (steps.empty()) return {};
    for (const auto& k : run.kernels) {
        const std::size_t s = stepOf(steps, k.device.startNs);
        compute[s].push_back({k.device.startNs, k.device.endNs});
        ends[s] = std::max(ends[s], k.device.endNs);
    }
    for (const auto& c : run.communicationOps) {
        const std::size_t s = stepOf(steps, c.startNs);
        communication[s].push_back({c.startNs, c.endNs});
        ends[s] = std::max(ends[s], c.endNs);
    }
    std::vector<StepSplit> splits;
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const auto computing = mergeIntervals(compute[s]);
        const auto notOverlapped = subtractIntervals(mergeIntervals(communication[s]), computing);
        const std::uint64_t span = ends[s] - steps[s].startNs;
        const std::uint64_t busy = totalNs(computing) + totalNs(notOverlapped);
        splits.push_back({steps[s].stepNumber, us(span), us(totalNs(computing)), us(totalNs(notOverlapped)),
                          us(span > busy ? span - busy : 0)});
    }
    return splits;
}

}  // namespace ascendsim
