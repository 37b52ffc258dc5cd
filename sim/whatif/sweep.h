#pragma once
// `ascendsim sweep -w W --vary KEY=VALUES [--vary ...]`: runs the workload at every point of the
// grid (in parallel worker processes), then prints per point the step time split and the varied
// ops' device time with their bound pipe, and writes sweep.csv (and an HTML chart with --html).
// The output depends only on the inputs, never on the number of jobs or which finished first.
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "sim/engine/simulation_options.h"
#include "sim/whatif/run_summary.h"
#include "sim/whatif/vary_axis.h"

namespace ascendsim {

struct SweepRequest {
    SimulationOptions base;           // the run every point starts from
    std::vector<std::string> varies;  // raw --vary arguments
    std::vector<std::string> ops;     // further ops to show (besides those whose block_dim varies)
    unsigned jobs = 1;
    std::filesystem::path csvPath = "sweep.csv";
    std::string htmlPath;             // empty: no HTML report
    bool terminal = false;            // progress bar (true) or plain lines
};

struct SweepResult {
    std::vector<VaryAxis> axes;
    std::vector<SweepPoint> points;
    std::vector<RunSummary> runs;          // one per point, same order
    std::vector<std::string> shownOps;     // ops with a column in the table and the CSV
};

// Runs the grid. Throws WorkloadError/ConfigError for bad input (of the first failing point, in
// point order) and std::runtime_error for other failures; nothing is written then.
SweepResult runSweep(const SweepRequest& request, std::ostream& progress);

void writeSweepTable(const SweepResult& sweep, std::ostream& out);
void writeSweepCsv(const SweepResult& sweep, std::ostream& out);
void writeSweepHtml(const SweepResult& sweep, const std::string& title, std::ostream& out);

// The command: exit 0, 2 for bad input, 1 for runtime failures (errno text).
int runSweepCommand(const SweepRequest& request, std::ostream& out, std::ostream& err);

// Label of a point: "batch=8 op.x.block_dim=4".
std::string pointLabel(const SweepPoint& point);

}  // namespace ascendsim
