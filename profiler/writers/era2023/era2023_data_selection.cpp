#include "profiler/writers/era2023/era2023_data_selection.h"

namespace ascendsim {

Era2023DataSelection era2023DataSelection(const ProfilerConfig& config) {
    Era2023DataSelection s;
    s.l2Cache = config.l2Cache;
    if (!config.e2e) {
        // torch_npu.profiler: AI CPU data at Level2 (formats.md §1.6: Level2 = Level1|RUNTIME_API|AICPU).
        s.aiCpu = config.level == ProfilerLevel::Level2;
        return s;
    }
    const AclProfFlags& f = config.e2e->flags;
    s.apiLayer = f.aclApi;
    s.taskScheduler = f.taskTime;
    s.aiCpu = f.aicpu;
    s.l2Cache = f.l2cache;
    s.hccl = f.hcclTrace;
    s.stepTrace = f.trainingTrace;
    return s;
}

}  // namespace ascendsim
