#pragma once
// The fidelity numbers of a replay: per kernel the ratio simulated / real, per set of kernels
// the median absolute error |ratio − 1|, the geometric mean of the ratios, the share within
// ±20 % and, per pipe, the mean absolute difference of the pipe ratios (simulated − real).
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace ascendsim {

double median(std::vector<double> values);  // 0 for none; mean of the middle two for an even count
double geometricMean(const std::vector<double>& values);  // of positive values; 0 for none

inline constexpr double kWithinBand = 0.20;

// One replayed kernel as the statistics see it.
struct KernelFidelity {
    double realUs = 0.0;
    double simulatedUs = 0.0;
    std::map<std::string, double> realPipes;       // "aic_mac_ratio" → real ratio
    std::map<std::string, double> simulatedPipes;  // same keys where simulated
};

struct FidelityStats {
    std::size_t kernels = 0;
    double medianAbsError = 0.0;
    double geomeanRatio = 0.0;
    double withinBandShare = 0.0;                 // |ratio − 1| ≤ 20 %
    std::map<std::string, double> meanAbsPipeError;  // per pipe column both sides report
    std::map<std::string, std::size_t> pipeSamples;
};

FidelityStats fidelityStats(const std::vector<KernelFidelity>& kernels);

}  // namespace ascendsim
