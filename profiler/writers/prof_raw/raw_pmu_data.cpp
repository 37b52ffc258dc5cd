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

bool isMix(TaskType type) { return type == TaskType::MixAic || type == TaskType::MixAiv; }

// The side a task's context record reports: a MIX task's main side, or the side it runs on.
CoreSide mainSide(TaskType type) {
    return type == TaskType::AiVectorCore || type == TaskType::MixAiv ? CoreSide::Aiv : CoreSide::Aic;
}

void fillCounts(RawFftsPmu& r, const PmuCounters& counters, const std::vector<PmuEvent>& events) {
    r.totalCycles = counters.totalCycles;
    for (std::size_t i = 0; i < r.pmu.size() && i < events.size(); ++i) r.pmu[i] = counters[events[i]];
}

RawFftsPmu taskIds(const KernelRecord& k) {
    RawFftsPmu r;
    r.streamId = static_cast<std::uint16_t>(k.device.streamId);
    r.taskId = static_cast<std::uint16_t>(k.taskId);
    if (isMix(k.device.type)) {
        r.fftsType = RawFftsPmu::kFftsPlus;
        r.subtaskType = k.device.type == TaskType::MixAic ? RawFftsPmu::kSubtaskMixAic : RawFftsPmu::kSubtaskMixAiv;
        r.subtaskId = 0;  // GE's context id of a MIX kernel (msprof's default ids "4294967295,0")
    } else {
        r.fftsType = mainSide(k.device.type) == CoreSide::Aiv ? RawFftsPmu::kFftsAiv : RawFftsPmu::kFftsNormal;
    }
    return r;
}

// One block's share of a MIX task's second side: its counters, core and times.
struct BlockShare {
    PmuCounters counters;
    std::uint32_t coreId = 0, blockId = 0, subBlockId = 0;
    std::uint64_t startNs = 0, endNs = 0;
};

// The second side's blocks, one per block of the task's mix block dim (msprof groups that many
// block records per context record, ffts_pmu_calculator.py get_group_size_list). The run's own
// blocks when it kept one per mix block; otherwise the side's sums split evenly (assumed).
std::vector<BlockShare> secondSideBlocks(const KernelRecord& k, const ChipConfig& chip, CoreSide side) {
    const TaskResult& t = k.device;
    std::vector<BlockShare> shares;
    for (const BlockResult& b : t.blocks)
        if (blockOnSide(b, side)) shares.push_back({b.counters, b.coreId, b.blockIdx, b.subBlockIdx, b.startNs, b.endNs});
    if (shares.size() == t.mixBlockDim) return shares;
    shares.assign(t.mixBlockDim, BlockShare{});
    const PmuCounters sum = sideCounters(t, chip, side).counters;
    const std::uint64_t n = t.mixBlockDim;
    for (std::uint32_t i = 0; i < t.mixBlockDim; ++i) {
        BlockShare& s = shares[i];
        s.coreId = s.blockId = i;
        s.startNs = t.startNs, s.endNs = t.endNs;
        s.counters.totalCycles = sum.totalCycles / n + (i < sum.totalCycles % n ? 1 : 0);
        for (std::size_t e = 0; e < sum.counts.size(); ++e)
            s.counters.counts[e] = sum.counts[e] / n + (i < sum.counts[e] % n ? 1 : 0);
    }
    return shares;
}

// The 910A's records (aicore.data): one per AI Core task of the coupled cores.
std::string aicoreRecords(const RunRecord& run, const std::vector<const KernelRecord*>& kernels,
                          const std::vector<PmuEvent>& events) {
    RawRecordBuffer out;
    std::uint8_t counter = 0;
    for (const KernelRecord* k : kernels) {
        const SideCounters counters = sideCounters(k->device, *run.chip, CoreSide::Coupled);
        RawAicPmu r;
        r.counter = counter;
        counter = static_cast<std::uint8_t>((counter + 1) % 16);
        r.taskId = static_cast<std::uint16_t>(k->taskId);
        r.streamId = k->device.streamId;
        r.totalCycles = counters.counters.totalCycles;
        for (std::size_t i = 0; i < r.pmu.size() && i < events.size(); ++i) r.pmu[i] = counters.counters[events[i]];
        encodeRaw(r, out);
    }
    return out.bytes();
}

}  // namespace

RawPmuFile rawPmuRecords(const RunRecord& run, const ProfilerConfig& config) {
    const AicMetrics group = config.effectiveAicMetrics();
    if (group == AicMetrics::None || !era2023DataSelection(config).taskScheduler) return {};
    const bool split = run.chip->organisation == CoreOrganisation::Split;
    std::vector<const KernelRecord*> kernels;
    for (const KernelRecord& k : run.kernels) {
        const TaskType type = k.device.type;
        if (type == TaskType::AiCore || (split && type != TaskType::AiCpu)) kernels.push_back(&k);
    }
    // Reported at each task's end.
    std::stable_sort(kernels.begin(), kernels.end(), [](const KernelRecord* a, const KernelRecord* b) {
        return a->device.endNs < b->device.endNs;
    });
    if (!split) return {"aicore.data", aicoreRecords(run, kernels, profiledEvents(group, CoreSide::Coupled))};
    const std::vector<PmuEvent> aicEvents = profiledEvents(group, CoreSide::Aic);
    const std::vector<PmuEvent> aivEvents = profiledEvents(group, CoreSide::Aiv);
    RawRecordBuffer out;
    std::uint16_t counter = 0;
    for (const KernelRecord* k : kernels) {
        const CoreSide main = mainSide(k->device.type);
        if (isMix(k->device.type)) {
            // The second side's blocks report their own records before the task ends.
            const CoreSide second = main == CoreSide::Aic ? CoreSide::Aiv : CoreSide::Aic;
            for (const BlockShare& b : secondSideBlocks(*k, *run.chip, second)) {
                RawFftsPmu r = taskIds(*k);
                r.func = RawFftsPmu::kFuncBlock;
                r.counter = counter++;
                r.coreType = second == CoreSide::Aiv ? RawFftsPmu::kCoreAiv : RawFftsPmu::kCoreAic;
                r.coreId = static_cast<std::uint8_t>(b.coreId);
                r.blockId = static_cast<std::uint16_t>(b.blockId);
                r.subBlockId = static_cast<std::uint16_t>(b.subBlockId);
                fillCounts(r, b.counters, second == CoreSide::Aiv ? aivEvents : aicEvents);
                r.start = rawSysCount(run, b.startNs);
                r.end = rawSysCount(run, b.endNs);
                encodeRaw(r, out);
            }
        }
        RawFftsPmu r = taskIds(*k);
        r.counter = counter++;
        fillCounts(r, sideCounters(k->device, *run.chip, main).counters, main == CoreSide::Aiv ? aivEvents : aicEvents);
        r.start = rawSysCount(run, k->device.startNs);
        r.end = rawSysCount(run, k->device.endNs);
        encodeRaw(r, out);
    }
    return {"ffts_profile.data", out.bytes()};
}

}  // namespace ascendsim
