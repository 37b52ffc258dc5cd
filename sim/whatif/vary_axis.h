#pragma once
// `ascendsim sweep --vary KEY=VALUES`: one axis of a what-if grid. KEY is anything a single run
// accepts: a `--set` key (batch, op.NAME.block_dim), `chip` (a chip name or YAML file), or
// `chip.` followed by a `--chip-set` key path (chip.hbm.bandwidth_gbps). VALUES is a list
// `1,8,32` or an inclusive range `A..B` with an optional `:STEP` (default 1).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/simulation_options.h"

namespace ascendsim {

struct VaryAxis {
    std::string key;
    std::vector<std::string> values;  // in sweep order, as the run receives them
};

// Throws WorkloadError (field "--vary", column = 1-based index of the --vary entry) naming the
// problem: no '=', empty list, a range that is not numeric, a step ≤ 0, B < A, too many points.
VaryAxis parseVaryAxis(const std::string& text, std::size_t index);

// One grid point: (key, value) per axis, in axis order.
using SweepPoint = std::vector<std::pair<std::string, std::string>>;

// The grid, last axis varying fastest. Throws WorkloadError when it exceeds kMaxSweepPoints.
std::vector<SweepPoint> expandGrid(const std::vector<VaryAxis>& axes);
inline constexpr std::size_t kMaxSweepPoints = 4096;  // assumed: a sweep is a few hours at most

// `base` with the point's assignments appended after the user's own --set / --chip-set, so the
// varied value wins; `chip` replaces --chip.
SimulationOptions optionsAtPoint(SimulationOptions base, const SweepPoint& point);

// "op.layer1.0.conv2.block_dim" → "layer1.0.conv2"; empty for every other key.
std::string blockDimOpOf(const std::string& key);

}  // namespace ascendsim
