#include "sim/host/device_memory_sampler.h"

#include <algorithm>

namespace ascendsim {


void DeviceMemorySampler::note(std::vector<Step>& history, std::uint64_t timeNs, std::int64_t value) {
    if (!history.empty() && history.back().value == value) return;
    history.push_back({timeNs, value});
}

void DeviceMemorySampler::notePtaReserved(std::uint64_t timeNs, std::int64_t reservedBytes) {
    note(ptaReserved_, timeNs, reservedBytes);
}

void DeviceMemorySampler::noteWorkspaceReserved(std::uint64_t timeNs, std::int64_t reservedBytes) {
    note(workspaceReserved_, timeNs, reservedBytes);
}

std::int64_t DeviceMemorySampler::frameworkReservedAt(std::uint64_t timeNs) const {
    return valueAt(ptaReserved_, timeNs) + valueAt(workspaceReserved_, timeNs);
}

void DeviceMemorySampler::geBuffer(const std::string& name, std::int64_t bytes, std::uint64_t allocNs,
                                   std::uint64_t releaseNs) {
    GeOpMemoryRecord op;
    op.name = name;
    op.sizeBytes = bytes;
    op.allocationNs = allocNs;
    op.durationNs = releaseNs - allocNs;
    geOps_.push_back(op);
    geEvents_.push_back({allocNs, bytes, geOps_.size() - 1, recording_});
    geEvents_.push_back({releaseNs, -bytes, geOps_.size() - 1, recording_});
}

void DeviceMemorySampler::addCollectionWindow(std::uint64_t startNs, std::uint64_t endNs) {
    ascendsim::addCollectionWindow(windows_, startNs, endNs);
}

std::int64_t DeviceMemorySampler::valueAt(const std::vector<Step>& history, std::uint64_t timeNs) {
    auto it = std::upper_bound(history.begin(), history.end(), timeNs,
                               [](std::uint64_t t, const Step& s) { return t < s.timeNs; });
    return it == history.begin() ? 0 : std::prev(it)->value;
}

std::vector<std::uint64_t> DeviceMemorySampler::sampleTimes() const {
    std::vector<std::uint64_t> times;
    for (const auto& [start, end] : windows_) {
        for (std::uint64_t t = start; t <= end; t += DeviceMemoryConstants::kSamplePeriodNs) {
            times.push_back(t);
        }
    }
    return times;
}

void DeviceMemorySampler::finish(RunRecord& record) {
    // GE: replay alloc/free in time order (stable: an alloc and a free at the same ns keep their
    // program order); the pool grows in pages and never shrinks.
    std::stable_sort(geEvents_.begin(), geEvents_.end(),
                     [](const GeEvent& a, const GeEvent& b) { return a.timeNs < b.timeNs; });
    std::int64_t allocated = 0, reserved = 0;
    for (const auto& event : geEvents_) {
        allocated += event.delta;
        const std::int64_t pages = (allocated + DeviceMemoryConstants::kGePageBytes - 1) /
                                   DeviceMemoryConstants::kGePageBytes;
        reserved = std::max(reserved, pages * DeviceMemoryConstants::kGePageBytes);
        geReserved_.push_back({event.timeNs, reserved});
        GeOpMemoryRecord& op = geOps_[event.opRecord];
        if (event.delta > 0) {
            op.allocationTotalAllocated = allocated;
            op.allocationTotalReserved = reserved;
        } else {
            op.releaseTotalAllocated = allocated;
            op.releaseTotalReserved = reserved;
        }
        if (event.recorded) record.geMemory.push_back({event.timeNs, allocated, reserved});
    }
    for (const auto& event : geEvents_) {
        if (event.recorded && event.delta > 0) record.geOpMemory.push_back(geOps_[event.opRecord]);
    }

    const auto times = sampleTimes();
    const std::int64_t hccl = hcclEnabled_ ? DeviceMemoryConstants::kHcclReservedBytes : 0;
    for (const std::uint64_t t : times) {
        const std::int64_t app = frameworkReservedAt(t);
        const std::int64_t ge = valueAt(geReserved_, t);
        const std::int64_t modules = app + ge + hccl + DeviceMemoryConstants::kRuntimeReservedBytes +
                                     DeviceMemoryConstants::kSlogReservedBytes;
        // CANN samples the process's device memory in whole KB (npu_mem memory(KB), the trace's
        // APP/HBM "KB": 2160232.0 in the e5a31957 sample).
        const std::int64_t appBytes = modules + DeviceMemoryConstants::kProcessContextBytes;
        record.appMemory.push_back({t, appBytes / 1024 * 1024});
    }
    // npu_module_mem is sorted by (module id, time) by CANN; emit it in that order.
    for (const auto& module : cannModuleNames()) {
        for (const std::uint64_t t : times) {
            std::int64_t bytes = 0;
            if (module == "APP") bytes = frameworkReservedAt(t);
            else if (module == "GE") bytes = valueAt(geReserved_, t);
            else if (module == "HCCL") bytes = hccl;
            else if (module == "RUNTIME") bytes = DeviceMemoryConstants::kRuntimeReservedBytes;
            else if (module == "SLOG") bytes = DeviceMemoryConstants::kSlogReservedBytes;
            record.moduleMemory.push_back({module, t, bytes});
        }
    }
}

}  // namespace ascendsim
