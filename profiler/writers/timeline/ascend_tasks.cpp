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

std::vector<RuntimeTask> runtimeTasksOf(const RunRecord& run) {
    std::vector<RuntimeTask> tasks;
    tasks.reserve(run.memcpyTasks.size() + run.eventTasks.size());
    for (const MemcpyTaskRecord& copy : run.memcpyTasks) {
        tasks.push_back({copy.startNs, copy.endNs, copy.streamId, copy.taskId, copy.correlationId,
                         kMemcpyAscendTaskType, kMemcpySqeType, &copy, nullptr});
    }
    for (const StreamEventTaskRecord& event : run.eventTasks) {
        const bool wait = event.kind == StreamEventKind::Wait;
        tasks.push_back({event.startNs, event.endNs, event.streamId, event.taskId, event.correlationId,
                         wait ? "EVENT_WAIT" : "EVENT_RECORD", wait ? "EVENT_WAIT_SQE" : "EVENT_RECORD_SQE", nullptr,
                         &event});
    }
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const RuntimeTask& a, const RuntimeTask& b) { return a.startNs < b.startNs; });
    return tasks;
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
    for (const RuntimeTask& runtime : runtimeTasksOf(run)) {
        AscendTask task;
        task.startNs = runtime.startNs;
        task.endNs = runtime.endNs;
        task.streamId = runtime.streamId;
        task.taskId = runtime.taskId;
        task.ascendType = runtime.ascendType;
        task.memcpy = runtime.memcpy;
        task.event = runtime.event;
        tasks.push_back(task);
    }
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const AscendTask& a, const AscendTask& b) { return a.startNs < b.startNs; });
    return tasks;
}

}  // namespace ascendsim
