#pragma once
// One simulation run end to end: workload → lowering → host model ⇄ SystemC device → run record.
// Writing the profiler directories is the caller's choice (runSimulationCommand does it).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "profiler/record/run_record.h"
#include "sim/engine/ranks/collective_ops.h"
#include "sim/engine/device/core_trace.h"
#include "sim/engine/device/device_timeline.h"
#include "sim/engine/simulation_options.h"
#include "sim/workload/workload.h"

namespace ascendsim {

// What makes one rank of a cluster run differ from the others (sim/engine/cluster): a slower
// device, a later start, and when the last rank of each collective's group arrives.
struct RankVariant {
    // Its AI and vector cores run this many times slower (a throttled chip: a lower clock).
    double deviceSlowdown = 1.0;
    std::uint64_t hostStartNs = 0;  // the host's first step starts this late (host jitter)
    std::uint32_t pipelineStage = 0;  // the stage's program (a workload with a `pipeline:` block)
    std::vector<std::uint64_t> collectiveReleaseNs;  // DeviceBridge::setCollectiveReleases
    bool operator==(const RankVariant&) const = default;
};

// A rank's arrival at one collective (every collective run, profiled steps or not).
struct CollectiveArrival {
    std::string group;  // the collective's group kind ("world", "tp", "dp", ...)
    std::uint64_t arrivalNs = 0;
    CollectiveKind kind = CollectiveKind::AllReduce;
    // Point-to-point ops: the group rank this rank sends to / receives from (-1: none).
    std::int32_t sendTo = -1;
    std::int32_t recvFrom = -1;
};

struct SimulationResult {
    std::unique_ptr<ChipConfig> chip;  // RunRecord::chip points here
    Workload workload;
    RunRecord record;  // rank 0's view when the workload has ranks (recordOfRank gives the others)
    std::uint32_t ranks = 1;
    std::vector<LoweredCollective> communicationPlans;  // one per record.communicationOps entry
    std::vector<std::uint64_t> communicationWaits;      // each one's wait for its group's last rank
    std::vector<CollectiveArrival> collectiveArrivals;  // in launch order
    RankVariant variant;
    // Only `variant`, `ranks` and `collectiveArrivals` are filled: another process simulated it.
    bool arrivalsOnly = false;
    // Steps run: the workload's steps up to the last one the profiler schedule records (later
    // steps are unobservable and not simulated; all of them when none is recorded).
    std::uint32_t stepsSimulated = 0;
    std::uint64_t deviceTasks = 0;
    std::uint64_t deviceBlocks = 0;
    std::uint64_t deviceBusyNs = 0;     // Σ kernel durations over all steps
    std::uint64_t deviceInstructions = 0;  // instructions the simulated cores executed
    std::uint64_t simulatedEndNs = 0;   // host end of the last step
    double wallSeconds = 0.0;
    std::optional<CoreTrace> coreTrace;  // with SimulationOptions::coreTracePath
    // The device timeline the run simulated (DeviceRun::keepTimeline) or replayed.
    std::shared_ptr<const DeviceTimeline> deviceTimeline;
};

// How a run gets its kernels' device results.
struct DeviceRun {
    // Replay this timeline (a simulated run of the same program: the variant's stage, slowdown
    // and start) instead of simulating the device: its kernels keep their simulated durations and
    // move with their new submission times (sim/engine/device/device_timeline.h).
    std::shared_ptr<const DeviceTimeline> replay;
    bool keepTimeline = false;  // a simulated run keeps its timeline for later replays
};

// Whether a run of `workload` with `options` can be replayed from a timeline: not when it samples
// the device memory's traffic over time or traces a core's instructions (both need the device).
bool replayable(const SimulationOptions& options, const ProfilerConfig& profiler);

// Loads, validates, lowers and simulates. Throws WorkloadError / ConfigError / std::runtime_error
// with a message naming the file, line and field; nothing is written.
SimulationResult runSimulation(const SimulationOptions& options, const RankVariant& variant = {},
                               const DeviceRun& device = {});

// The options' overrides of the workload's profiler block and step count (CLI beats file).
void applyProfilerOverrides(const SimulationOptions& options, Workload& workload);

// An E2E collection (the workload's e2e_profile: block, or --e2e) writes PROF_* directly into its
// profiler_result_path, as torch_npu.npu.profile does; --output, when given, places it instead.
// Returns `options` with that folder as the output folder (errors then name
// e2e_profile.profiler_result_path). Throws WorkloadError for a bad workload.
SimulationOptions withE2eResultFolder(const SimulationOptions& options);

}  // namespace ascendsim
