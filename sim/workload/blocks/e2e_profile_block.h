#pragma once
// The workload's `e2e_profile:` block: torch_npu's E2E profiling (issue 14; docs/e2e-profiling.md)
//
//   e2e_profile:
//     use_e2e_profiler: true          # false: CANN data only, no framework data
//     profiler_result_path: ./result
//     steps: [11]                      # profiled steps (1-based, consecutive); absent: every step
//     config:                          # torch_npu.npu.profileConfig(...)
//       ACL_PROF_ACL_API: true
//       ACL_PROF_TASK_TIME: true
//       ACL_PROF_AICORE_METRICS: true
//       ACL_PROF_AICPU: true
//       ACL_PROF_L2CACHE: false
//       ACL_PROF_HCCL_TRACE: true
//       ACL_PROF_TRAINING_TRACE: false
//       aiCoreMetricsType: 1           # 0-5 or 0xFF
//
// and the CLI spellings --e2e, --acl-prof FLAG=BOOL,... and --aicore-metrics-type N.
#include <cstdint>
#include <string>
#include <string_view>

#include "profiler/config/profiler_config.h"
#include "sim/workload/yaml_reader.h"

namespace ascendsim {

// Reads the block; `steps` is the workload's step count (profiled steps must exist).
E2eProfile readE2eProfileBlock(const YamlReader& reader, const YAML::Node& node, std::uint32_t steps);

// Sets one profileConfig flag by its ACL_PROF_* name; false for an unknown name.
bool setAclProfFlag(AclProfFlags& flags, std::string_view name, bool value);

// The accepted flag names, for error messages: "ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ...".
std::string aclProfFlagNames();

// Applies "FLAG=BOOL,FLAG=BOOL" (--acl-prof). Throws WorkloadError naming --acl-prof.
void applyAclProfOption(const std::string& text, AclProfFlags& flags);

// Points the profiler configuration at the E2E collection: the 2023 era, Level1 (task time with
// the AI Core metrics of aiCoreMetricsType when ACL_PROF_AICORE_METRICS is on), L2 cache per its
// flag, CPU activity only with use_e2e_profiler, the schedule of the profiled steps.
void applyE2eProfile(const E2eProfile& e2e, ProfilerConfig& config);

}  // namespace ascendsim
