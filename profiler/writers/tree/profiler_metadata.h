#pragma once
// profiler_metadata.json (formats.md §1.3). Cann83: one line (json.dumps(indent=None)), the nine
// ENV_VARIABLES (text export only) and a trace_id; Cann80: the older indented form with eight
// ENV_VARIABLES and no trace_id. With db export ENV_VARIABLES lives in the DB's META_DATA, so an
// 8.0-era db-only run has an empty dict and no file, as the db samples (e5a31957, 8a264688) show;
// Era2024 samples have no metadata file at all (hasProfilerMetadata).
#include <cstdint>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

bool hasProfilerMetadata(const ProfilerConfig& config);

// {"ASCEND_GLOBAL_LOG_LEVEL": "", ...}: the variables torch_npu collects, all unset in the
// simulated process; the file's ENV_VARIABLES and the DB's META_DATA row.
OrderedJson profilerEnvironmentVariables(FormatVersion version);

// 32 uppercase hex digits. Deterministic: a 128-bit FNV-1a hash of the run's identity and the
// cycle index; otherwise random (uuid4 in torch_npu).
std::string profilerTraceId(const RunRecord& run, std::uint32_t cycleIndex, bool deterministic);

// With `distributed` (a Megatron-style run), distributed_args comes first and parallel_group_info
// after ENV_VARIABLES, as the ef63bc64 sample (MindSpeed-LLM, TP1 PP2 DP2) writes them.
std::string renderProfilerMetadata(const ProfilerConfig& config, const std::string& traceId,
                                   const std::optional<DistributedRecord>& distributed = std::nullopt,
                                   std::int64_t rank = -1);

}  // namespace ascendsim
