#include "profiler/writers/prof_raw/raw_device_data.h"

#include <algorithm>
#include <vector>

#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/prof_raw/raw_clock.h"
#include "profiler/writers/prof_raw/raw_l2_cache_data.h"
#include "profiler/writers/prof_raw/raw_pmu_data.h"
#include "profiler/writers/prof_raw/raw_step_trace_data.h"
#include "profiler/writers/prof_raw/raw_layouts.h"
#include "profiler/writers/timeline/ascend_tasks.h"

namespace ascendsim {

namespace {

constexpr std::uint16_t kFuncStart = RawStarsLog::kFuncStart, kFuncEnd = RawStarsLog::kFuncEnd;

bool isMixKernel(const AscendTask& task) {
    return task.kernel != nullptr &&
           (task.kernel->device.type == TaskType::MixAic || task.kernel->device.type == TaskType::MixAiv);
}

std::uint16_t sqeType(const AscendTask& task) {
    if (task.memcpy != nullptr) return kSqePcieDma;
    if (task.event != nullptr) return task.event->kind == StreamEventKind::Wait ? kSqeEventWait : kSqeEventRecord;
    if (task.kernel == nullptr) return kSqeAiCore;
    switch (task.kernel->device.type) {
        case TaskType::AiCpu: return kSqeAiCpu;
        case TaskType::AiVectorCore:
        case TaskType::MixAiv: return kSqeAiv;
        case TaskType::AiCore:
        case TaskType::MixAic: return kSqeAiCore;
    }
    return kSqeAiCore;
}

// The FFTS+ sub-task type of an HCCL task (stars_constant.py SUBTASK_TYPE: 3 Notify Wait, 5 Write
// Value, 8 SDMA; the names ascendsim's timelines give these tasks, hcclSqeTypeName).
std::uint8_t hcclSubtaskType(HcclTaskKind kind) {
    switch (kind) {
        case HcclTaskKind::NotifyWait: return RawStarsLog::kSubtaskNotifyWait;
        case HcclTaskKind::NotifyRecord: return RawStarsLog::kSubtaskWriteValue;
        case HcclTaskKind::Memcpy:
        case HcclTaskKind::ReduceInline: break;
    }
    return RawStarsLog::kSubtaskSdma;
}

// An ACSQ start or end, or for a MIX kernel's FFTS+ context, its sub-task start or end.
void starsRecord(RawRecordBuffer& out, std::uint16_t func, std::uint16_t sqe, const AscendTask& task,
                 std::uint64_t sysCount) {
    RawStarsLog r;
    r.func = func;
    r.sqeType = sqe;
    r.streamId = static_cast<std::uint16_t>(task.streamId);
    r.taskId = static_cast<std::uint16_t>(task.taskId);
    r.sysCount = sysCount;
    if (r.subtask() && task.hcclTask != nullptr) {
        r.subtaskType = hcclSubtaskType(task.hcclTask->kind);
        r.subtaskId = static_cast<std::uint16_t>(task.hcclTask->contextId);
        r.fftsType = RawFftsPmu::kFftsPlus;
    } else if (r.subtask()) {
        r.subtaskType = task.kernel->device.type == TaskType::MixAic ? RawFftsPmu::kSubtaskMixAic
                                                                     : RawFftsPmu::kSubtaskMixAiv;
        r.subtaskId = 0;  // the context id, as in the PMU records (raw_pmu_data.cpp)
        r.fftsType = RawFftsPmu::kFftsPlus;
    } else {
        r.acsqId = static_cast<std::uint16_t>(task.streamId);  // assumed: one hardware queue per stream
    }
    encodeRaw(r, out);
}

// The AI CPU scheduler's report of each AI CPU task (ACL_PROF_AICPU), by start.
std::string aicpuRecords(const RunRecord& run, const std::vector<AscendTask>& tasks) {
    RawRecordBuffer out;
    for (const AscendTask& task : tasks) {
        if (task.kernel == nullptr || task.kernel->device.type != TaskType::AiCpu) continue;
        const TaskResult& t = task.kernel->device;
        const std::uint64_t submitNs = std::min(t.submitNs, t.startNs);
        RawAicpuNode r;
        r.threadId = 0;  // assumed: the AI CPU scheduler thread is not modelled
        r.streamId = static_cast<std::uint16_t>(task.streamId);
        r.taskId = static_cast<std::uint16_t>(task.taskId);
        r.runStartUs = monotonicNs(t.startNs) / 1000;
        r.runEndUs = monotonicNs(t.endNs) / 1000;
        r.runStartTick = rawSysCount(run, t.startNs);
        r.runEndTick = rawSysCount(run, t.endNs);
        r.deviceId = run.deviceId;
        r.submitTick = rawSysCount(run, submitNs);
        r.dispatchUs = static_cast<std::uint32_t>((t.startNs - submitNs) / 1000);
        r.totalUs = static_cast<std::uint32_t>((t.endNs - submitNs) / 1000);
        encodeRaw(r, out);
    }
    return out.bytes();
}

}  // namespace

std::map<std::string, std::string> rawDeviceDataFiles(const RunRecord& run, const ProfilerConfig& config) {
    std::map<std::string, std::string> files;
    const std::string device = std::to_string(run.deviceId);
    const std::string l2Cache = rawL2CacheRecords(run, config);
    if (!l2Cache.empty()) files["l2_cache.data." + device + ".slice_0"] = l2Cache;
    const std::string steps = rawStepTraceRecords(run, config);
    if (!steps.empty()) files["ts_track.data." + device + ".slice_0"] = steps;
    if (!era2023DataSelection(config).taskScheduler) return files;
    // The scheduler logs in time order; at equal counts an end before a start.
    struct Entry {
        std::uint64_t sysCount;
        std::uint16_t func;
        const AscendTask* task;
    };
    const std::vector<AscendTask> tasks = ascendTasksOf(run, config);
    const bool stars = run.chip->organisation == CoreOrganisation::Split;
    std::vector<Entry> entries;
    for (const AscendTask& task : tasks) {
        // A collective's HCCL task is an FFTS+ context of the collective's own task: its sub-task
        // start and end (STARS chips; the 910A's HWTS log has no sub-tasks).
        if (task.hcclTask != nullptr) {
            if (!stars) continue;
            entries.push_back({rawSysCount(run, task.startNs), RawStarsLog::kFuncSubtaskStart, &task});
            entries.push_back({rawSysCount(run, task.endNs), RawStarsLog::kFuncSubtaskEnd, &task});
            continue;
        }
        // A MIX kernel runs as one FFTS+ context inside its task: the sub-task's start and end
        // sit inside the task's (ffts_plus_log.py; stable order at equal counts below).
        const bool mix = stars && isMixKernel(task);
        entries.push_back({rawSysCount(run, task.startNs), kFuncStart, &task});
        if (mix) entries.push_back({rawSysCount(run, task.startNs), RawStarsLog::kFuncSubtaskStart, &task});
        if (mix) entries.push_back({rawSysCount(run, task.endNs), RawStarsLog::kFuncSubtaskEnd, &task});
        entries.push_back({rawSysCount(run, task.endNs), kFuncEnd, &task});
    }
    const auto isEnd = [](std::uint16_t func) { return func == kFuncEnd || func == RawStarsLog::kFuncSubtaskEnd; };
    std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
        return a.sysCount != b.sysCount ? a.sysCount < b.sysCount : isEnd(a.func) && !isEnd(b.func);
    });
    RawRecordBuffer log;
    std::uint8_t counter = 0;
    for (const Entry& e : entries) {
        if (stars) {
            starsRecord(log, e.func, sqeType(*e.task), *e.task, e.sysCount);
            continue;
        }
        RawHwtsLog r;
        r.logType = e.func == kFuncStart ? RawHwtsLog::kStart : RawHwtsLog::kEnd;
        r.counter = counter;
        counter = static_cast<std::uint8_t>((counter + 1) % 16);
        r.taskType = static_cast<std::uint8_t>(sqeType(*e.task));  // assumed: the HWTS numbers tasks as the SQE does
        r.taskId = static_cast<std::uint16_t>(e.task->taskId);
        r.sysCount = e.sysCount;
        r.streamId = e.task->streamId;
        encodeRaw(r, log);
    }
    if (log.size() > 0) files[(stars ? "stars_soc.data." : "hwts.data.") + device + ".slice_0"] = log.bytes();
    if (era2023DataSelection(config).aiCpu) {
        const std::string aicpu = aicpuRecords(run, tasks);
        if (!aicpu.empty()) files["aicpu.data." + device + ".slice_0"] = aicpu;
    }
    const RawPmuFile pmu = rawPmuRecords(run, config);
    if (!pmu.bytes.empty()) files[pmu.name + "." + device + ".slice_0"] = pmu.bytes;
    return files;
}

}  // namespace ascendsim
