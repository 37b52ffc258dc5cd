#include "sim/host/mstx_recorder.h"

#include <algorithm>

namespace ascendsim {

bool mstxRecorded(const ProfilerConfig& config) {
    const bool frameworkData = !config.e2e || config.e2e->useE2eProfiler;
    return config.msprofTx && config.activityNpu && frameworkData;
}

void MstxRecorder::beginStep(bool enabled, std::uint32_t threadId) {
    enabled_ = enabled;
    threadId_ = threadId;
    openRanges_.clear();
}

void MstxRecorder::fire(const std::vector<StepMarker>& markers, std::uint32_t firstOp, std::uint32_t endOp,
                        bool beforeOps, std::uint64_t nowNs) {
    if (!enabled_) return;
    for (const StepMarker& marker : markers) {
        if (marker.beforeOp != beforeOps || marker.opIndex < firstOp || marker.opIndex >= endOp) continue;
        if (marker.kind == StepMarkerKind::RangeEnd) {
            const auto open = openRanges_.find(marker.rangeSlot);
            if (open == openRanges_.end()) continue;
            events_[open->second].endNs = nowNs;
            openRanges_.erase(open);
            continue;
        }
        MstxEventRecord event;
        event.kind = marker.kind == StepMarkerKind::Mark ? MstxEventKind::Mark : MstxEventKind::Range;
        event.message = marker.message;
        event.domain = marker.domain;
        event.startNs = nowNs;
        event.endNs = nowNs;
        event.threadId = threadId_;
        event.markId = nextMarkId_++;
        if (marker.kind == StepMarkerKind::RangeStart) openRanges_[marker.rangeSlot] = events_.size();
        events_.push_back(std::move(event));
    }
}

std::vector<MstxEventRecord> MstxRecorder::take() {
    std::stable_sort(events_.begin(), events_.end(),
                     [](const MstxEventRecord& a, const MstxEventRecord& b) { return a.startNs < b.startNs; });
    return std::move(events_);
}

}  // namespace ascendsim
