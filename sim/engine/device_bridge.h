#pragma once
// Connects the host model to the SystemC device: each PendingLaunch becomes a KernelTask built
// from the lowered kernel its tag names; synchronize runs the device until idle. Finished tasks
// are kept (by task id) for the run record.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/device/device.h"
#include "sim/engine/lowered_workload.h"
#include "sim/host/device_queue.h"

namespace ascendsim {

class DeviceBridge final : public DeviceQueue, public TaskObserver {
public:
    DeviceBridge(const ChipConfig& chip, const LoweredWorkload& lowered);

    void submit(const PendingLaunch& launch, std::uint64_t submitNs) override;
    std::uint64_t synchronize(std::uint64_t hostNowNs) override;
    void onTaskFinished(const TaskResult& result) override;

    // The device result of a launch, by the global task id the bridge gave it.
    const TaskResult* resultOf(std::uint64_t deviceTaskId) const;
    // Global device task id of each submitted launch, in submission order.
    const std::vector<std::uint64_t>& submittedTaskIds() const { return submittedTaskIds_; }
    std::uint64_t instructionsSubmittedBlocks() const { return blocksSubmitted_; }
    // What the device model executed so far (instructions, core cycles), for benchmarks.
    DeviceStats deviceStats() const { return device_.stats(); }
    // The device memory's traffic by time, for the sampled hardware counters (null: none).
    const TrafficSampler* deviceTraffic() const { return device_.traffic(); }

private:
    const LoweredWorkload& lowered_;
    Device device_;
    std::uint64_t nextTaskId_ = 1;
    std::uint64_t blocksSubmitted_ = 0;
    std::vector<std::uint64_t> submittedTaskIds_;
    std::unordered_map<std::uint64_t, TaskResult> results_;
};

}  // namespace ascendsim
