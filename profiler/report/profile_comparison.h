#pragma once
// `ascendsim compare BASE VARIANT`: the what-if report. Reads two result directories — ours or
// real ones captured on hardware, any of the three format eras — through the files a performance
// engineer knows (kernel_details.csv, step_trace_time.csv, l2_cache.csv) and says what changed:
// step time split, device time per op type, the pipe ratios and bandwidths kernel_details carries
// (duration-weighted), the L2 hit rate, and per-kernel rows matched by name and launch order with
// the top changes first. Per-step averages, so runs that recorded a different number of steps
// still compare.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ascendsim {

struct OpTypeTime {
    std::uint64_t kernels = 0;
    double deviceUs = 0.0;
};

// One kernel_details row: what the comparison reads of it.
struct KernelRow {
    std::string step;  // Step Id ("" when the era or level has none)
    std::string name;
    std::string type;
    double durationUs = 0;
    std::string blockDim;
    std::map<std::string, double> metrics;  // the *_ratio and *_bw(GB/s) columns present
};

// A kernel of one step, averaged over the steps it ran in: the n-th launch of `name` in a step.
struct MatchedKernel {
    std::string name;
    std::size_t occurrence = 0;  // 0 for the first launch of that name in the step
    std::string type;
    std::string blockDim;
    double durationUs = 0;
};

struct ProfileSummary {
    std::filesystem::path outputDir;  // the ASCEND_PROFILER_OUTPUT folder read
    std::size_t kernelSteps = 1;      // distinct Step Id values in kernel_details (≥ 1)
    std::map<std::string, OpTypeTime> opTypes;  // by Type; by Name where Type is N/A (Level0)
    double kernelUs = 0.0;
    std::uint64_t kernelCount = 0;
    // step_trace_time.csv sums over its rows; stepRows 0 when the file is absent.
    std::size_t stepRows = 0;
    double computingUs = 0.0;
    double communicationNotOverlappedUs = 0.0;
    double freeUs = 0.0;
    std::vector<KernelRow> kernels;  // in file order
    // Mean "Hit Rate" of l2_cache.csv when it reports one (910B writes N/A), else hits / (hits +
    // misses) of kernel_details' *_cache_hit and *_cache_miss_allocate columns (--aic-metrics L2Cache).
    std::optional<double> l2HitRate;
};

// Per-step kernels keyed by (name, occurrence), in first-launch order.
std::vector<MatchedKernel> matchedKernels(const ProfileSummary& summary);

// Duration-weighted mean of every metric column over all kernels that report it.
std::map<std::string, double> weightedMetrics(const ProfileSummary& summary);

// One metric of weightedMetrics(), 0 where the profile does not report it.
double metricOrZero(const std::map<std::string, double>& metrics, const std::string& name);

// Device time per step of one op type (0 when the profile has none of it).
double opTypeUsPerStep(const ProfileSummary& summary, const std::string& type);

struct KernelChange {
    std::string name;  // "name" or "name #2" for later launches in the step
    std::string type;
    std::string baseBlockDim, variantBlockDim;  // empty when absent on that side
    double baseUs = 0, variantUs = 0;
};

// All kernels of either side, biggest |change| first (ties: first-launch order).
std::vector<KernelChange> kernelChanges(const ProfileSummary& base, const ProfileSummary& variant);

// `resultDir` is a *_ascend_pt directory, its ASCEND_PROFILER_OUTPUT folder, or a folder holding
// exactly one *_ascend_pt directory: returns the ASCEND_PROFILER_OUTPUT folder. Throws
// std::runtime_error saying what is missing.
std::filesystem::path findProfilerOutputFolder(const std::filesystem::path& resultDir);

// Reads the folder findProfilerOutputFolder(resultDir) names.
ProfileSummary loadProfileSummary(const std::filesystem::path& resultDir);

void writeProfileComparison(const ProfileSummary& base, const ProfileSummary& variant, std::size_t topOpTypes,
                            std::ostream& out);

}  // namespace ascendsim
