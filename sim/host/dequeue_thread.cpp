#include "sim/host/dequeue_thread.h"

#include <algorithm>

#include "sim/host/hccl_host_costs.h"
#include "sim/host/host_costs.h"

namespace ascendsim {

using namespace host_costs;

bool isAclnnOp(const std::string& npuOpName) { return npuOpName.rfind("aclnn", 0) == 0; }

DequeueThread::DequeueThread(DeviceQueue& device, ApiLog& apis, HostMemory& memory,
                             DeviceMemorySampler& deviceMemory, std::uint32_t threadId)
    : device_(device), apis_(apis), memory_(memory), deviceMemory_(deviceMemory), threadId_(threadId) {}

namespace {
std::map<std::uint32_t, std::uint64_t> workspacePerStream(const FrameworkOp& op) {
    std::map<std::uint32_t, std::uint64_t> perStream;
    for (const auto& kernel : op.kernels) {
        if (kernel.workspaceBytes == 0) continue;
        auto& bytes = perStream[kernel.streamId];
        bytes = std::max(bytes, kernel.workspaceBytes);
    }
    return perStream;
}
}  // namespace

std::uint64_t DequeueThread::acquireWorkspace(const EnqueuedOp& item, std::uint64_t timeNs) {
    const auto perStream = workspacePerStream(*item.op);
    std::uint64_t t = timeNs;
    for (const auto& [stream, bytes] : perStream) {
        if (!memory_.workspaceNeedsGrowth(bytes, stream)) continue;
        if (memory_.hasWorkspace(stream)) {
            // NPUWorkspaceAllocator synchronizes the device before it frees the old block.
            const std::uint64_t callStart = t;
            const std::uint64_t ready = t + kSyncCallNs;
            t = std::max(ready, device_.synchronize(ready)) + kSyncWakeNs;
            apis_.add(ApiLevel::Acl, "aclrtSynchronizeDeviceWithTimeout", callStart, t, threadId_);
            apis_.add(ApiLevel::Runtime, "DeviceSynchronize", callStart + kRuntimeLaunchOffsetNs,
                      t - kAclEpilogueNs, threadId_);
        }
        memory_.growWorkspace(bytes, stream, {t, threadId_, item.npuRecordIndex});
        deviceMemory_.noteWorkspaceReserved(t, memory_.workspaceTotals().reserved);
    }
    for (const auto& [stream, bytes] : perStream) memory_.useWorkspace(stream, {t, threadId_, item.npuRecordIndex});
    return t;
}

void DequeueThread::coolDown() {
    warmKernels_.clear();
    overflowQueryWarm_ = false;
}

std::uint64_t DequeueThread::ringSlotFreeAtNs() const {
    return inRingUntilNs_.size() < kQueueCapacity - 1 ? 0 : inRingUntilNs_.front();
}

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
    if (op.collective) {
        finishDequeue(item, dequeueStart, launchCollective(item, dequeueStart + kDequeueToAclNs));
        return;
    }
    std::uint64_t aclReady = dequeueStart + kDequeueToAclNs;
    if (!unwaitedResults_.empty()) aclReady = waitForCollectives(item, aclReady);
    const std::uint64_t aclStart = aclnn ? acquireWorkspace(item, aclReady) : aclReady;
    // The ACL execute call gets its connection id before the launches inside it (the real trace
    // numbers AscendCL@aclnnInplaceRelu 998, its Node@launch 999, the runtime calls 1000-1001).
    const std::string aclName = aclnn ? op.npuOpName : std::string("aclopCompileAndExecute");
    const std::size_t aclRecord = apis_.records().size();
    const bool aclRecorded = apis_.collects(ApiLevel::Acl);
    apis_.add(ApiLevel::Acl, aclName, aclStart, aclStart, threadId_);

    std::uint64_t t = aclStart + kAclPrologueNs + (aclnn ? 0 : kAclopCompileLookupNs) +
                      host_call_costs::coldExecuteNs(item.callState);
    // A kernel's argument block: a device address per tensor, the workspace, the tiling data.
    const std::uint32_t tensorArguments = argumentsOf(op).tensorDescriptors();
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
        const bool coldOverflowQuery = queriesOverflow && !overflowQueryWarm_;
        if (queriesOverflow) overflowQueryWarm_ = true;
        const std::uint64_t overflowStart = nodeStart + kOverflowQueryOffsetNs;
        const std::uint64_t overflowEnd =
            overflowStart + host_call_costs::overflowQueryNs(coldOverflowQuery);
        const std::uint64_t runtimeStart = queriesOverflow ? overflowEnd + kOverflowQueryToLaunchNs
                                                           : nodeStart + kRuntimeLaunchOffsetNs;
        const bool coldLaunch = warmKernels_.insert(kernel.kernelName).second;
        const std::uint32_t kernelArguments =
            tensorArguments + (kernel.workspaceBytes > 0 ? 1 : 0) + 1;
        const std::uint64_t runtimeEnd =
            runtimeStart + host_call_costs::kernelLaunchNs(coldLaunch, kernelArguments);
        const std::uint64_t nodeEnd = runtimeEnd + (kNodeLaunchNs - kRuntimeLaunchOffsetNs - kRuntimeLaunchNs);
        const std::uint64_t correlationId =
            apis_.add(ApiLevel::Node, "launch", nodeStart, nodeEnd, threadId_);
        if (queriesOverflow) {
            apis_.add(ApiLevel::Runtime, "CtxGetOverflowAddr", overflowStart, overflowEnd,
                      threadId_);
        }
        apis_.add(ApiLevel::Runtime, "KernelLaunchWithHandle", runtimeStart, runtimeEnd, threadId_);

        submitLaunch(item, k, correlationId, runtimeEnd + kLaunchToDeviceNs);

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
    for (const auto& buffer : geBuffers) deviceMemory_.geBuffer(buffer.name, buffer.bytes, buffer.allocNs, aclEnd);
    if (aclnn) {
        for (const auto& [stream, bytes] : workspacePerStream(op)) {
            memory_.endWorkspaceUse(stream, {aclEnd, threadId_, item.npuRecordIndex});
        }
    }
    finishDequeue(item, dequeueStart, aclEnd);
}

void DequeueThread::submitLaunch(const EnqueuedOp& item, std::uint32_t kernelIndex,
                                 std::uint64_t correlationId, std::uint64_t submitNs) {
    const KernelLaunchSpec& kernel = item.op->kernels[kernelIndex];
    PendingLaunch launch;
    launch.kernelName = kernel.kernelName;
    launch.userTag = kernel.userTag;
    launch.stepNumber = item.stepNumber;
    launch.opIndex = item.opIndex;
    launch.kernelIndex = kernelIndex;
    launch.streamId = kernel.streamId;
    launch.taskId = nextTaskId(kernel.streamId);
    launch.correlationId = correlationId;
    launch.queueCorrelationId = item.queueCorrelationId;
    launch.hostOpIndex = item.npuRecordIndex;
    launch.profiledStep = item.profiledStep;
    device_.submit(launch, submitNs);
    launches_.push_back(std::move(launch));
}

void DequeueThread::finishDequeue(const EnqueuedOp& item, std::uint64_t dequeueStartNs,
                                  std::uint64_t aclEndNs) {
    const std::uint64_t dequeueEnd = aclEndNs + kAclToDequeueEndNs;
    idleAtNs_ = dequeueEnd;
    inRingUntilNs_.push_back(dequeueEnd);
    if (inRingUntilNs_.size() > kQueueCapacity - 1) inRingUntilNs_.pop_front();
    if (!item.recordQueue) return;
    TaskQueueRecord record;
    record.opName = item.op->npuOpName;
    record.correlationId = item.queueCorrelationId;
    record.enqueueStartNs = item.enqueueStartNs;
    record.enqueueEndNs = item.enqueueEndNs;
    record.dequeueStartNs = dequeueStartNs;
    record.dequeueEndNs = dequeueEnd;
    record.enqueueThreadId = item.enqueueThreadId;
    record.dequeueThreadId = threadId_;
    taskQueue_.push_back(std::move(record));
}

}  // namespace ascendsim
