// DequeueThread: launching a collective (FrameworkOp::collective) the way torch_npu's
// ProcessGroupHCCL does on the dequeue thread (sim/host/hccl_host_costs.h), with the stream
// events that order it against the compute stream.
#include "sim/host/dequeue_thread.h"

#include <vector>

#include "sim/host/hccl_host_costs.h"
#include "sim/host/host_costs.h"

namespace ascendsim {

using namespace hccl_host_costs;

std::uint64_t DequeueThread::streamEvent(const StreamEventLaunch& event, std::uint64_t startNs,
                                         const EventCallCost& cost) {
    const std::uint64_t connection = apis_.add(
        ApiLevel::Acl, event.wait ? "aclrtStreamWaitEvent" : "aclrtRecordEvent", startNs, startNs + cost.callNs, threadId_);
    const std::uint64_t runtimeStart = startNs + cost.runtimeOffsetNs;
    const std::uint64_t runtimeEnd = runtimeStart + cost.runtimeNs;
    apis_.add(ApiLevel::Runtime, event.wait ? "StreamWaitEvent" : "EventRecord", runtimeStart, runtimeEnd, threadId_);
    const DeviceSpan span = device_.streamEvent(event, runtimeEnd + host_costs::kLaunchToDeviceNs);
    StreamEventTaskRecord task;
    task.kind = event.wait ? StreamEventKind::Wait : StreamEventKind::Record;
    task.startNs = span.startNs;
    task.endNs = span.endNs;
    task.streamId = event.streamId;
    task.taskId = nextTaskId(event.streamId);  // numbered whether recorded or not, as kernels
    task.correlationId = connection;
    // The device tasks of a step are collected when its AscendCL calls are (NPU activity, a level).
    if (apis_.collects(ApiLevel::Acl)) eventTasks_.push_back(task);
    return startNs + cost.callNs;
}

std::uint64_t DequeueThread::launchCollective(const EnqueuedOp& item, std::uint64_t startNs) {
    const FrameworkOp& op = *item.op;
    const KernelLaunchSpec& kernel = op.kernels.front();
    // The compute stream records that the input (the gradient) is ready; the HCCL stream waits
    // for that event before the collective.
    const std::uint64_t inputReady = nextEventId_++;
    streamEvent({false, item.computeStreamId, inputReady}, startNs, kInputRecordEvent);
    std::uint64_t t = startNs + kRecordToStreamWaitNs;
    streamEvent({true, kernel.streamId, inputReady}, t, kStreamWaitEvent);
    t += kWaitEventToHcomNs;

    const std::uint64_t hcomEnd = t + kHcomPrepareNs + kLaunchFftsNs + kHcomAfterLaunchNs;
    apis_.add(ApiLevel::Acl, kernel.kernelName, t, hcomEnd, threadId_);
    const std::uint64_t correlationId = apis_.add(ApiLevel::Node, "launch", t, hcomEnd, threadId_);
    const std::uint64_t fftsStart = t + kHcomPrepareNs;
    apis_.add(ApiLevel::Communication, "Launch_Ffts", fftsStart, fftsStart + kLaunchFftsNs,
              threadId_);
    const std::uint64_t taskLaunchEnd = fftsStart + kFftsTaskLaunchOffsetNs + kFftsTaskLaunchNs;
    apis_.add(ApiLevel::Runtime, "FftsPlusTaskLaunch", fftsStart + kFftsTaskLaunchOffsetNs,
              taskLaunchEnd, threadId_);

    submitLaunch(item, 0, correlationId, taskLaunchEnd + host_costs::kLaunchToDeviceNs);

    // The HCCL stream records two events after the op; the compute stream waits on the first
    // before it uses the result (waitForCollectives).
    t = hcomEnd + kHcomToRecordEventNs;
    for (std::size_t i = 0; i < 2; ++i) {
        if (i > 0) t += kRecordEventGapNs;
        const std::uint64_t event = nextEventId_++;
        if (i == 0) unwaitedResults_.push_back({event, op.resultFirstUseOpIndex});
        t = streamEvent({false, kernel.streamId, event}, t, kResultRecordEvents[i]);
    }
    return t;
}

std::uint64_t DequeueThread::waitForCollectives(const EnqueuedOp& item, std::uint64_t startNs) {
    const bool optimizer = item.op->phase == OpPhase::Optimizer;
    auto due = [&](const UnwaitedResult& result) {
        return optimizer || (result.firstUseOpIndex >= 0 &&
                             static_cast<std::uint32_t>(result.firstUseOpIndex) <= item.opIndex);
    };
    std::uint64_t t = startNs;
    bool waited = false;
    for (const UnwaitedResult& result : unwaitedResults_) {
        if (!due(result)) continue;
        if (waited) t += kResultWaitGapNs;
        t = streamEvent({true, item.computeStreamId, result.eventId}, t, kStreamWaitEvent);
        waited = true;
    }
    std::erase_if(unwaitedResults_, due);
    return waited ? t + kResultWaitGapNs : startNs;
}

}  // namespace ascendsim
