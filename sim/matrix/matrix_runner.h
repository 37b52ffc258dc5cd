#pragma once
// Runs the combinations of `ascendsim matrix` as child processes of this program (SystemC allows
// one simulation per process, and processes use every core), then writes MANIFEST.json. The whole
// matrix appears at the output folder only when every run succeeded.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "sim/matrix/matrix_plan.h"

namespace ascendsim {

struct MatrixOptions {
    std::string workloadPath;
    std::string outputDir;                   // must not exist yet, or be empty
    std::vector<std::string> extraArguments;  // passed to every run (--chip, --set, --chip-set, ...)
    std::size_t jobs = 0;                     // runs at once; 0: the machine's cores
    bool terminal = false;                    // progress as a redrawn bar (else one line per run)
};

// Returns the exit code: 0 when every planned run succeeded; 2 when the options or every run's
// input were rejected; 1 when a run failed at run time (its stderr is shown) — nothing is left at
// the output folder then.
int runMatrix(const MatrixOptions& options, const std::vector<MatrixCombination>& plan, std::ostream& out,
              std::ostream& err);

}  // namespace ascendsim
