#include "sim/engine/device/device_timeline.h"

#include <algorithm>
#include <string>

namespace ascendsim {

DeviceTimeline timelineOf(std::vector<TaskResult> resultsInSubmissionOrder, DeviceStats stats,
                          std::uint64_t blocksSubmitted) {
    DeviceTimeline timeline;
    timeline.stats = stats;
    timeline.blocksSubmitted = blocksSubmitted;
    std::unordered_map<std::uint32_t, std::uint64_t> streamEndNs;
    timeline.kernels.reserve(resultsInSubmissionOrder.size());
    for (TaskResult& r : resultsInSubmissionOrder) {
        std::uint64_t& streamEnd = streamEndNs[r.streamId];
        const std::uint64_t ready = std::max(r.submitNs, streamEnd);
        streamEnd = r.endNs;
        timeline.kernels.push_back({std::move(r), ready});
    }
    return timeline;
}

TaskResult TimelineReplay::next(std::uint64_t userTag, std::uint32_t streamId, std::uint64_t submitNs) {
    if (next_ >= timeline_.kernels.size())
        throw std::logic_error("the replayed run submits more kernels than its timeline holds (" +
                               std::to_string(timeline_.kernels.size()) + ")");
    const DeviceTimeline::Kernel& old = timeline_.kernels[next_++];
    if (old.result.userTag != userTag || old.result.streamId != streamId)
        throw std::logic_error("the replayed run's kernel " + std::to_string(next_ - 1) +
                               " is not the timeline's (another program or stream order)");
    std::uint64_t& streamEnd = streamEndNs_[streamId];
    const std::uint64_t ready = std::max(submitNs, streamEnd);
    // Every time of the kernel moves by ready - old.readyNs (either sign).
    const auto shift = [&](std::uint64_t t) { return t - old.readyNs + ready; };
    TaskResult r = old.result;
    r.submitNs = submitNs;
    r.startNs = shift(r.startNs);
    r.endNs = shift(r.endNs);
    for (BlockResult& b : r.blocks) {
        b.startNs = shift(b.startNs);
        b.endNs = shift(b.endNs);
    }
    streamEnd = r.endNs;
    idleNs_ = std::max(idleNs_, r.endNs);
    return r;
}

}  // namespace ascendsim
