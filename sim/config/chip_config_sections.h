#pragma once
// Reads each top-level section of a chip YAML file into ChipConfig. With `isRoot` (a file without
// `inherits`), required keys must be present; otherwise every key is an optional override.
#include "models/chip/chip_config.h"
#include "sim/config/config_node.h"

namespace ascendsim {

void readChipSections(const ConfigNode& root, bool isRoot, ChipConfig& chip);

}  // namespace ascendsim
