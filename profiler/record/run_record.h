#pragma once
// The typed record of one simulated run (DESIGN.md "Recorder"): everything the profiler writers
// need, and nothing formatted. Times are simulated nanoseconds since the start of the run; the
// writers add `epochNs` (wall-clock ns at simulated time 0, UTC) to print absolute timestamps.
//
// Producers: the engine (device tasks from models/ TaskResult, kernel naming), the host model
// (framework ops, API calls, task queue, memory). Consumers: profiler/ writers only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/collective/hccl_task.h"
#include "models/task/task_result.h"

namespace ascendsim {

// How a kernel_details row describes one tensor (formats.md §3.1).
struct TensorDescription {
    std::string shape;   // "32,3,224,224" (the writer adds the quoting CANN uses)
    std::string dtype;   // "FLOAT16", "FLOAT", "INT32", ... as op_summary spells them
    std::string format;  // "NCHW", "ND", "FRACTAL_NZ", "NC1HWC0"
};

// One device task (kernel) with its framework context.
struct KernelRecord {
    TaskResult device;                // times, block dims, per-block PMU counters
    std::string name;                 // kernel (op) name, e.g. "aclnnConvolution_Conv2D_Conv2D"
    std::string opType;               // "Conv2D"
    std::uint32_t taskId = 0;         // per-stream task id as the runtime numbers them
    std::uint64_t correlationId = 0;  // = the launching Node@launch API's connection id
    std::int64_t hostOpIndex = -1;    // index into RunRecord::hostOps of the launching torch op
    std::vector<TensorDescription> inputs;
    std::vector<TensorDescription> outputs;
    bool hf32Eligible = false;
};

// A copy between host and device memory on a stream (aclrtMemcpyAsync / aclrtMemcpy): the
// runtime's MEMCPY_ASYNC task, a PCIe DMA (the input batch's H2D copy, loss.item()'s D2H read).
struct MemcpyTaskRecord {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t streamId = 0;
    std::uint32_t taskId = 0;         // per-stream task id, from the same counter as the kernels'
    std::uint64_t correlationId = 0;  // the AscendCL memcpy API's connection id
    std::uint64_t bytes = 0;
    bool hostToDevice = true;
};

// A stream synchronisation task (aclrtRecordEvent / aclrtStreamWaitEvent): the runtime's
// EVENT_RECORD task marks a point of its stream; EVENT_WAIT holds its stream until the event it
// names was recorded, so it lasts the wait. torch_npu's ProcessGroupHCCL makes them around each
// collective (the compute stream records, the HCCL stream waits; the HCCL stream records twice
// after the op, the compute stream waits before it uses the result).
enum class StreamEventKind : std::uint8_t { Record, Wait };

struct StreamEventTaskRecord {
    StreamEventKind kind = StreamEventKind::Record;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t streamId = 0;
    std::uint32_t taskId = 0;         // per-stream task id, from the same counter as the kernels'
    std::uint64_t correlationId = 0;  // the AscendCL event API's connection id
};

// A framework (torch) op as torch_npu records it (FRAMEWORK/torch.op_range).
struct HostOpRecord {
    std::string name;                 // "aten::conv2d", "ProfilerStep#3"
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t threadId = 0;
    std::int64_t sequenceNumber = -1;
    std::uint32_t forwardThreadId = 0;
    std::int64_t parent = -1;         // index of the enclosing op, -1 at top level
    std::string inputDims;            // record_shapes: "[32, 3, 224, 224];[64, 3, 7, 7]"
    std::string inputTypes;           // record_shapes: "float;float"
    std::string callStack;            // with_stack: frames joined by ";" (innermost first)
    std::string moduleHierarchy;      // with_modules: "nn.Module: ResNet_0/nn.Module: Conv2d_1"
    std::int64_t flops = -1;          // with_flops, -1 when unknown
};

// CANN host API levels as msprof names them (formats.md §3.9, §4.2).
enum class ApiLevel : std::uint8_t { Acl, Model, Node, Communication, Runtime };

// One host API call: AscendCL@aclnnAdd, Runtime@rtKernelLaunch, Node@launch, ...
struct ApiRecord {
    ApiLevel level = ApiLevel::Acl;
    std::string name;                 // without the "Level@" prefix
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t threadId = 0;
    std::uint64_t connectionId = 0;   // Node@launch: equals the kernel's correlationId
};

// The PTA task queue (torch_npu "Enqueue"/"Dequeue" with an async_task_queue flow).
struct TaskQueueRecord {
    std::string opName;               // the torch op that was enqueued
    std::uint64_t correlationId = 0;
    std::uint64_t enqueueStartNs = 0, enqueueEndNs = 0;
    std::uint64_t dequeueStartNs = 0, dequeueEndNs = 0;
    std::uint32_t enqueueThreadId = 0;
    std::uint32_t dequeueThreadId = 0;
};

// One caching-allocator event (FRAMEWORK/torch.memory_usage), totals after the event.
enum class MemoryComponent : std::uint8_t { PtaCaching = 0, Workspace = 1 };
enum class MemoryEventKind : std::uint8_t { Malloc = 0, Free = 1, BlockFree = 2 };

struct MemoryEventRecord {
    std::uint64_t ptr = 0;
    std::uint64_t timeNs = 0;
    std::int64_t allocSize = 0;       // bytes; negative on free
    std::int64_t totalAllocated = 0;
    std::int64_t totalReserved = 0;
    std::int64_t totalActive = 0;
    std::uint64_t streamPtr = 0;
    MemoryComponent component = MemoryComponent::PtaCaching;
    MemoryEventKind kind = MemoryEventKind::Malloc;
    std::uint32_t threadId = 0;
    std::int64_t hostOpIndex = -1;    // the op that caused it (operator_memory Name)
};

// GE (CANN graph engine) allocator totals and per-op allocations (memory_record "GE" rows,
// operator_memory "cann::" rows).
struct GeMemorySample {
    std::uint64_t timeNs = 0;
    std::int64_t totalAllocatedBytes = 0;
    std::int64_t totalReservedBytes = 0;
};
struct GeOpMemoryRecord {
    std::string name;                 // without the "cann::" prefix
    std::int64_t sizeBytes = 0;
    std::uint64_t allocationNs = 0;
    std::uint64_t durationNs = 0;
    std::int64_t allocationTotalAllocated = 0, allocationTotalReserved = 0;
    std::int64_t releaseTotalAllocated = 0, releaseTotalReserved = 0;
};

// Whole-process device memory (npu_mem "APP") and per-module reservations (npu_module_mem).
struct AppMemorySample {
    std::uint64_t timeNs = 0;
    std::int64_t bytes = 0;
};
struct ModuleMemorySample {
    std::string component;            // "SLOG", "APP", "HCCL", "RUNTIME", ...
    std::uint64_t timeNs = 0;
    std::int64_t reservedBytes = 0;
};

// A Python-level function call (with_stack / with_modules python tracer).
struct PythonCallRecord {
    std::string name;                 // "resnet.py(112): forward" or "nn.Module: Bottleneck_3"
    std::uint64_t startNs = 0, endNs = 0;
    std::uint32_t threadId = 0;
    std::uint64_t id = 0, parentId = 0;
    std::int64_t moduleId = -1;
};

// One interval of the sampled memory-side hardware counters (profile_memory: CANN reads the HBM
// and LLC counters every 20 ms while it collects), as the device's memory model measured them
// between the previous sample and this one. The first sample of a collection window has
// intervalNs 0 and no traffic: like CANN's first read, it only starts the series.
struct HardwareTrafficSample {
    std::uint64_t timeNs = 0;                   // end of the interval
    std::uint64_t intervalNs = 0;
    std::vector<std::uint64_t> hbmReadBytes;    // per HBM stack ("HBM <n>")
    std::vector<std::uint64_t> hbmWriteBytes;
    std::vector<std::uint64_t> llcReadHits;     // per LLC ("LLC <n>", an L2 read port), in lines
    std::vector<std::uint64_t> llcReadMisses;
    std::vector<std::uint64_t> llcReadBytes;
};

// One HCCL collective of this rank (CANN's HCCL trace; formats.md §3.10, §4.2 "Communication").
struct CommunicationOpRecord {
    std::string name;         // "hcom_allReduce__586_0_1" (kernel_details Name)
    std::string opType;       // "hcom_allReduce_" (kernel_details Type, the AscendCL API)
    std::string groupName;    // the communicator's hash, "17522688603477080586"
    std::string algorithm;    // "MESH-RING"
    std::string dataType;     // "FP32", "FP16", ... as HCCL spells it
    std::uint64_t count = 0;  // elements reduced
    std::uint32_t rankSize = 0;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint64_t correlationId = 0;  // = the launching Node@launch API's connection id
    std::int64_t hostOpIndex = -1;
    std::uint32_t streamId = 0;
    std::uint32_t taskId = 0;
    std::uint32_t indexInStep = 0;  // its number among its communicator's ops of the step
    std::vector<HcclTask> tasks;  // this rank's tasks; HcclTask::startNs is from startNs
};

// A torch_npu.npu.mstx marker as CANN's MsprofTx collects it (mstx "ex" data: mstxMarkA /
// mstxRangeStartA + mstxRangeEnd, recorded only while the profiler runs with msprof_tx=True).
// Host-only markers (no stream): a mark has startNs == endNs, a range spans its start and end
// calls. markId numbers the run's marks and ranges in call order (msprof's connection id is
// markId + 4000000001).
enum class MstxEventKind : std::uint8_t { Mark, Range };

struct MstxEventRecord {
    MstxEventKind kind = MstxEventKind::Mark;
    std::string message;
    std::string domain = "default";
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t threadId = 0;
    std::uint64_t markId = 0;
};

// A profiler step: ProfilerStep#N on the host.
struct StepRecord {
    std::uint32_t stepNumber = 0;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
};

// One process group of the rank, as Megatron-LM writes it into profiler_metadata.json's
// parallel_group_info.
struct ParallelGroupRecord {
    std::string key;   // "group_name_15"
    std::string name;  // "tp"
    std::uint32_t groupRank = 0;
    std::vector<std::uint32_t> globalRanks;
};

// Megatron-LM's distributed_args and parallel_group_info (runs with a `parallel:` block).
struct DistributedRecord {
    std::uint32_t tensorParallel = 1;
    std::uint32_t pipelineParallel = 1;
    std::uint32_t dataParallel = 1;
    std::uint32_t expertParallel = 1;
    std::uint32_t worldSize = 1;
    std::vector<ParallelGroupRecord> groups;
};

struct RunRecord {
    const ChipConfig* chip = nullptr;
    std::string workloadName;
    std::uint32_t deviceId = 0;
    std::int64_t rankId = -1;         // -1: not distributed
    std::uint64_t epochNs = 0;        // wall-clock ns (UTC epoch) at simulated time 0
    std::int64_t utcOffsetSeconds = 0;  // local time = UTC + offset (directory names are local)
    std::uint32_t processId = 0;
    std::uint32_t mainThreadId = 0;
    std::string hostName;
    std::uint64_t endNs = 0;          // end of collection (simulated)

    std::vector<HostOpRecord> hostOps;      // in start order; ProfilerStep#N ops included
    std::vector<StepRecord> steps;
    std::vector<ApiRecord> apis;
    std::vector<TaskQueueRecord> taskQueue;
    std::vector<KernelRecord> kernels;      // in device start order
    std::vector<MemcpyTaskRecord> memcpyTasks;  // in device start order
    std::vector<StreamEventTaskRecord> eventTasks;  // in device start order
    std::vector<CommunicationOpRecord> communicationOps;  // in start order
    std::optional<DistributedRecord> distributed;
    std::vector<MemoryEventRecord> memoryEvents;
    std::vector<GeMemorySample> geMemory;
    std::vector<GeOpMemoryRecord> geOpMemory;
    std::vector<AppMemorySample> appMemory;
    std::vector<ModuleMemorySample> moduleMemory;
    std::vector<PythonCallRecord> pythonCalls;
    std::vector<MstxEventRecord> mstxEvents;  // by start
    std::vector<HardwareTrafficSample> hardwareSamples;  // in time order
};

}  // namespace ascendsim
