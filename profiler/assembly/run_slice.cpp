#include "profiler/assembly/run_slice.h"

#include <algorithm>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace ascendsim {

namespace {

bool inside(const TimeWindow& w, std::uint64_t t) { return t >= w.startNs && t <= w.endNs; }

// An element of the record being sliced: moved out of it when the caller gives the record up
// (a rank's only cycle: the whole record, ~100 000 kernels and APIs, is not copied again).
template <bool Take, typename T>
decltype(auto) passOn(T& item) {
    if constexpr (Take) return std::move(item);
    else return static_cast<const T&>(item);
}

template <bool Take, typename Items, typename TimeOf>
auto keepInside(Items& items, const TimeWindow& w, TimeOf timeOf) {
    std::vector<typename std::remove_const_t<Items>::value_type> kept;
    for (auto& item : items)
        if (inside(w, timeOf(item))) kept.push_back(passOn<Take>(item));
    return kept;
}

}  // namespace

TimeWindow cycleWindow(const RunRecord& run, const ProfilingCycle& cycle) {
    if (cycle.wholeRun) {
        std::uint64_t end = run.endNs;
        for (const auto& op : run.hostOps) end = std::max(end, op.endNs);
        for (const auto& k : run.kernels) end = std::max(end, k.device.endNs);
        for (const auto& c : run.communicationOps) end = std::max(end, c.endNs);
        return {0, end};
    }
    TimeWindow w{UINT64_MAX, 0};
    for (const auto& s : run.steps) {
        if (!std::binary_search(cycle.recordedSteps.begin(), cycle.recordedSteps.end(), s.stepNumber)) continue;
        w.startNs = std::min(w.startNs, s.startNs);
        w.endNs = std::max(w.endNs, s.endNs);
    }
    if (w.startNs > w.endNs) w = {0, 0};
    return w;
}

namespace {

// Run: const RunRecord (copy the elements) or RunRecord with Take (move them).
template <bool Take, typename Run>
RunRecord sliceRecord(Run& run, const ProfilingCycle& cycle) {
    const TimeWindow w = cycleWindow(run, cycle);
    RunRecord out;
    out.chip = run.chip;
    out.workloadName = run.workloadName;
    out.deviceId = run.deviceId;
    out.rankId = run.rankId;
    out.epochNs = run.epochNs;
    out.utcOffsetSeconds = run.utcOffsetSeconds;
    out.processId = run.processId;
    out.mainThreadId = run.mainThreadId;
    out.hostName = run.hostName;
    out.distributed = run.distributed;

    std::unordered_map<std::int64_t, std::int64_t> opIndex;  // old → new
    for (std::size_t i = 0; i < run.hostOps.size(); ++i) {
        if (!inside(w, run.hostOps[i].startNs)) continue;
        opIndex[static_cast<std::int64_t>(i)] = static_cast<std::int64_t>(out.hostOps.size());
        out.hostOps.push_back(passOn<Take>(run.hostOps[i]));
    }
    auto remap = [&opIndex](std::int64_t old) {
        const auto it = opIndex.find(old);
        return it == opIndex.end() ? std::int64_t{-1} : it->second;
    };
    for (auto& op : out.hostOps) op.parent = remap(op.parent);

    for (const auto& s : run.steps)
        if (cycle.wholeRun || std::binary_search(cycle.recordedSteps.begin(), cycle.recordedSteps.end(), s.stepNumber))
            out.steps.push_back(s);

    std::uint64_t end = w.endNs;
    for (auto& k : run.kernels) {
        const bool launchedInside = k.hostOpIndex >= 0 ? opIndex.contains(k.hostOpIndex) : inside(w, k.device.startNs);
        if (!launchedInside) continue;
        end = std::max(end, k.device.endNs);
        KernelRecord copy = passOn<Take>(k);
        copy.hostOpIndex = copy.hostOpIndex >= 0 ? remap(copy.hostOpIndex) : -1;
        out.kernels.push_back(std::move(copy));
    }
    for (auto& c : run.communicationOps) {
        const bool launchedInside =
            c.hostOpIndex >= 0 ? opIndex.contains(c.hostOpIndex) : inside(w, c.startNs);
        if (!launchedInside) continue;
        end = std::max(end, c.endNs);
        CommunicationOpRecord copy = passOn<Take>(c);
        copy.hostOpIndex = copy.hostOpIndex >= 0 ? remap(copy.hostOpIndex) : -1;
        out.communicationOps.push_back(std::move(copy));
    }
    out.memcpyTasks = keepInside<Take>(run.memcpyTasks, w, [](const MemcpyTaskRecord& m) { return m.startNs; });
    for (const auto& m : out.memcpyTasks) end = std::max(end, m.endNs);
    out.eventTasks = keepInside<Take>(run.eventTasks, w, [](const StreamEventTaskRecord& e) { return e.startNs; });
    for (const auto& e : out.eventTasks) end = std::max(end, e.endNs);
    out.apis = keepInside<Take>(run.apis, w, [](const ApiRecord& a) { return a.startNs; });
    out.taskQueue = keepInside<Take>(run.taskQueue, w, [](const TaskQueueRecord& q) { return q.enqueueStartNs; });
    out.memoryEvents = keepInside<Take>(run.memoryEvents, w, [](const MemoryEventRecord& m) { return m.timeNs; });
    for (auto& m : out.memoryEvents) m.hostOpIndex = m.hostOpIndex >= 0 ? remap(m.hostOpIndex) : -1;
    out.geMemory = keepInside<Take>(run.geMemory, w, [](const GeMemorySample& g) { return g.timeNs; });
    out.geOpMemory = keepInside<Take>(run.geOpMemory, w, [](const GeOpMemoryRecord& g) { return g.allocationNs; });
    out.appMemory = keepInside<Take>(run.appMemory, w, [](const AppMemorySample& a) { return a.timeNs; });
    out.moduleMemory = keepInside<Take>(run.moduleMemory, w, [](const ModuleMemorySample& m) { return m.timeNs; });
    out.pythonCalls = keepInside<Take>(run.pythonCalls, w, [](const PythonCallRecord& p) { return p.startNs; });
    out.mstxEvents = keepInside<Take>(run.mstxEvents, w, [](const MstxEventRecord& m) { return m.startNs; });
    out.hardwareSamples =
        keepInside<Take>(run.hardwareSamples, w, [](const HardwareTrafficSample& h) { return h.timeNs; });
    out.endNs = cycle.wholeRun ? std::max(run.endNs, end) : end;
    return out;
}

}  // namespace

RunRecord sliceRunRecord(const RunRecord& run, const ProfilingCycle& cycle) { return sliceRecord<false>(run, cycle); }

RunRecord sliceRunRecord(RunRecord&& run, const ProfilingCycle& cycle) { return sliceRecord<true>(run, cycle); }

}  // namespace ascendsim
