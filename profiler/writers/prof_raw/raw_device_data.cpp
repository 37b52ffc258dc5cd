#include "profiler/writers/prof_raw/raw_device_data.h"

#include <algorithm>
#include <vector>

#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/prof_raw/raw_clock.h"
#include "profiler/writers/prof_raw/raw_pmu_data.h"
#include "profiler/writers/prof_raw/raw_record_buffer.h"
#include "profiler/writers/timeline/ascend_tasks.h"

namespace ascendsim {

namespace {

constexpr std::size_t kAcsqRecordBytes = 64;
constexpr std::uint16_t kStarsMagic = 0x6BD3;  // common_func/ms_constant/number_constant.py STARS_MAGIC_NUM
constexpr std::uint16_t kFuncStart = 0b000000, kFuncEnd = 0b000001;
// SQE types (Ascend/msprof msmodel/sqe_type_map.py StarsSqeType).
constexpr std::uint16_t kSqeAiCore = 0, kSqeAiCpu = 1, kSqeAiv = 2, kSqeEventRecord = 4, kSqeEventWait = 5,
                        kSqePcieDma = 17;

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

void acsqRecord(RawRecordBuffer& out, std::uint16_t func, std::uint16_t sqe, const AscendTask& task,
                std::uint64_t sysCount) {
    const std::size_t start = out.size();
    out.u16(static_cast<std::uint16_t>(func | (sqe << 10)));
    out.u16(kStarsMagic);
    out.u16(static_cast<std::uint16_t>(task.streamId));
    out.u16(static_cast<std::uint16_t>(task.taskId));
    out.u64(sysCount);
    out.u16(0);
    // Assumed: one hardware queue per stream (acsq id = stream id), accelerator 0.
    out.u16(static_cast<std::uint16_t>((task.streamId & 127u) << 6));
    out.padTo(start, kAcsqRecordBytes);
}

}  // namespace

std::map<std::string, std::string> rawDeviceDataFiles(const RunRecord& run, const ProfilerConfig& config) {
    std::map<std::string, std::string> files;
    if (run.chip->organisation != CoreOrganisation::Split || !era2023DataSelection(config).taskScheduler) return files;
    // The scheduler logs in time order; at equal counts an end before a start.
    struct Entry {
        std::uint64_t sysCount;
        std::uint16_t func;
        const AscendTask* task;
    };
    const std::vector<AscendTask> tasks = ascendTasksOf(run, config);
    std::vector<Entry> entries;
    for (const AscendTask& task : tasks) {
        // Collectives are HCCL data (hccl_info), not written; kernels, copies and stream events are.
        if (task.kernel == nullptr && task.memcpy == nullptr && task.event == nullptr) continue;
        entries.push_back({rawSysCount(run, task.startNs), kFuncStart, &task});
        entries.push_back({rawSysCount(run, task.endNs), kFuncEnd, &task});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.sysCount != b.sysCount ? a.sysCount < b.sysCount : a.func > b.func;
    });
    RawRecordBuffer log;
    for (const Entry& e : entries) acsqRecord(log, e.func, sqeType(*e.task), *e.task, e.sysCount);
    const std::string device = std::to_string(run.deviceId);
    if (log.size() > 0) files["stars_soc.data." + device + ".slice_0"] = log.bytes();
    const std::string pmu = rawPmuRecords(run, config);
    if (!pmu.empty()) files["ffts_profile.data." + device + ".slice_0"] = pmu;
    return files;
}

}  // namespace ascendsim
