#pragma once
// How many buffers TBE's DSL TransData keeps per UB tensor. The 910A runs CANN 8.1's DSL TransData
// for NCHW ↔ NC1HWC0 and ND ↔ FRACTAL_NZ (docs/fidelity.md §104a); the DSL's TransData schedules
// (tbe/dsl/unify_schedule/vector/transdata/sch/transdata_forward_schedule.py and
// transdata_backward_schedule.py, read for their structure) never call the base schedule's
// `_do_double_buffer` (§87f): one buffer, so a tile's load waits for the previous tile's compute and
// its compute for the previous tile's store. The 910B parts run Ascend C's TransData (their own
// buffering), so only coupled chips take this.
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

inline bool dslTransDataIsSingleBuffered(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Coupled; }

}  // namespace ascendsim
