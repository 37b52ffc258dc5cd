#pragma once
// profiler_metadata.json (formats.md §1.3). Cann83: one line (json.dumps(indent=None)), the nine
// ENV_VARIABLES (only when text is exported) and a trace_id; Cann80: the older indented form with
// eight ENV_VARIABLES and no trace_id; Era2024 samples have no metadata file (hasProfilerMetadata).
#include <cstdint>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

bool hasProfilerMetadata(FormatVersion version);

// 32 uppercase hex digits. Deterministic: a 128-bit FNV-1a hash of the run's identity and the
// cycle index; otherwise random (uuid4 in torch_npu).
std::string profilerTraceId(const RunRecord& run, std::uint32_t cycleIndex, bool deterministic);

std::string renderProfilerMetadata(const ProfilerConfig& config, const std::string& traceId);

}  // namespace ascendsim
