#pragma once
// `ascendsim tune -w W [--ops ...|--op-types ...|--all]`: searches the block dim of each selected
// op with the simulator, writes the winners as an overrides file and re-runs the workload with it
// to confirm the gain.
//
// How the search avoids re-simulating the workload per (op, candidate): candidate k of every
// selected op is evaluated in the same run. Run k sets each selected op's block dim to its own
// k-th candidate (a fraction of the cores of the op's core type, so the lists line up across
// ops), and each op's kernels are measured where they really run: after the ops before them,
// with the L2 contents those left behind and the same stream and host timing. The ops of one
// stream run one after another, so an op's time depends on its own block dim and on the cache
// state it inherits, not on how its predecessors were split. A search over K candidates costs
// K + 1 runs (with the baseline) however many ops are tuned, in parallel worker processes; the
// confirmation run then measures the chosen combination and reports any difference from the
// prediction.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/engine/simulation_options.h"
#include "sim/whatif/run_summary.h"

namespace ascendsim {

enum class TuneObjective : std::uint8_t { Step, Device, Kernel };

struct TuneRequest {
    SimulationOptions base;
    std::vector<std::string> ops;      // by name
    std::vector<std::string> opTypes;  // by workload op type (Conv2D, MatMul)
    bool all = false;                  // every op that runs on AI cores
    TuneObjective objective = TuneObjective::Step;
    std::string overridesPath = "overrides.yaml";
    std::string htmlPath;
    unsigned jobs = 1;
    bool terminal = false;
};

struct TunedOp {
    std::string op, opType, core;
    std::uint32_t defaultBlockDim = 0;
    double defaultUs = 0;
    std::uint32_t chosenBlockDim = 0;  // == defaultBlockDim when no candidate beat it
    double predictedUs = 0;            // measured in the search run of the chosen candidate
    double confirmedUs = 0;            // measured in the confirmation run
    std::vector<std::pair<std::uint32_t, double>> measured;  // (block dim, us) of every candidate tried
};

struct TuneResult {
    TuneObjective objective = TuneObjective::Step;
    std::vector<TunedOp> ops;  // workload order
    RunSummary baseline, confirmed;
    std::size_t searchRuns = 0;
    std::vector<std::string> failedCandidates;  // search runs the workload rejected (message)
    double searchSeconds = 0, totalSeconds = 0;
};

// Block dims tried for an op whose kernels run on `cores` cores: fixed fractions of the core count
// (rounded, at least 1), so every op has the same number of candidates.
std::vector<std::uint32_t> blockDimCandidates(std::uint32_t cores);

// A candidate replaces the default block dim only when it is faster by at least 0.5 % and 10 ns:
// smaller differences are the simulation's rounding and the L2 state of one run, not a gain a
// user can keep (tune reports every override it writes as a gain).
bool isMeasurableGain(double defaultUs, double candidateUs);

// The objective's value before (baseline) and after (confirmation run): the step time, the
// device time per step, or the tuned ops' kernel time per step.
std::pair<double, double> objectiveBeforeAfter(const TuneResult& result);

TuneResult runTune(const TuneRequest& request, std::ostream& progress);
void writeTuneTable(const TuneResult& result, std::ostream& out);

// The ops the HTML report's bar chart shows (indices into `ops`, at most `limit`): the ops whose
// block dim changed, largest time change first; when none changed, the heaviest ops by default time.
std::vector<std::size_t> tuneChartOps(const std::vector<TunedOp>& ops, std::size_t limit = 25);
int runTuneCommand(const TuneRequest& request, std::ostream& out, std::ostream& err);

}  // namespace ascendsim
