#pragma once
// The workload's `mstx:` block: torch_npu.npu.mstx markers around ops (issue 14 item 4;
// docs/workload-format.md "mstx markers").
//
//   mstx:
//     - {range: forward, from: conv1, to: fc}           # id = mstx.range_start("forward") ... range_end(id)
//     - {mark: loss ready, after: loss}                  # mstx.mark("loss ready")
//     - {range: backward, from: fc_grad, to: conv1_grad, domain: train}
//
// Ops are named as the flattened op list names them ("layer1.0.conv1"); a range's `from` op must
// not run after its `to` op. The markers are recorded only with msprof_tx (the profiler's switch).
#include <vector>

#include "sim/workload/workload.h"
#include "sim/workload/yaml_reader.h"

namespace ascendsim {

// Reads the block against the workload's flattened ops. Throws WorkloadError naming the entry's
// file, line and field.
std::vector<WorkloadMstxMarker> readMstxBlock(const YamlReader& reader, const YAML::Node& node, const Workload& w);

}  // namespace ascendsim
