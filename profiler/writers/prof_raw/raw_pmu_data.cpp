#include "profiler/writers/prof_raw/raw_pmu_data.h"

#include <algorithm>
#include <vector>

#include "profiler/metrics/metric_catalog.h"
#include "profiler/metrics/task_metrics.h"
#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/prof_raw/raw_clock.h"
#include "profiler/writers/prof_raw/raw_layouts.h"

namespace ascendsim {

namespace {

constexpr std::uint16_t kFftsTypeAic = 0;            // NORMAL_TASK
constexpr std::uint16_t kFftsTypeAiv = 2;            // assumed: the AIV SQE type (raw_pmu_data.h)

void contextRecord(RawRecordBuffer& out, const RunRecord& run, const KernelRecord& k, CoreSide side,
                   const std::vector<PmuEvent>& events, std::uint16_t counter) {
    const SideCounters counters = sideCounters(k.device, *run.chip, side);
    RawContextPmu r;
    r.counter = counter;
    r.streamId = static_cast<std::uint16_t>(k.device.streamId);
    r.taskId = static_cast<std::uint16_t>(k.taskId);
    r.fftsType = side == CoreSide::Aiv ? kFftsTypeAiv : kFftsTypeAic;
    r.totalCycles = counters.counters.totalCycles;
    for (std::size_t i = 0; i < r.pmu.size() && i < events.size(); ++i) r.pmu[i] = counters.counters[events[i]];
    r.start = rawSysCount(run, k.device.startNs);
    r.end = rawSysCount(run, k.device.endNs);
    encodeRaw(r, out);
}

}  // namespace

std::string rawPmuRecords(const RunRecord& run, const ProfilerConfig& config) {
    const AicMetrics group = config.effectiveAicMetrics();
    if (run.chip->organisation != CoreOrganisation::Split || group == AicMetrics::None ||
        !era2023DataSelection(config).taskScheduler)
        return {};
    const std::vector<PmuEvent> aicEvents = profiledEvents(group, CoreSide::Aic);
    const std::vector<PmuEvent> aivEvents = profiledEvents(group, CoreSide::Aiv);
    std::vector<const KernelRecord*> kernels;
    for (const KernelRecord& k : run.kernels) {
        const TaskType type = k.device.type;
        if (type == TaskType::AiCore || type == TaskType::AiVectorCore) kernels.push_back(&k);
    }
    std::stable_sort(kernels.begin(), kernels.end(), [](const KernelRecord* a, const KernelRecord* b) {
        return a->device.endNs < b->device.endNs;
    });
    RawRecordBuffer out;
    std::uint16_t counter = 0;
    for (const KernelRecord* k : kernels) {
        const bool vector = k->device.type == TaskType::AiVectorCore;
        contextRecord(out, run, *k, vector ? CoreSide::Aiv : CoreSide::Aic, vector ? aivEvents : aicEvents, counter++);
    }
    return out.bytes();
}

}  // namespace ascendsim
