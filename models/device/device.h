#pragma once
// The simulated chip as one object: AI cores (split AIC/AIV or coupled), AI CPUs, the task
// scheduler and the shared memory system, built from a ChipConfig as SystemC modules.
// Must be constructed inside a fresh SystemC context (see FreshSimulationContext).
#include <cstdint>
#include <memory>

#include "models/chip/chip_config.h"
#include "models/task/kernel_task.h"
#include "models/task/task_result.h"

namespace ascendsim {

class Device {
public:
    Device(const ChipConfig& chip, TaskObserver& observer);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    // Queues `task` on its stream; the scheduler starts it no earlier than `submitNs` and after
    // the stream's previous task has finished. Tasks may be submitted for future times.
    void submit(KernelTask task, std::uint64_t submitNs);

    // Runs the simulation until every submitted task has finished; returns the simulated time
    // (ns) at which the device became idle.
    std::uint64_t runUntilIdle();

    std::uint64_t nowNs() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace ascendsim
