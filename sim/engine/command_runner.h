#pragma once
// The engine's entry points for each command of the CLI. Each returns the process exit code of
// exit_codes.h and reports errors itself, one line on `err` (naming file, line and field; no
// partial output).
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "sim/engine/cluster/rank_exchange.h"
#include "sim/engine/simulation_options.h"

namespace ascendsim {

// `ascendsim chips`: one line per chip configuration found in `configDir`.
int runChipsCommand(const std::string& configDir, std::ostream& out, std::ostream& err);

// `ascendsim microbench --chip X`: the calibration set, model vs measured side by side.
int runMicrobenchCommand(const std::string& chipName, const std::string& configDir, std::ostream& out,
                         std::ostream& err);

// `ascendsim compare BASE VARIANT...`: the what-if report of BASE against each variant; with `htmlPath`
// also as one HTML page holding every variant.
int runCompareCommand(const std::string& baseDir, const std::vector<std::string>& variantDirs, std::size_t topOpTypes,
                      std::ostream& out, std::ostream& err, const std::string& htmlPath = {});
inline int runCompareCommand(const std::string& baseDir, const std::string& variantDir, std::size_t topOpTypes,
                             std::ostream& out, std::ostream& err, const std::string& htmlPath = {}) {
    return runCompareCommand(baseDir, std::vector<std::string>{variantDir}, topOpTypes, out, err, htmlPath);
}

// `ascendsim --workload W ...`: simulate the workload and write the profiler directories. Under
// mpirun (`exchange` over several processes) this process writes the rank directories it owns;
// process 0 also writes the report, --chrome-trace, --html and --core-trace.
int runSimulationCommand(const SimulationOptions& options, std::ostream& out, std::ostream& err);
int runSimulationCommand(const SimulationOptions& options, std::ostream& out, std::ostream& err,
                         RankExchange& exchange);

}  // namespace ascendsim
