#pragma once
// What the device reports when a task finishes: times and the PMU counters of every block.
// Times are simulated nanoseconds since the start of the simulation.
#include <cstdint>
#include <vector>

#include "models/isa/pipe.h"
#include "models/pmu/pmu_event.h"
#include "models/task/kernel_task.h"

namespace ascendsim {

struct BlockResult {
    std::uint32_t blockIdx = 0;
    std::uint32_t subBlockIdx = 0;
    CoreKind coreKind = CoreKind::Cube;
    std::uint32_t coreId = 0;  // physical core index within its kind
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    PmuCounters counters;      // counters.totalCycles = cycles from block start to block end
};

struct TaskResult {
    std::uint64_t taskId = 0;
    std::uint64_t userTag = 0;
    std::uint32_t streamId = 0;
    TaskType type = TaskType::AiCore;
    std::uint32_t blockDim = 0;
    std::uint32_t mixBlockDim = 0;
    std::uint64_t submitNs = 0;  // when the host's launch reached the device queue
    std::uint64_t startNs = 0;   // first block starts
    std::uint64_t endNs = 0;     // last block ends
    std::vector<BlockResult> blocks;
    PmuCounters cubeSum;    // summed over AIC (or coupled) blocks
    PmuCounters vectorSum;  // summed over AIV (or 310P vector core) blocks
};

// Receives every finished task, in completion order. Must not touch the simulation.
class TaskObserver {
public:
    virtual ~TaskObserver() = default;
    virtual void onTaskFinished(const TaskResult& result) = 0;
};

}  // namespace ascendsim
