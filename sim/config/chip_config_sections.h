#pragma once
// Reads each top-level section of a chip YAML file into ChipConfig. With `isRoot` (a file without
// `inherits`), required keys must be present; otherwise every key is an optional override.
#include <array>

#include "models/chip/chip_config.h"
#include "sim/config/config_node.h"

namespace ascendsim {

// The YAML key of each vector instruction class under vector.classes, in VectorClass order.
inline constexpr std::array<const char*, kVectorClassCount> kVectorClassKeys = {
    "unary", "binary", "transcendental", "fused_multiply_add",
    "reduction", "gather", "sort", "conversion", "transpose", "bitsort"};

void readChipSections(const ConfigNode& root, bool isRoot, ChipConfig& chip);

}  // namespace ascendsim
