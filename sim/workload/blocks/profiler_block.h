#pragma once
// Reads a workload's `profiler:` block into a ProfilerConfig (formats.md §1.2 for the options
// and their defaults). Unknown keys, levels and aic_metrics names are errors.
#include "profiler/config/profiler_config.h"
#include "sim/workload/yaml_reader.h"

namespace ascendsim {

ProfilerConfig readProfilerBlock(const YamlReader& reader, const YAML::Node& node);

}  // namespace ascendsim
