#include "sim/replay/report/replay_statistics.h"

#include <algorithm>
#include <cmath>

namespace ascendsim {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

double geometricMean(const std::vector<double>& values) {
    double logSum = 0.0;
    std::size_t count = 0;
    for (double v : values) {
        if (v <= 0.0) continue;
        logSum += std::log(v);
        ++count;
    }
    return count == 0 ? 0.0 : std::exp(logSum / static_cast<double>(count));
}

FidelityStats fidelityStats(const std::vector<KernelFidelity>& kernels) {
    FidelityStats stats;
    std::vector<double> ratios, errors;
    std::map<std::string, double> pipeErrorSum;
    std::size_t within = 0;
    for (const auto& k : kernels) {
        if (k.realUs <= 0.0) continue;
        const double ratio = k.simulatedUs / k.realUs;
        ratios.push_back(ratio);
        errors.push_back(std::fabs(ratio - 1.0));
        if (std::fabs(ratio - 1.0) <= kWithinBand + 1e-12) ++within;
        for (const auto& [pipe, real] : k.realPipes) {
            const auto simulated = k.simulatedPipes.find(pipe);
            if (simulated == k.simulatedPipes.end()) continue;
            pipeErrorSum[pipe] += std::fabs(simulated->second - real);
            ++stats.pipeSamples[pipe];
        }
    }
    stats.kernels = ratios.size();
    stats.medianAbsError = median(errors);
    stats.geomeanRatio = geometricMean(ratios);
    stats.withinBandShare = ratios.empty() ? 0.0 : static_cast<double>(within) / static_cast<double>(ratios.size());
    for (const auto& [pipe, sum] : pipeErrorSum)
        stats.meanAbsPipeError[pipe] = sum / static_cast<double>(stats.pipeSamples[pipe]);
    return stats;
}

}  // namespace ascendsim
