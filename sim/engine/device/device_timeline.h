#pragma once
// A stage's device timeline, kept to re-time the stage cheaply (sim/engine/cluster/cluster_run.h):
// every kernel the run submitted, in submission order, with its device result and when it became
// ready (its submission, or its stream's previous kernel's end). Another run of the same program
// with other collective release times (a pipeline stage waiting longer for its p2p partner)
// submits the same kernels in the same order on the same streams: only their ready times move.
// TimelineReplay gives each one the duration, and the lag between ready and start, that the
// simulated device gave it, instead of simulating it again.
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "models/device/device.h"
#include "models/task/task_result.h"

namespace ascendsim {

struct DeviceTimeline {
    struct Kernel {
        TaskResult result;
        std::uint64_t readyNs = 0;  // max(its submission, its stream's previous kernel's end)
    };
    std::vector<Kernel> kernels;  // in submission order
    DeviceStats stats;            // what simulating them took (benchmarks, the run report)
    std::uint64_t blocksSubmitted = 0;
};

// Builds the timeline of a finished run from its results in submission order.
DeviceTimeline timelineOf(std::vector<TaskResult> resultsInSubmissionOrder, DeviceStats stats,
                          std::uint64_t blocksSubmitted);

// Re-times a timeline's kernels for new submission times (DeviceBridge in replay mode).
class TimelineReplay {
  public:
    explicit TimelineReplay(const DeviceTimeline& timeline) : timeline_(timeline) {}

    // The next kernel, submitted at submitNs with `userTag` on `streamId`: its result, shifted to
    // start as long after its new ready time as it started after its old one. Throws
    // std::logic_error when the run submits other kernels than the timeline's.
    TaskResult next(std::uint64_t userTag, std::uint32_t streamId, std::uint64_t submitNs);
    // When the last replayed kernel ends (0: none yet).
    std::uint64_t idleNs() const { return idleNs_; }
    // Every kernel of the timeline was replayed.
    bool finished() const { return next_ == timeline_.kernels.size(); }

  private:
    const DeviceTimeline& timeline_;
    std::size_t next_ = 0;
    std::unordered_map<std::uint32_t, std::uint64_t> streamEndNs_;
    std::uint64_t idleNs_ = 0;
};

}  // namespace ascendsim
