#pragma once
// `--chip-set key.path=value`: what-if edits of a chip configuration from the command line
// ("l2.size_bytes=402653184", "hbm.bandwidth_gbps=3200", "buffers.UB.bytes=262144"). The
// assignments become one more YAML layer read over the chip's file chain by the same section
// readers, so an override is checked exactly like a value in a config file, and errors name
// "--chip-set" and the key path.
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace ascendsim {

inline constexpr const char* kChipOverrideSource = "--chip-set";

// The assignments as one nested mapping; later assignments of the same key win. Throws a
// ConfigError (file "--chip-set") for an assignment without '=', an empty key segment, or a key
// that is both a value and a section ("l2=1" with "l2.ways=8").
YAML::Node chipOverrideLayer(const std::vector<std::string>& assignments);

}  // namespace ascendsim
