#pragma once
// The PTA task queue's consumer thread: it takes each enqueued NPU op, calls the ACL execute API
// (aclnnXxx, or aclopCompileAndExecute on the aclop/GE path), and launches the op's kernels
// (Node@launch, with Runtime@KernelLaunchWithHandle inside). aclnn calls take the stream's
// workspace block around the execute call; a block too small for the op is replaced after a
// device synchronize, which stalls this thread (not the Python thread) until the device is idle. Each launch reaches the device queue
// kLaunchToDeviceNs after the runtime call returns. The thread runs on its own clock: it starts an
// item when the item is enqueued and the previous item is done, so it lags the Python thread when
// launches are slower than op dispatch and idles otherwise.
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "profiler/record/run_record.h"
#include "sim/host/api_log.h"
#include "sim/host/device_memory_sampler.h"
#include "sim/host/device_queue.h"
#include "sim/host/framework_op.h"
#include "sim/host/host_call_costs.h"
#include "sim/host/host_memory.h"

namespace ascendsim {

struct EnqueuedOp {
    const FrameworkOp* op = nullptr;
    std::uint32_t stepNumber = 0;
    std::uint32_t opIndex = 0;
    std::uint64_t queueCorrelationId = 0;
    std::uint64_t enqueueStartNs = 0;
    std::uint64_t enqueueEndNs = 0;
    std::uint32_t enqueueThreadId = 0;
    std::int64_t npuRecordIndex = -1;  // hostOps index of the NPU op record, -1 if not recorded
    bool recordQueue = false;          // CPU activity of a profiled step: keep the queue record
    bool profiledStep = false;         // the schedule records this step (PendingLaunch::profiledStep)
    OpCallState callState;             // what the host had cached and warm at GetWorkspaceSize
    std::uint32_t computeStreamId = 0; // the step's compute stream (the events around collectives)
};

namespace hccl_host_costs {
struct EventCallCost;
}

// True for the two-phase aclnn API (GetWorkspaceSize + execute); false for the aclop/GE path.
bool isAclnnOp(const std::string& npuOpName);

class DequeueThread {
public:
    // Task ids run 1..65535 per stream and wrap (the runtime's 16-bit task id).
    static constexpr std::uint32_t kTaskIdLimit = 65536;

    DequeueThread(DeviceQueue& device, ApiLog& apis, HostMemory& memory, DeviceMemorySampler& deviceMemory,
                  std::uint32_t threadId);

    void process(const EnqueuedOp& item);

    // torch_npu's task queue is a ring of kQueueCapacity slots (NPUQueue.cpp), one kept empty:
    // an item leaves it when its dequeue ends, and Enqueue spins while it is full.
    static constexpr std::size_t kQueueCapacity = 4096;

    // The host blocked on a device synchronize: launch paths are cold again.
    void coolDown();

    // When the thread has launched everything handed to it so far.
    std::uint64_t idleAtNs() const { return idleAtNs_; }
    // The earliest time the next item fits into the ring (0: it fits now).
    std::uint64_t ringSlotFreeAtNs() const;
    std::uint32_t threadId() const { return threadId_; }

    std::vector<TaskQueueRecord>& taskQueue() { return taskQueue_; }
    const std::vector<PendingLaunch>& launches() const { return launches_; }
    // The EVENT_RECORD / EVENT_WAIT tasks of the collected steps, in issue order.
    std::vector<StreamEventTaskRecord>& eventTasks() { return eventTasks_; }

    // The stream's next task id: kernels, and the memcpy tasks the host issues on the stream.
    std::uint32_t nextTaskId(std::uint32_t streamId);

private:
    // Takes the workspace the op's kernels need (growing blocks first); returns the time after it.
    std::uint64_t acquireWorkspace(const EnqueuedOp& item, std::uint64_t timeNs);
    // A collective's host calls and its launch on the communication stream, from `startNs`
    // (dequeue_collective.cpp); returns when the last call ends.
    std::uint64_t launchCollective(const EnqueuedOp& item, std::uint64_t startNs);
    // Before an op that reads a collective's result, the compute stream waits for that collective
    // (work.wait()); before an optimizer op, for every collective launched since the last such wait
    // (DDP's buckets). Returns when the last wait call ends (`startNs` if none is due).
    std::uint64_t waitForCollectives(const EnqueuedOp& item, std::uint64_t startNs);
    // One aclrtRecordEvent / aclrtStreamWaitEvent call from `startNs` and its device task; returns
    // when the call ends.
    std::uint64_t streamEvent(const StreamEventLaunch& event, std::uint64_t startNs,
                              const hccl_host_costs::EventCallCost& cost);
    // Hands kernel `kernelIndex` of the item's op to the device at `submitNs` and keeps the launch.
    void submitLaunch(const EnqueuedOp& item, std::uint32_t kernelIndex,
                      std::uint64_t correlationId, std::uint64_t submitNs);
    // The dequeue ends after the ACL call returns: the ring slot frees, the queue record is kept.
    void finishDequeue(const EnqueuedOp& item, std::uint64_t dequeueStartNs,
                       std::uint64_t aclEndNs);

    DeviceQueue& device_;
    ApiLog& apis_;
    HostMemory& memory_;
    DeviceMemorySampler& deviceMemory_;
    std::uint32_t threadId_;
    std::uint64_t idleAtNs_ = 0;
    std::deque<std::uint64_t> inRingUntilNs_;  // dequeue ends of the last kQueueCapacity-1 items
    std::map<std::uint32_t, std::uint32_t> lastTaskId_;
    std::set<std::string> warmKernels_;  // launched since the last device synchronize
    bool overflowQueryWarm_ = false;     // the overflow address was queried since then
    std::vector<TaskQueueRecord> taskQueue_;
    std::vector<PendingLaunch> launches_;
    std::uint64_t nextEventId_ = 1;
    // A collective's end event the compute stream has not waited on, and the op index before
    // which it must (FrameworkOp::resultFirstUseOpIndex; -1: the optimizer's wait).
    struct UnwaitedResult {
        std::uint64_t eventId = 0;
        std::int32_t firstUseOpIndex = -1;
    };
    std::vector<UnwaitedResult> unwaitedResults_;
    std::vector<StreamEventTaskRecord> eventTasks_;
};

}  // namespace ascendsim
