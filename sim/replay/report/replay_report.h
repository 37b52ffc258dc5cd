#pragma once
// The three files of `ascendsim replay -o DIR` and the summary it prints:
//   replay_kernels.csv  — one row per distinct kernel: identity, occurrences, real and simulated
//                         µs, sim/real, under --l2 producer / timeline the inputs and copy
//                         targets preloaded ("L2 Resident"), then real and simulated value of
//                         every pipe ratio the profile's era reports;
//   replay_families.csv — one row per op family (and "all"): kernels, median abs error, geomean
//                         sim/real, share within ±20 %, mean abs error per pipe;
//   replay_summary.txt  — the headline numbers, coverage (share of real compute-kernel time
//                         replayed) and every kernel not replayed with its reason and counts.
#include <filesystem>
#include <string>
#include <vector>

#include "sim/replay/run/kernel_replay.h"
#include "sim/replay/input/real_profile.h"
#include "sim/replay/run/l2_residency_check.h"
#include "sim/replay/run/replay_run.h"

namespace ascendsim {

struct ReplayReport {
    std::filesystem::path source;
    std::string exportType;
    FormatVersion era = FormatVersion::Cann83;
    bool hasShapes = true;
    std::string chipName;
    std::string chipReason;
    L2State l2 = L2State::Cold;
    std::size_t computeRows = 0;
    std::uint64_t communicationTasks = 0;
    double communicationUs = 0.0;
    std::vector<ReplayedKernel> kernels;
    // The assumed L2 state against the export's l2_cache.csv (producer and timeline states, text
    // exports that have one); empty otherwise.
    std::vector<ResidencyGroup> residencyCheck;
};

struct ReplayCoverage {
    double replayedUs = 0.0;
    double computeUs = 0.0;
    double share() const { return computeUs > 0.0 ? replayedUs / computeUs : 0.0; }
};
ReplayCoverage replayCoverage(const std::vector<ReplayedKernel>& kernels);

std::string renderReplayKernelsCsv(const ReplayReport& report);
std::string renderReplayFamiliesCsv(const ReplayReport& report);
std::string renderReplaySummary(const ReplayReport& report);

// Writes the three files into `dir` (created if missing). All text is rendered first, so a
// failure leaves no partial set: files already written are removed. Throws std::system_error.
void writeReplayReport(const ReplayReport& report, const std::filesystem::path& dir);

}  // namespace ascendsim
