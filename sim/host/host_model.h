#pragma once
// The host side of a torch_npu run: the Python thread dispatching framework ops (nested torch op
// records, sequence numbers, Python frames), the autograd thread running backward ops, the PTA
// task queue and its dequeue thread launching kernels through CANN (AscendCL/Node/Runtime APIs),
// the caching/workspace allocators and the CANN memory views. The device is only seen through
// DeviceQueue: launches are submitted with host timestamps, and synchronize() blocks the host
// until the device is idle, so host and device overlap as on hardware.
//
// Usage: construct, runStep() for every step in order, finish() once.
#include <cstdint>
#include <memory>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "sim/host/api_log.h"
#include "sim/host/dequeue_thread.h"
#include "sim/host/device_memory_sampler.h"
#include "sim/host/device_queue.h"
#include "sim/host/framework_op.h"
#include "sim/host/host_memory.h"
#include "sim/host/mstx_recorder.h"
#include "sim/host/op_call_tree.h"
#include "sim/host/op_preparation_cache.h"
#include "sim/host/python_tracer.h"

namespace ascendsim {

struct HostModelOptions {
    ProfilerConfig profiler;
    std::uint32_t deviceId = 0;
    std::uint32_t processId = 0;
    // Thread ids; 0 = derived from processId (main = pid, autograd = pid + 8292, dequeue =
    // pid + 3539, the offsets of the real Level2 sample's threads).
    std::uint32_t mainThreadId = 0;
    std::uint32_t backwardThreadId = 0;
    std::uint32_t dequeueThreadId = 0;
    bool hcclEnabled = false;        // the process holds HCCL buffers (distributed run)
    std::uint64_t startNs = 0;       // host time of the first step
    std::int64_t firstSequenceNumber = 0;
};

struct HostStepResult {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    // Device address of every output tensor, per op (same order as FrameworkOp::outputs).
    std::vector<std::vector<std::uint64_t>> outputAddresses;
};

class HostModel {
public:
    HostModel(const HostModelOptions& options, DeviceQueue& device);

    // Simulates one step. Throws std::invalid_argument for an inconsistent step (a tensor freed
    // before it exists, a backward op without a forward op).
    HostStepResult runStep(const HostStep& step);

    // Closes open Python frames, samples CANN memory, and moves every host record into `record`
    // (hostOps, steps, apis, taskQueue, memory, pythonCalls; ids, pid and thread ids).
    void finish(RunRecord& record);

    std::uint64_t hostNowNs() const { return nowNs_; }
    const std::vector<PendingLaunch>& launches() const { return dequeue_.launches(); }
    const HostMemory& memory() const { return memory_; }
    std::uint32_t mainThreadId() const { return mainThreadId_; }
    std::uint32_t backwardThreadId() const { return backwardThreadId_; }
    std::uint32_t dequeueThreadId() const { return dequeue_.threadId(); }

private:
    struct StepState;

    struct OpRef {
        const FrameworkOp* op;
        std::uint32_t index;  // in the step
    };
    // The ops of one torch-level call (torchCallLength): a forward op, or an autograd node call.
    void runCall(StepState& state, const std::vector<OpRef>& call);
    // Allocates the outputs of `ops`, then enqueues their NPU ops (one call per run of ops naming
    // the same aclnn op: aclnnConvolutionBackward launches both gradient kernels).
    // afterSibling: the launch record already holds a record, so the first one opened here
    // follows a sibling (kCppSiblingGapNs).
    void launch(StepState& state, const std::vector<OpRef>& ops, std::int64_t launchRecord,
                std::uint32_t threadId, bool afterSibling);
    void enqueue(StepState& state, const FrameworkOp& op, std::uint32_t opIndex,
                 std::int64_t launchRecord, std::uint32_t threadId, bool afterSibling);
    // readBackBytes > 0: then copies that many bytes back (loss.item()'s aclrtMemcpy D2H).
    void synchronizeDevice(std::uint32_t threadId, std::int64_t hostOpIndex,
                           std::uint64_t readBackBytes = 0);
    // The input batch's H2D copy at the start of a step (aten::to > _to_copy > copy_).
    void copyInputs(StepState& state);
    void recordCopy(const DeviceSpan& span, std::uint64_t correlationId, std::uint64_t bytes,
                    bool hostToDevice, std::uint32_t streamId);

    std::int64_t openRecord(const std::string& name, std::uint32_t threadId, std::int64_t parent,
                            std::int64_t sequenceNumber, std::uint32_t forwardThreadId);
    void closeRecord(std::int64_t index);
    std::uint64_t recordEnterNs(std::uint32_t inputTensors) const;
    // The Python between two torch calls on the main thread (more with the tracer's hooks).
    std::uint64_t torchCallGapNs() const;
    void noteReserved();

    HostModelOptions options_;
    DeviceQueue& device_;
    std::uint32_t mainThreadId_;
    std::uint32_t backwardThreadId_;

    ApiLog apis_;
    DeviceMemorySampler deviceMemory_;
    HostMemory memory_;
    DequeueThread dequeue_;
    OpPreparationCache preparedOps_;
    std::vector<HostOpRecord> hostOps_;
    std::vector<StepRecord> steps_;
    std::vector<PythonCallRecord> pythonCalls_;
    std::vector<MemcpyTaskRecord> memcpyTasks_;
    PythonTracer tracer_;
    MstxRecorder mstx_;

    std::uint64_t nowNs_;
    std::int64_t nextSequenceNumber_;
    std::uint64_t nextQueueCorrelationId_ = 1;
    bool launchedSinceSync_ = false;
    bool anyStepRun_ = false;
    bool finished_ = false;

    // Per-step recording switches.
    bool recordCpu_ = false;
    bool recordMemory_ = false;
    bool tracePython_ = false;
    bool recordDevice_ = false;  // the step's device tasks are collected (NPU activity, a level)
    std::uint32_t computeStreamId_ = 0;
};

}  // namespace ascendsim
