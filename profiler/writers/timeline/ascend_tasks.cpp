#include "profiler/writers/timeline/ascend_tasks.h"

#include <algorithm>

#include "profiler/writers/communication/communication_timeline.h"

namespace ascendsim {

const char* kernelAscendTaskType(TaskType type) {
    switch (type) {
        case TaskType::AiCore:
            return "KERNEL_AICORE";
        case TaskType::AiVectorCore:
            return "KERNEL_AIVEC";
        case TaskType::MixAic:
            return "MIX_AIC";
        case TaskType::MixAiv:
            return "MIX_AIV";
        case TaskType::AiCpu:
            return "KERNEL_AICPU";
    }
    return "KERNEL_AICORE";
}

std::uint32_t kernelContextId(TaskType type) {
    return type == TaskType::MixAic || type == TaskType::MixAiv ? 0 : kNoContextId;
}

std::vector<AscendTask> ascendTasksOf(const RunRecord& run, const ProfilerConfig& config) {
    std::vector<AscendTask> tasks;
    if (config.level == ProfilerLevel::LevelNone || !config.activityNpu) return tasks;
    const bool hcclTrace = config.level != ProfilerLevel::Level0;
    for (const KernelRecord& kernel : run.kernels) {
        AscendTask task;
        task.startNs = kernel.device.startNs;
        task.endNs = kernel.device.endNs;
        task.streamId = kernel.device.streamId;
        task.taskId = kernel.taskId;
        task.contextId = kernelContextId(kernel.device.type);
        task.ascendType = kernelAscendTaskType(kernel.device.type);
        task.kernel = &kernel;
        tasks.push_back(task);
    }
    for (const CommunicationOpRecord& op : run.communicationOps) {
        AscendTask own;
        own.startNs = op.startNs;
        own.endNs = op.endNs;
        own.streamId = op.streamId;
        own.taskId = op.taskId;
        own.ascendType = kCollectiveAscendTaskType;
        own.collective = &op;
        tasks.push_back(own);
        if (!hcclTrace) continue;
        for (const HcclTask& hccl : op.tasks) {
            AscendTask context = own;
            context.startNs = op.startNs + hccl.startNs;
            context.endNs = context.startNs + hccl.durationNs;
            context.contextId = hccl.contextId;
            context.ascendType = hcclSqeTypeName(hccl.kind);
            context.hcclTask = &hccl;
            tasks.push_back(context);
        }
    }
    for (const MemcpyTaskRecord& copy : run.memcpyTasks) {
        AscendTask task;
        task.startNs = copy.startNs;
        task.endNs = copy.endNs;
        task.streamId = copy.streamId;
        task.taskId = copy.taskId;
        task.ascendType = kMemcpyAscendTaskType;
        task.memcpy = &copy;
        tasks.push_back(task);
    }
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const AscendTask& a, const AscendTask& b) { return a.startNs < b.startNs; });
    return tasks;
}

}  // namespace ascendsim
