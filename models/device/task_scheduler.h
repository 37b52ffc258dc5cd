#pragma once
// The device's task scheduler (hardware.md §2.1; the runtime's stream semantics): every stream
// is an in-order queue of kernel tasks. A task becomes runnable when its stream's previous task
// has finished and its submit time has passed, plus ChipConfig::taskLaunchCycles. Its blocks go
// onto free cores of the kind its type needs, in block order, in waves as cores free up; several
// streams' tasks run at once when cores are free. AI_CPU tasks run on the AI CPU cores.
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/core/ai_core.h"
#include "models/core/core_clock.h"
#include "models/core/program_prefetcher.h"
#include "models/systemc/simulation_errors.h"
#include "models/task/kernel_task.h"
#include "models/task/task_result.h"

namespace sc_core {
class sc_event;
}

namespace ascendsim {

template <typename Unit>
class SteppedProcess;

class TaskScheduler final : public CoreHost {
public:
    // `cubeCores` are AICs (split) or coupled cores; `vectorCores` are AIVs (split, AIV j of
    // group i at index i × vectorCoresPerCube + j) or standalone vector cores (310P).
    // `prefetcher` (may be null) generates the programs of submitted tasks ahead of dispatch.
    TaskScheduler(const ChipConfig& chip, std::vector<AiCore*> cubeCores, std::vector<AiCore*> vectorCores,
                  TaskObserver& observer, SimulationErrors& errors, ProgramPrefetcher* prefetcher = nullptr);
    TaskScheduler(const ChipConfig&& chip, std::vector<AiCore*> cubeCores, std::vector<AiCore*> vectorCores,
                  TaskObserver& observer, SimulationErrors& errors,
                  ProgramPrefetcher* prefetcher = nullptr) = delete;  // chip_ is a reference

    void submit(KernelTask task, std::uint64_t submitPs);
    bool idle() const { return outstanding_ == 0; }
    std::string stuckReport() const;
    std::uint64_t finishedCoreCycles() const { return finishedCoreCycles_; }

    void step();  // the SystemC process body
    void onBlockFinished(AiCore& core) override;

private:
    struct Pending {
        KernelTask task;
        std::uint64_t submitPs = 0;
    };
    struct Stream {
        std::deque<Pending> pending;
        bool busy = false;
        std::uint64_t lastEndPs = 0;
    };
    struct RunningTask {
        KernelTask task;
        TaskResult result;
        std::uint32_t nextBlock = 0;
        std::uint32_t partsRunning = 0;
        std::uint64_t aiCpuEndPs = 0;
        std::uint64_t firstDispatchPs = ~std::uint64_t{0};  // the task's start stamp
    };

    void admitReadyTasks(std::uint64_t nowPs);
    void runAiCpuTasks(std::uint64_t nowPs);
    void dispatchBlocks(std::uint64_t nowPs);
    bool dispatchOne(RunningTask& running, std::uint64_t nowPs);
    void startPart(RunningTask& running, AiCore& core, CoreKind kind, std::uint32_t subBlockIdx,
                   std::vector<AiCore*> group, std::uint32_t ownSlot, std::uint64_t nowPs);
    void finishTask(RunningTask& running, std::uint64_t nowPs);
    // The core kind a non-MIX task's blocks run on.
    CoreKind blockKindOf(TaskType type) const;
    void queueProgramsOf(const KernelTask& task);
    void wakeAt(std::uint64_t atPs);

    const ChipConfig& chip_;
    std::vector<AiCore*> cubeCores_;
    std::vector<AiCore*> vectorCores_;
    TaskObserver& observer_;
    ProgramPrefetcher* prefetcher_;
    SteppedProcess<TaskScheduler>* process_ = nullptr;  // lives with the SystemC context
    // The dispatcher runs on the AI core clock: a block's start is a whole number of its cycles
    // after the task's first dispatch, whatever that dispatch's phase (see startPart).
    CoreClock dispatchClock_;
    std::uint64_t launchPs_ = 0;
    std::map<std::uint32_t, Stream> streams_;
    std::list<std::unique_ptr<RunningTask>> running_;  // AI core tasks in start order
    std::deque<RunningTask*> aiCpuWaiting_;
    std::vector<RunningTask*> aiCpuRunning_;
    std::vector<std::uint64_t> aiCpuFreeAtPs_;
    std::size_t outstanding_ = 0;
    std::uint64_t finishedCoreCycles_ = 0;
};

}  // namespace ascendsim
