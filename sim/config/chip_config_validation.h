#pragma once
// Cross-field checks on a fully loaded ChipConfig (after inheritance). Throws ConfigError naming
// chip.sourceFile, the key path of the offending value and the problem.
#include "models/chip/chip_config.h"

namespace ascendsim {

void validateChipConfig(const ChipConfig& chip);

// Paths that exist only on the coupled (200x) organisation, where cube and vector share a core.
bool isCoupledOnlyPath(MemSpace src, MemSpace dst);

}  // namespace ascendsim
