#include "sim/host/dequeue_thread.h"

#include <algorithm>

#include "sim/host/host_costs.h"

namespace ascendsim {

using namespace host_costs;

bool isAclnnOp(const std::string& npuOpName) { return npuOpName.rfind("aclnn", 0) == 0; }

DequeueThread::DequeueThread(DeviceQueue& device, ApiLog& apis, DeviceMemorySampler& geMemory,
                             std::uint32_t threadId)
    : device_(device), apis_(apis), geMemory_(geMemory), threadId_(threadId) {}

std::uint32_t DequeueThread::nextTaskId(std::uint32_t streamId) {
    std::uint32_t& last = lastTaskId_[streamId];
    last = last + 1 >= kTaskIdLimit ? 1 : last + 1;
    return last;
}

void DequeueThread::process(const EnqueuedOp& item) {
    const FrameworkOp& op = *item.op;
    const bool aclnn = isAclnnOp(op.npuOpName);
    const std::uint64_t dequeueStart =
        std::max(item.enqueueEndNs + kDequeueWakeNs, idleAtNs_ == 0 ? 0 : idleAtNs_ + kDequeueGapNs);
    const std::uint64_t aclStart = dequeueStart + kDequeueToAclNs;
    // The ACL execute call gets its connection id before the launches inside it (the real trace
    // numbers AscendCL@aclnnInplaceRelu 998, its Node@launch 999, the runtime calls 1000-1001).
    const std::string aclName = aclnn ? op.npuOpName : std::string("aclopCompileAndExecute");
    const std::size_t aclRecord = apis_.records().size();
    const bool aclRecorded = apis_.collects(ApiLevel::Acl);
    apis_.add(ApiLevel::Acl, aclName, aclStart, aclStart, threadId_);

    std::uint64_t t = aclStart + kAclPrologueNs + (aclnn ? 0 : kAclopCompileLookupNs);
    struct GeBuffer {
        std::string name;
        std::int64_t bytes;
        std::uint64_t allocNs;
    };
    std::vector<GeBuffer> geBuffers;
    for (std::uint32_t k = 0; k < op.kernels.size(); ++k) {
        const KernelLaunchSpec& kernel = op.kernels[k];
        if (k > 0) t += kInterLaunchGapNs;
        const std::uint64_t nodeStart = t;
        const bool queriesOverflow = aclnn && k == 0;
        const std::uint64_t overflowStart = nodeStart + kOverflowQueryOffsetNs;
        const std::uint64_t runtimeStart = queriesOverflow
                                               ? overflowStart + kOverflowQueryNs + kOverflowQueryToLaunchNs
                                               : nodeStart + kRuntimeLaunchOffsetNs;
        const std::uint64_t runtimeEnd = runtimeStart + kRuntimeLaunchNs;
        const std::uint64_t nodeEnd = runtimeEnd + (kNodeLaunchNs - kRuntimeLaunchOffsetNs - kRuntimeLaunchNs);
        const std::uint64_t correlationId =
            apis_.add(ApiLevel::Node, "launch", nodeStart, nodeEnd, threadId_);
        if (queriesOverflow) {
            apis_.add(ApiLevel::Runtime, "CtxGetOverflowAddr", overflowStart, overflowStart + kOverflowQueryNs,
                      threadId_);
        }
        apis_.add(ApiLevel::Runtime, "KernelLaunchWithHandle", runtimeStart, runtimeEnd, threadId_);

        PendingLaunch launch;
        launch.kernelName = kernel.kernelName;
        launch.userTag = kernel.userTag;
        launch.stepNumber = item.stepNumber;
        launch.opIndex = item.opIndex;
        launch.kernelIndex = k;
        launch.streamId = kernel.streamId;
        launch.taskId = nextTaskId(kernel.streamId);
        launch.correlationId = correlationId;
        launch.queueCorrelationId = item.queueCorrelationId;
        launch.hostOpIndex = item.npuRecordIndex;
        device_.submit(launch, runtimeEnd + kLaunchToDeviceNs);
        launches_.push_back(std::move(launch));

        // The aclop path runs through GE, which holds each kernel's scratch in its own allocator
        // from the launch until the execute call returns.
        if (!aclnn && kernel.workspaceBytes > 0) {
            geBuffers.push_back({kernel.kernelName, static_cast<std::int64_t>(kernel.workspaceBytes),
                                 nodeStart});
        }
        t = nodeEnd;
    }
    const std::uint64_t aclEnd = t + kAclEpilogueNs;
    if (aclRecorded) apis_.records()[aclRecord].endNs = aclEnd;
    for (const auto& buffer : geBuffers) geMemory_.geBuffer(buffer.name, buffer.bytes, buffer.allocNs, aclEnd);
    const std::uint64_t dequeueEnd = aclEnd + kAclToDequeueEndNs;
    idleAtNs_ = dequeueEnd;

    if (item.recordQueue) {
        TaskQueueRecord record;
        record.opName = op.npuOpName;
        record.correlationId = item.queueCorrelationId;
        record.enqueueStartNs = item.enqueueStartNs;
        record.enqueueEndNs = item.enqueueEndNs;
        record.dequeueStartNs = dequeueStart;
        record.dequeueEndNs = dequeueEnd;
        record.enqueueThreadId = item.enqueueThreadId;
        record.dequeueThreadId = threadId_;
        taskQueue_.push_back(std::move(record));
    }
}

}  // namespace ascendsim
