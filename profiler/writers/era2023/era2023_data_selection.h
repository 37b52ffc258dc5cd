#pragma once
// Which data a 2023-era collection holds. The torch_npu.profiler path collects everything its
// level selects; an E2E collection (ProfilerConfig::e2e) holds what its profileConfig flags
// select, each flag adding or removing exactly its data (CANN 7.0 torch_npu.npu.profileConfig
// page, ptaoplist_000507; the msprof timeline areas of the CANN 6.3.RC2 msprof*.json page):
//
//   ACL_PROF_ACL_API        the AscendCL (CANN API) process of the timeline
//   ACL_PROF_TASK_TIME      the Task Scheduler process, op_summary, op_statistic, task_time
//   ACL_PROF_AICORE_METRICS the op_summary metric columns of aiCoreMetricsType (applyE2eProfile)
//   ACL_PROF_AICPU          aicpu_{s}.csv (AI CPU task start/end data)
//   ACL_PROF_L2CACHE        l2_cache_{s}.csv
//   ACL_PROF_HCCL_TRACE     the HCCL process and analyze/communication*.json
//   ACL_PROF_TRAINING_TRACE step_trace_{s}.csv / .json
#include "profiler/config/profiler_config.h"

namespace ascendsim {

struct Era2023DataSelection {
    bool apiLayer = true;
    bool taskScheduler = true;
    bool aiCpu = false;
    bool l2Cache = false;
    bool hccl = true;
    bool stepTrace = true;
};

Era2023DataSelection era2023DataSelection(const ProfilerConfig& config);

}  // namespace ascendsim
