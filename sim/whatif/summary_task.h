#pragma once
// One what-if simulation as a worker task: simulate, summarize, and hand the summary back as text,
// or the error with the exit code the command should end with (2 bad input, 1 runtime failure).
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine/simulation_options.h"
#include "sim/whatif/run_summary.h"
#include "sim/whatif/worker_pool.h"

namespace ascendsim {

class WhatIfFailure : public std::runtime_error {
public:
    WhatIfFailure(int exitCode, const std::string& message) : std::runtime_error(message), exitCode_(exitCode) {}
    int exitCode() const { return exitCode_; }

private:
    int exitCode_;
};

// Call inside a catch block: prints the exception being handled as "command: message" and returns
// the exit code for it (2 bad input, the failure's own code, 1 otherwise).
int reportFailure(const std::string& command, std::ostream& err);

TaskOutcome simulateAndSummarize(const SimulationOptions& options);

// The summaries of all outcomes, or a WhatIfFailure for the first failed one (in index order),
// its message prefixed by labels[i].
std::vector<RunSummary> summariesOrThrow(const std::vector<TaskOutcome>& outcomes,
                                         const std::vector<std::string>& labels);

}  // namespace ascendsim
