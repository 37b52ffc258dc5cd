#pragma once
// `ascendsim calibrate REAL_DIR... --chip BASE -o my_chip.yaml`: fits the chip's global
// parameters to real profiles. Objective: the mean squared log ratio log(sim/real) over every
// kernel the base chip replays (log, so 2x too slow and 2x too fast weigh the same). Search: one
// pass of coordinate descent, a golden-section search per parameter in log space within its
// range, each evaluation a full replay with `--chip-set key=value`. Only chip-wide keys are
// fitted (kCalibrationParameters) — never a per-op or per-shape factor.
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "models/chip/chip_config.h"

namespace ascendsim {

struct CalibrationParameter {
    std::string_view key;  // --chip-set key path, as configs/*.yaml spell it
    double (*value)(const ChipConfig&);
    bool integer;
    double lowFactor, highFactor;  // search range, relative to the base value
    // Largest value the key may take (a share of a nominal rate: 1); the search range stops there.
    double maxValue = std::numeric_limits<double>::infinity();
};

// The parameters calibrate fits, in fitting order. A chip key the timing models gain later is
// one more line here.
const std::vector<CalibrationParameter>& calibrationParameters();

struct CalibrateOptions {
    std::vector<std::string> profileDirs;
    std::string baseChip;  // required
    std::string configDir;
    std::string outputFile;
    std::vector<std::string> only;  // parameter keys to fit (empty: all)
    unsigned evaluations = 6;       // golden-section evaluations per parameter
    bool showProgress = false;
};

int runCalibrateCommand(const CalibrateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ascendsim
