// Per-kernel side of `ascendsim compare`: kernels matched across two profiles by name and launch
// order within a step, and the duration-weighted pipe ratios and bandwidths (profile_comparison.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "profiler/report/profile_comparison.h"

namespace ascendsim {

std::vector<MatchedKernel> matchedKernels(const ProfileSummary& summary) {
    struct Sum {
        std::size_t order = 0;
        MatchedKernel kernel;
        double totalUs = 0;
    };
    std::map<std::pair<std::string, std::size_t>, Sum> sums;
    std::map<std::pair<std::string, std::string>, std::size_t> launchesInStep;  // (step, name) → launches so far
    for (const KernelRow& row : summary.kernels) {
        const std::size_t occurrence = launchesInStep[{row.step, row.name}]++;
        auto [it, inserted] = sums.try_emplace({row.name, occurrence});
        if (inserted) {
            it->second.order = sums.size();
            it->second.kernel = {row.name, occurrence, row.type, row.blockDim, 0};
        }
        it->second.totalUs += row.durationUs;
    }
    std::vector<Sum> ordered;
    for (auto& [key, sum] : sums) ordered.push_back(sum);
    std::sort(ordered.begin(), ordered.end(), [](const Sum& a, const Sum& b) { return a.order < b.order; });
    std::vector<MatchedKernel> kernels;
    const double steps = static_cast<double>(summary.kernelSteps);
    for (auto& sum : ordered) {
        sum.kernel.durationUs = sum.totalUs / steps;
        kernels.push_back(sum.kernel);
    }
    return kernels;
}

std::map<std::string, double> weightedMetrics(const ProfileSummary& summary) {
    std::map<std::string, std::pair<double, double>> sums;  // metric → (Σ value × duration, Σ duration)
    for (const KernelRow& row : summary.kernels) {
        for (const auto& [metric, value] : row.metrics) {
            sums[metric].first += value * row.durationUs;
            sums[metric].second += row.durationUs;
        }
    }
    std::map<std::string, double> means;
    for (const auto& [metric, sum] : sums) means[metric] = sum.second > 0 ? sum.first / sum.second : 0.0;
    return means;
}

std::vector<KernelChange> kernelChanges(const ProfileSummary& base, const ProfileSummary& variant) {
    std::vector<KernelChange> changes;
    std::map<std::pair<std::string, std::size_t>, std::size_t> index;
    const auto label = [](const MatchedKernel& k) {
        return k.occurrence == 0 ? k.name : k.name + " #" + std::to_string(k.occurrence + 1);
    };
    for (const auto& k : matchedKernels(base)) {
        index[{k.name, k.occurrence}] = changes.size();
        changes.push_back({label(k), k.type, k.blockDim, "", k.durationUs, 0});
    }
    for (const auto& k : matchedKernels(variant)) {
        const auto found = index.find({k.name, k.occurrence});
        if (found == index.end()) {
            changes.push_back({label(k), k.type, "", k.blockDim, 0, k.durationUs});
            continue;
        }
        changes[found->second].variantBlockDim = k.blockDim;
        changes[found->second].variantUs = k.durationUs;
    }
    std::stable_sort(changes.begin(), changes.end(), [](const KernelChange& a, const KernelChange& b) {
        return std::fabs(a.variantUs - a.baseUs) > std::fabs(b.variantUs - b.baseUs);
    });
    return changes;
}

}  // namespace ascendsim
