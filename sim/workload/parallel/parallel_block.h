#pragma once
// Reading the workload's `parallel:` block ({tp, pp, dp, ep}, each a positive integer or a
// parameter expression).
#include <map>
#include <string>

#include "sim/workload/parallel/parallel_layout.h"
#include "sim/workload/yaml_reader.h"

namespace ascendsim {

// Throws WorkloadError naming the field for a non-positive size, an ep that does not divide dp,
// or an unknown key.
ParallelLayout readParallelBlock(const YamlReader& reader, const YAML::Node& node,
                                 const std::map<std::string, std::string>& parameters);

}  // namespace ascendsim
