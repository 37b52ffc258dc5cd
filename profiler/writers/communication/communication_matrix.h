#pragma once
// ASCEND_PROFILER_OUTPUT/communication_matrix.json (formats.md §3.11): per step and collective
// type, each link's top/middle/bottom op by bandwidth and the link totals.
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/communication/communication_matrix_selection.h"

namespace ascendsim {

// Empty when the file is not written (as communication.json).
std::string renderCommunicationMatrixJson(const RunRecord& run, const ProfilerConfig& config);

bool writeCommunicationMatrixJson(const std::filesystem::path& outputDir, const RunRecord& run,
                                  const ProfilerConfig& config);

}  // namespace ascendsim
