#pragma once
// The run's device tasks as CANN's AscendTask table holds them: what msprof reads for the DB TASK
// table and for task_time_{ts}.csv. Every task has a stream, a task id, a context id and the
// AscendTask type (the host task type, or the SQE type of an FFTS+ context):
//   - a kernel: KERNEL_AICORE / KERNEL_AIVEC / KERNEL_AICPU without a context; MIX_AIC / MIX_AIV
//     with context 0 (MIX kernels are FFTS+ tasks), as the e5a31957 Level1 DB's TASK rows show;
//   - a collective: its FFTS+ task on the HCCL stream (type AI_CORE, no context: the sample's TASK
//     row) and, at Level1/2 (HCCL trace), each HCCL task as a context of it, typed by its SQE
//     (SDMA, Write Value, Notify Wait);
//   - a host<->device copy: MEMCPY_ASYNC without a context (the e5a31957 Level1 DB has 24);
//   - a stream event: EVENT_RECORD / EVENT_WAIT without a context (that DB has 16 and 10).
#include <cstdint>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// UINT32_MAX: the context id of a task that is not an FFTS+ context (formats.md §2.4).
inline constexpr std::uint32_t kNoContextId = 4294967295u;

// The AscendTask type of a collective's own FFTS+ task (e5a31957 Level0/1/2 DB, TASK on stream 4).
inline constexpr const char* kCollectiveAscendTaskType = "AI_CORE";
// The AscendTask type of an aclrtMemcpy(Async) copy, and the SQE type trace_view shows for it
// (e5a31957 Level1 trace_view: "Task Type": "PCIE_DMA_SQE").
inline constexpr const char* kMemcpyAscendTaskType = "MEMCPY_ASYNC";
inline constexpr const char* kMemcpySqeType = "PCIE_DMA_SQE";

// A runtime task that is neither a kernel nor a collective: a host<->device copy or a stream
// event. trace_view names it by its AscendTask type and shows its SQE type as "Task Type"
// (e5a31957 Level0/1/2: MEMCPY_ASYNC / PCIE_DMA_SQE, EVENT_RECORD / EVENT_RECORD_SQE,
// EVENT_WAIT / EVENT_WAIT_SQE); the DB TASK table has the AscendTask type.
struct RuntimeTask {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t streamId = 0;
    std::uint32_t taskId = 0;
    std::uint64_t correlationId = 0;  // the AscendCL call's connection id
    const char* ascendType = "";
    const char* sqeType = "";
    // Exactly one is set: the record the task comes from.
    const MemcpyTaskRecord* memcpy = nullptr;
    const StreamEventTaskRecord* event = nullptr;
};

// The run's copies and event tasks, by start time (ties: copies first).
std::vector<RuntimeTask> runtimeTasksOf(const RunRecord& run);

// The AscendTask type of a kernel: "KERNEL_AICORE", "KERNEL_AIVEC", "MIX_AIC", "MIX_AIV",
// "KERNEL_AICPU".
const char* kernelAscendTaskType(TaskType type);

// 0 for MIX kernels (one FFTS+ context), kNoContextId otherwise.
std::uint32_t kernelContextId(TaskType type);

struct AscendTask {
    std::uint64_t startNs = 0;  // simulated time
    std::uint64_t endNs = 0;
    std::uint32_t streamId = 0;
    std::uint32_t taskId = 0;
    std::uint32_t contextId = kNoContextId;
    const char* ascendType = "";
    // Exactly one of kernel / collective / memcpy / event is set; hcclTask is set for a
    // collective's contexts.
    const KernelRecord* kernel = nullptr;
    const CommunicationOpRecord* collective = nullptr;
    const MemcpyTaskRecord* memcpy = nullptr;
    const StreamEventTaskRecord* event = nullptr;
    const HcclTask* hcclTask = nullptr;
};

// Every device task of the run, by start time (ties: kernels, then each collective's own task
// before its contexts, contexts in issue order, then copies and event tasks). HCCL contexts only at Level1/2; nothing at
// Level_none or without NPU activity.
std::vector<AscendTask> ascendTasksOf(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
