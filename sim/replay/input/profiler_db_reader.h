#pragma once
// ascend_pytorch_profiler_*.db (the DB export, formats.md §2) → RealProfile: one kernel per
// COMPUTE_TASK_INFO row, its duration from TASK (first start to last end of its contexts), names
// and tensors resolved through STRING_IDS, pipe ratios from TASK_PMU_INFO when the level recorded
// them, the chip name from NPU_INFO. COMMUNICATION_OP rows are counted as communication.
#include <filesystem>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// The era: CANN 8.3 when the profile's profiler_info states torch_npu/CANN versions (only 8.3
// does), 2024 on a 910A (NPU_INFO), else 8.0. Throws ReplayInputError naming the file and table.
RealProfile readProfilerDb(const std::filesystem::path& file);

}  // namespace ascendsim
