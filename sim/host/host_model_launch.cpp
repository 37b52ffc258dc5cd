// HostModel: allocating op outputs, enqueuing the NPU op, and blocking synchronizes.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/host/host_call_costs.h"
#include "sim/host/host_costs.h"
#include "sim/host/host_model.h"
#include "sim/host/host_step_state.h"

namespace ascendsim {

using namespace host_costs;

void HostModel::launch(StepState& state, const std::vector<OpRef>& ops, std::int64_t launchRecord,
                       std::uint32_t threadId, bool afterSibling) {
    const ProfilerConfig& cfg = options_.profiler;
    const std::uint64_t stackCost =
        (recordCpu_ && cfg.withStack && threadId == mainThreadId_) ? kStackCaptureNs : 0;
    const std::size_t opCount = state.step->ops.size();
    // A native op allocates all its outputs before it enqueues anything (the real
    // aten::convolution_backward: three empty_tensor, then its NPU ops).
    for (const auto& [op, opIndex] : ops) {
        const std::uint32_t stream = op->kernels.empty() ? 0 : op->kernels.front().streamId;
        for (const OutputTensorSpec& output : op->outputs) {
            if (output.lastUseOpIndex >= 0 &&
                (static_cast<std::uint32_t>(output.lastUseOpIndex) < opIndex ||
                 static_cast<std::size_t>(output.lastUseOpIndex) >= opCount)) {
                throw std::invalid_argument("host model: output of op '" + op->atenName + "' (op " +
                                            std::to_string(opIndex) + ") has lastUseOpIndex " +
                                            std::to_string(output.lastUseOpIndex) +
                                            " outside [op, step end)");
            }
            if (afterSibling) nowNs_ += kCppSiblingGapNs;
            afterSibling = true;
            const std::int64_t record = openRecord("empty_tensor", threadId, launchRecord, -1, 0);
            nowNs_ += stackCost + kEmptyTensorNs / 2;
            const std::int64_t reservedBefore = memory_.ptaTotals().reserved;
            const std::uint64_t ptr =
                memory_.allocateTensor(output.bytes, stream, {nowNs_, threadId, launchRecord});
            if (memory_.ptaTotals().reserved != reservedBefore) {
                // No cached block fits: the allocator takes a fresh segment from the device.
                apis_.add(ApiLevel::Runtime, "DevMalloc", nowNs_, nowNs_ + kDeviceMallocNs,
                          threadId);
                nowNs_ += kDeviceMallocNs;
            }
            nowNs_ += kEmptyTensorNs - kEmptyTensorNs / 2;
            closeRecord(record);
            noteReserved();
            if (opIndex < state.addresses.size()) state.addresses[opIndex].push_back(ptr);
            if (output.lastUseOpIndex >= 0) {
                state.freesAfter[static_cast<std::size_t>(output.lastUseOpIndex)].push_back(
                    {ptr, output.usedOnOtherStream});
            }
        }
    }
    for (std::size_t i = 0; i < ops.size();) {
        // One aclnn call launches the kernels of every op naming it (aclnnConvolutionBackward: the
        // input and the weight gradient); aclop ops (Conv2DBackpropInput, ...) are enqueued one
        // each.
        std::size_t end = i + 1;
        const std::string& npuOp = ops[i].op->npuOpName;
        while (end < ops.size() && isAclnnOp(npuOp) && ops[end].op->npuOpName == npuOp) ++end;
        if (end - i == 1) {
            enqueue(state, *ops[i].op, ops[i].index, launchRecord, threadId, afterSibling);
        } else {
            FrameworkOp combined = *ops[i].op;
            for (std::size_t k = i + 1; k < end; ++k) {
                combined.kernels.insert(combined.kernels.end(), ops[k].op->kernels.begin(),
                                        ops[k].op->kernels.end());
                combined.outputs.insert(combined.outputs.end(), ops[k].op->outputs.begin(),
                                        ops[k].op->outputs.end());
            }
            enqueue(state, combined, ops[i].index, launchRecord, threadId, afterSibling);
        }
        afterSibling = afterSibling || !ops[i].op->npuOpName.empty();
        i = end;
    }
    for (const OpRef& op : ops) {
        if (op.op->synchronizesDevice) {
            synchronizeDevice(threadId, launchRecord, op.op->readBackBytes);
            break;
        }
    }
}

void HostModel::enqueue(StepState& state, const FrameworkOp& op, std::uint32_t opIndex,
                        std::int64_t launchRecord, std::uint32_t threadId, bool afterSibling) {
    if (op.npuOpName.empty()) return;
    if (afterSibling) nowNs_ += kCppSiblingGapNs;
    const std::uint64_t stackCost =
        (recordCpu_ && options_.profiler.withStack && threadId == mainThreadId_) ? kStackCaptureNs
                                                                                 : 0;
    const OpCallState callState = preparedOps_.call(op);
    if (isAclnnOp(op.npuOpName)) {
        const std::uint64_t duration =
            host_call_costs::getWorkspaceSizeNs(callState, argumentsOf(op));
        apis_.add(ApiLevel::Acl, op.npuOpName + "GetWorkspaceSize", nowNs_, nowNs_ + duration,
                  threadId);
        nowNs_ += duration;
    }
    const std::int64_t npuRecord = openRecord(op.npuOpName, threadId, launchRecord, -1, 0);
    nowNs_ += kNpuRecordEnterNs + stackCost;
    EnqueuedOp item;
    item.op = &op;  // used only while process() runs
    item.stepNumber = state.step->stepNumber;
    item.opIndex = opIndex;
    item.queueCorrelationId = nextQueueCorrelationId_++;
    item.enqueueStartNs = nowNs_;
    // A full task queue keeps Enqueue spinning until the dequeue thread frees a slot.
    nowNs_ = std::max(nowNs_, dequeue_.ringSlotFreeAtNs());
    nowNs_ += host_call_costs::enqueueNs(dequeue_.idleAtNs() > nowNs_);
    item.callState = callState;
    item.enqueueEndNs = nowNs_;
    item.enqueueThreadId = threadId;
    item.npuRecordIndex = npuRecord;
    item.recordQueue = recordCpu_;
    item.profiledStep = state.step->profiled;
    item.computeStreamId = state.step->computeStreamId;
    dequeue_.process(item);
    if (!op.kernels.empty()) launchedSinceSync_ = true;
    nowNs_ += kNpuRecordExitNs;
    closeRecord(npuRecord);
}

void HostModel::recordCopy(const DeviceSpan& span, std::uint64_t correlationId, std::uint64_t bytes,
                           bool hostToDevice, std::uint32_t streamId) {
    MemcpyTaskRecord task;
    task.startNs = span.startNs;
    task.endNs = span.endNs;
    task.streamId = streamId;
    task.taskId = dequeue_.nextTaskId(streamId);  // numbered whether recorded or not, as kernels
    task.correlationId = correlationId;
    task.bytes = bytes;
    task.hostToDevice = hostToDevice;
    if (recordDevice_) memcpyTasks_.push_back(task);
}

void HostModel::copyInputs(StepState& state) {
    const HostStep& step = *state.step;
    // `images = images.npu(non_blocking=True)` in the loop, before the model runs.
    if (tracePython_) {
        std::vector<std::string> loopFrame;
        for (const FrameworkOp& op : step.ops) {
            if (!op.stackFrames.empty()) {
                loopFrame = {op.stackFrames.back()};
                break;
            }
        }
        nowNs_ = tracer_.enter(pythonFramesOf(loopFrame, {}, {}, options_.profiler.withStack, false),
                               nowNs_, mainThreadId_, torchCallGapNs());
    } else {
        nowNs_ += torchCallGapNs();
    }
    std::vector<std::int64_t> records;
    std::int64_t parent = state.stepRecord;
    for (const char* name : {"aten::to", "aten::_to_copy", "aten::copy_"}) {
        parent = openRecord(name, mainThreadId_, parent, -1, 0);
        records.push_back(parent);
        nowNs_ += kOpEnterNs;
    }
    const std::uint64_t callStart = nowNs_;
    nowNs_ += kMemcpyAsyncCallNs;
    const std::uint64_t connection =
        apis_.add(ApiLevel::Acl, "aclrtMemcpyAsync", callStart, nowNs_, mainThreadId_);
    const DeviceSpan span = device_.copy(step.inputCopyBytes, true, nowNs_ + kLaunchToDeviceNs);
    recordCopy(span, connection, step.inputCopyBytes, true, step.computeStreamId);
    for (auto it = records.rbegin(); it != records.rend(); ++it) {
        nowNs_ += kOpExitNs;
        closeRecord(*it);
    }
}

void HostModel::synchronizeDevice(std::uint32_t threadId, std::int64_t hostOpIndex,
                                  std::uint64_t readBackBytes) {
    const std::uint64_t callStart = nowNs_;
    // The Python thread first waits for the task queue to drain, then for the device.
    const std::uint64_t hostReady = std::max(nowNs_ + kSyncCallNs, dequeue_.idleAtNs());
    const std::uint64_t deviceIdle = device_.synchronize(hostReady);
    nowNs_ = std::max(hostReady, deviceIdle) + kSyncWakeNs;
    apis_.add(ApiLevel::Acl, "aclrtSynchronizeStreamWithTimeout", callStart, nowNs_, threadId);
    apis_.add(ApiLevel::Runtime, "StreamSynchronize", callStart + kRuntimeLaunchOffsetNs,
              nowNs_ - kAclEpilogueNs, threadId);
    if (readBackBytes > 0) {
        // The value itself: a blocking aclrtMemcpy D2H, a MEMCPY_ASYNC task on the stream.
        const std::uint64_t copyCallStart = nowNs_;
        const DeviceSpan span =
            device_.copy(readBackBytes, false, nowNs_ + kMemcpyCallNs / 2);
        nowNs_ = std::max(nowNs_ + kMemcpyCallNs, span.endNs + kMemcpyCallNs / 2);
        const std::uint64_t connection =
            apis_.add(ApiLevel::Acl, "aclrtMemcpy", copyCallStart, nowNs_, threadId);
        recordCopy(span, connection, readBackBytes, false, computeStreamId_);
    }
    memory_.releaseAwaitingBlocks({nowNs_, threadId, hostOpIndex});
    // The host slept through the device's work: the next calls of every API start cold.
    preparedOps_.coolDown();
    dequeue_.coolDown();
    noteReserved();
    launchedSinceSync_ = false;
}

}  // namespace ascendsim
