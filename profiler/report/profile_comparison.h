#pragma once
// `ascendsim compare BASE VARIANT`: the what-if report. Reads two result directories — ours or
// real ones captured on hardware — through the files a performance engineer knows
// (kernel_details.csv, step_trace_time.csv) and says what changed: step time split, then device
// time per op type, biggest change first. Per-step averages, so runs that recorded a different
// number of steps still compare.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>

namespace ascendsim {

struct OpTypeTime {
    std::uint64_t kernels = 0;
    double deviceUs = 0.0;
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
};

// `resultDir` is a *_ascend_pt directory, its ASCEND_PROFILER_OUTPUT folder, or a folder holding
// exactly one *_ascend_pt directory: returns the ASCEND_PROFILER_OUTPUT folder. Throws
// std::runtime_error saying what is missing.
std::filesystem::path findProfilerOutputFolder(const std::filesystem::path& resultDir);

// Reads the folder findProfilerOutputFolder(resultDir) names.
ProfileSummary loadProfileSummary(const std::filesystem::path& resultDir);

void writeProfileComparison(const ProfileSummary& base, const ProfileSummary& variant, std::size_t topOpTypes,
                            std::ostream& out);

}  // namespace ascendsim
