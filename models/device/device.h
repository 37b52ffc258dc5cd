#pragma once
// The simulated chip as one object: AI cores (split AIC/AIV or coupled), AI CPUs, the task
// scheduler and the shared memory system, built from a ChipConfig as SystemC modules.
// Must be constructed inside a fresh SystemC context (see FreshSimulationContext).
#include <cstdint>
#include <memory>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/memory/memory_system.h"
#include "models/memory/traffic_sampler.h"
#include "models/task/kernel_task.h"
#include "models/task/task_result.h"

namespace ascendsim {

struct ConcurrentHbmWindow;  // models/memory/concurrent_hbm_traffic.h

// Work the simulation did, for throughput measurements (bench/device_throughput_bench.cpp).
struct DeviceStats {
    std::uint64_t instructions = 0;   // instructions executed by all cores
    std::uint64_t coreCycles = 0;     // sum over finished blocks of their total cycles
    std::uint64_t activations = 0;    // SystemC activations of the core processes
};

// How the simulator uses the host: not part of the simulated chip, never changes a result.
struct DeviceOptions {
    // Generate block programs on a second host thread ahead of dispatch (program_prefetcher.h).
    bool generateProgramsAhead = false;
    // Binaries (KernelTask::codeImage, codeBytes: 0 = the chip's image size) whose code is in every
    // core's ICache at start, last most recently used: a replayed kernel whose code the real
    // timeline left resident.
    struct ResidentCode {
        std::uint64_t image = 0;
        std::uint32_t codeBytes = 0;
    };
    std::vector<ResidentCode> residentCodeImages;
};

class Device {
public:
    Device(const ChipConfig& chip, TaskObserver& observer, DeviceOptions options = {});
    // Uses `memory` (which must outlive the device) instead of the chip's SharedMemorySystem:
    // for tests and what-if studies of the memory side.
    Device(const ChipConfig& chip, TaskObserver& observer, MemorySystem& memory, DeviceOptions options = {});
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    // Queues `task` on its stream; the scheduler starts it no earlier than `submitNs` and after
    // the stream's previous task has finished. Tasks may be submitted for future times.
    void submit(KernelTask task, std::uint64_t submitNs);

    // Runs the simulation until every submitted task has finished; returns the simulated time
    // (ns) at which the device became idle. Throws std::runtime_error naming the blocked cores
    // when the programs deadlock (e.g. a wait_flag whose flag is never set), and rethrows model
    // errors (buffer overflow, misalignment) raised while simulating.
    std::uint64_t runUntilIdle();

    std::uint64_t nowNs() const;
    // HBM traffic beside the device's kernels from now on (the engine's collectives' transfers,
    // docs/fidelity.md §118; SharedMemorySystem::addConcurrentTraffic). Windows on the device clock
    // (ps). Returns false, taking nothing, with an external memory system (tests, what-ifs).
    bool addConcurrentHbmTraffic(const std::vector<ConcurrentHbmWindow>& windows);
    DeviceStats stats() const;
    // The chip memory's traffic by time (sampled HBM/LLC counters); null with an external memory.
    const TrafficSampler* traffic() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace ascendsim
