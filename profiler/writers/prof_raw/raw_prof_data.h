#pragma once
// The raw data of a PROF_* directory (issue 14 item 1): what CANN's collection writes before
// msprof exports it, in PROF_*/host/data/ and PROF_*/device_{id}/data/ (raw_host_data.h,
// raw_device_data.h). It is all an E2E collection writes (msprof exports it afterwards); a
// torch_npu.profiler run keeps it when data_simplification is False, True deleting it after the
// export (the data-collection page).
#include <filesystem>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// Writes host/data/ and device_{id}/data/ under `profRoot` (which holds host/ and device_{id}/).
void writeRawProfData(const std::filesystem::path& profRoot, const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
