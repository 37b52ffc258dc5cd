#include "sim/whatif/summary_task.h"

#include "sim/config/config_error.h"
#include "sim/engine/simulation.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

TaskOutcome simulateAndSummarize(const SimulationOptions& options) {
    SimulationOptions quiet = options;
    quiet.showProgress = false;  // the what-if job draws its own progress
    try {
        return {0, serializeRunSummary(summarizeRun(runSimulation(quiet)))};
    } catch (const WorkloadError& e) {
        return {2, e.what()};
    } catch (const ConfigError& e) {
        return {2, e.what()};
    } catch (const std::exception& e) {
        return {1, e.what()};
    }
}

int reportFailure(const std::string& command, std::ostream& err) {
    try {
        throw;
    } catch (const WhatIfFailure& e) {
        err << command << ": " << e.what() << "\n";
        return e.exitCode();
    } catch (const WorkloadError& e) {
        err << command << ": " << e.what() << "\n";
        return 2;
    } catch (const ConfigError& e) {
        err << command << ": " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        err << command << ": error: " << e.what() << "\n";
        return 1;
    }
}

std::vector<RunSummary> summariesOrThrow(const std::vector<TaskOutcome>& outcomes,
                                         const std::vector<std::string>& labels) {
    std::vector<RunSummary> summaries;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        if (outcomes[i].exitCode != 0) {
            const std::string where = i < labels.size() && !labels[i].empty() ? " (" + labels[i] + ")" : "";
            throw WhatIfFailure(outcomes[i].exitCode, outcomes[i].text + where);
        }
        summaries.push_back(deserializeRunSummary(outcomes[i].text));
    }
    return summaries;
}

}  // namespace ascendsim
