#pragma once
// Connects the host model to the SystemC device: each PendingLaunch becomes a KernelTask built
// from the lowered kernel its tag names; synchronize runs the device until idle. Finished tasks
// are kept (by task id) for the run record.
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "models/device/device.h"
#include "models/core/instruction_trace.h"
#include "sim/engine/device/core_trace.h"
#include "sim/engine/device/device_timeline.h"
#include "sim/engine/device/lowered_workload.h"
#include "sim/host/device_queue.h"

namespace ascendsim {

// A collective launch as the engine timed it: this rank arrives when the host's launch arrived
// and the communication stream's earlier tasks are done (the previous collective, and the
// EVENT_WAIT for the compute stream's event that says the gradient is ready). It cannot finish before the last rank of its group arrived
// (the release time, given by the cluster run; none: this rank's own arrival), then it lasts its
// schedule's duration: an early rank's first Notify_Wait spans the wait.
struct CollectiveRun {
    std::size_t launchIndex = 0;  // in submission order (PendingLaunch order)
    std::uint64_t startNs = 0;    // this rank's arrival
    std::uint64_t waitNs = 0;     // until the group's last arrival
    std::uint64_t endNs = 0;
    const LoweredCollective* collective = nullptr;
};

class DeviceBridge final : public DeviceQueue, public TaskObserver {
public:
    DeviceBridge(const ChipConfig& chip, const LoweredWorkload& lowered, DeviceOptions options = {});
    // Replay mode: no device is simulated; each kernel gets its result from `timeline` (a run of
    // the same program), re-timed for its submission here (TimelineReplay). Collectives, copies
    // and stream events are timed as in a simulated run.
    DeviceBridge(const LoweredWorkload& lowered, const DeviceTimeline& timeline);

    void submit(const PendingLaunch& launch, std::uint64_t submitNs) override;
    std::uint64_t synchronize(std::uint64_t hostNowNs) override;
    DeviceSpan copy(std::uint64_t bytes, bool hostToDevice, std::uint64_t submitNs) override;
    DeviceSpan streamEvent(const StreamEventLaunch& event, std::uint64_t submitNs) override;
    void onTaskFinished(const TaskResult& result) override;

    // The device result of a launch, by the global task id the bridge gave it.
    const TaskResult* resultOf(std::uint64_t deviceTaskId) const;
    // Global device task id of each submitted launch, in submission order; 0 for collectives.
    const std::vector<std::uint64_t>& submittedTaskIds() const { return submittedTaskIds_; }
    const std::vector<CollectiveRun>& collectiveRuns() const { return collectives_; }
    std::uint64_t instructionsSubmittedBlocks() const { return blocksSubmitted_; }
    // What the device model executed so far (instructions, core cycles), for benchmarks.
    DeviceStats deviceStats() const;
    // The device memory's traffic by time, for the sampled hardware counters (null: none, and
    // always in replay mode).
    const TrafficSampler* deviceTraffic() const { return device_ ? device_->traffic() : nullptr; }
    // The kernels this run submitted, for replaying them with other release times. Call after the
    // run (every submitted kernel finished).
    DeviceTimeline timeline() const;
    // In replay mode, whether every kernel of the timeline was submitted again.
    bool replayFinished() const { return !replay_ || replay_->finished(); }

    // The group's last arrival at each collective, in launch order (sim/engine/cluster): a
    // collective waits for it. Collectives past the end wait for nobody.
    void setCollectiveReleases(std::vector<std::uint64_t> releaseNs) { releaseNs_ = std::move(releaseNs); }

    // Whether the collectives' transfer tasks are a background on the device's HBM (docs/fidelity.md
    // §118; default on, `--hccl-traffic off` for HBM to the kernels alone). Set before the first
    // submission. No effect in replay mode (the kernels' times come from the timeline).
    void setCollectiveHbmTraffic(bool on) { collectiveHbmTraffic_ = on; }
    // What the collectives put on HBM so far: windows, HBM bytes, and the bytes of windows before
    // the device's clock when they were placed (time the device had simulated already, which no
    // kernel is charged for; 0 when every collective's stream waits for the compute it follows).
    struct CollectiveHbmTotals {
        std::uint64_t windows = 0;
        double hbmBytes = 0.0;
        double hbmBytesAlreadySimulated = 0.0;
    };
    const CollectiveHbmTotals& collectiveHbmTotals() const { return collectiveHbm_; }

    // Records the instruction timeline of the first launch `selection` picks (--core-trace).
    void traceFirstLaunch(const CoreTraceSelection& selection) { traceSelection_ = selection; }
    // The traced launch, with its spans moved out; empty when no launch matched. Call after the
    // device has finished it.
    std::optional<CoreTrace> takeCoreTrace();

private:
    const LoweredWorkload& lowered_;
    const ChipConfig* chip_ = nullptr;  // null in replay mode
    std::unique_ptr<Device> device_;     // null in replay mode
    std::optional<TimelineReplay> replay_;  // replay mode
    DeviceStats replayedStats_;
    std::uint64_t nextTaskId_ = 1;
    std::uint64_t blocksSubmitted_ = 0;
    std::vector<std::uint64_t> submittedTaskIds_;
    std::unordered_map<std::uint64_t, TaskResult> results_;
    std::vector<CollectiveRun> collectives_;
    std::vector<std::uint64_t> releaseNs_;
    std::uint64_t collectivesEndNs_ = 0;  // when the communication stream is free
    bool collectiveHbmTraffic_ = true;
    CollectiveHbmTotals collectiveHbm_;
    // Kernels submitted after a copy or an event task on the compute stream wait for it.
    std::uint64_t computeHeldUntilNs_ = 0;
    std::uint64_t waitedCollectiveEndNs_ = 0;  // kernels submitted after a p2p or all-to-all wait for it
    std::unordered_map<std::uint64_t, std::uint64_t> eventRecordedNs_;  // by event id
    std::optional<CoreTraceSelection> traceSelection_;  // armed until a launch matches
    std::optional<CoreTrace> traced_;
    InstructionTraceRecorder traceRecorder_;
    bool tracesLaunch(const PendingLaunch& launch, const LoweredKernel& kernel) const;
    void submitCollective(const LoweredCollective& collective, std::uint64_t submitNs);
    // Gives the device's memory the HBM windows of `run`'s transfer tasks (this rank's schedule).
    void placeCollectiveHbmTraffic(const LoweredCollective& collective, const CollectiveRun& run);
    // Runs the device until everything submitted has finished; when it became idle.
    std::uint64_t deviceIdleNs();
};

}  // namespace ascendsim
