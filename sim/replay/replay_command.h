#pragma once
// `ascendsim replay REAL_DIR [--chip C] [-o DIR]`: how well does the simulator know the machine a
// real profile ran on? Reads the profile, infers (or takes) the chip, replays every distinct
// kernel and writes replay_report.h's files; prints the summary. Exit 0 on success, 2 on bad input
// (not a profile, unknown era, bad chip or option) with one clear line, 1 on I/O failure (errno
// text); no output files on failure.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "sim/replay/run/kernel_replay.h"
#include "sim/replay/input/real_profile_loader.h"
#include "sim/replay/report/replay_report.h"

namespace ascendsim {

struct ReplayOptions {
    std::string profileDir;
    std::string chip;                       // empty: inferred
    std::vector<std::string> chipOverrides; // --chip-set key=value
    std::string configDir;
    std::string outputDir = "ascendsim_replay";
    // The L2 state each kernel meets (kernel_replay.h): the timeline walk by default, which beats a
    // cold L2 on all seven real exports since docs/fidelity.md §94.
    std::string l2 = "timeline";
    // --code-l2: "held" (every launch finds its code in L2) or "walk" (an LRU walk of the launch
    // order says which binaries L2 still held; the others fill their first code line from HBM, §93).
    std::string codeL2 = "held";
    // --l2-victims: "eager" (the chip's write-back policy) or "timeline" (under --l2 timeline, each
    // launch's misses evict the timeline walk's tensors, dirty in the share it says, §103).
    std::string l2Victims = "eager";
    // "on": a kernel that ran beside HCCL transfers (the profile's task rows) shares HBM with them
    // (docs/fidelity.md §108); "off": every kernel has HBM to itself.
    std::string hcclTraffic = "on";
    // --l2-scalars: under --l2 timeline, "held" (default since session 29: every 0-d input held in
    // L2, a scalar written just before the launch; docs/fidelity.md §134e, §145) or "cold" (read from HBM).
    std::string l2Scalars = "held";
    // --l2-views: under --l2 timeline, "autograd" (default: in a backward node, a reshape of a tensor
    // the node touched; §140g, on since §146) or "new" (an input of an identity L2 holds no tensor of
    // is read cold).
    std::string l2Views = "autograd";
    std::string source = "auto";            // auto, text, db
    std::string htmlPath;                   // --html FILE: also the report as one page (replay_html.h)
    bool showProgress = false;
};

// A profile read and grouped, its chip chosen: what replay and calibrate share.
struct PreparedReplay {
    ReplayReport report;  // kernels grouped, not yet simulated
    ChipConfig chip;
};

// Throws ReplayInputError / ConfigError (bad input) or std::system_error (I/O).
PreparedReplay prepareReplay(const ReplayOptions& options);

// Simulates every kernel of `prepared` on `chip` (progress on stderr when asked).
void runReplay(PreparedReplay& prepared, const ChipConfig& chip, bool showProgress);

int runReplayCommand(const ReplayOptions& options, std::ostream& out, std::ostream& err);

// Maps an exception of prepare/run/write to the exit code and prints it (2 bad input, 1 other).
int reportReplayFailure(std::ostream& err, const char* command);

}  // namespace ascendsim
