#pragma once
// ASCEND_PROFILER_OUTPUT/communication_matrix.json (formats.md §3.11): per step and collective
// type, each link's top/middle/bottom op by bandwidth and the link totals.
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// Empty when the file is not written (as communication.json).
std::string renderCommunicationMatrixJson(const RunRecord& run, const ProfilerConfig& config);

bool writeCommunicationMatrixJson(const std::filesystem::path& outputDir, const RunRecord& run,
                                  const ProfilerConfig& config);

// torch_npu get_comm_type: the first of its type names found in the lowercased op name
// ("hcom_allReduce__586_0_1" -> "allreduce", "hcom_reduceScatter_..." -> "reduce").
std::string communicationTypeOf(const std::string& opName);

}  // namespace ascendsim
