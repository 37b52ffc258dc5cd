#include "models/device/task_scheduler.h"

#include "models/systemc/stepped_process.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <systemc>

namespace ascendsim {

namespace {

std::uint64_t nowPs() { return sc_core::sc_time_stamp().value(); }
std::uint64_t nsOf(std::uint64_t ps) { return ps / 1000; }

bool isMix(TaskType type) { return type == TaskType::MixAic || type == TaskType::MixAiv; }

}  // namespace

TaskScheduler::TaskScheduler(const ChipConfig& chip, std::vector<AiCore*> cubeCores,
                             std::vector<AiCore*> vectorCores, TaskObserver& observer, SimulationErrors& errors,
                             ProgramPrefetcher* prefetcher)
    : chip_(chip),
      cubeCores_(std::move(cubeCores)),
      vectorCores_(std::move(vectorCores)),
      observer_(observer),
      prefetcher_(prefetcher),
      dispatchClock_(chip.aiCoreFreqMhz),
      launchPs_(dispatchClock_.psOfCycle(chip.taskLaunchCycles)),
      aiCpuFreeAtPs_(chip.aiCpu.count, 0) {
    process_ = new SteppedProcess<TaskScheduler>("task_scheduler", *this, errors);  // lives with the SystemC context
}

void TaskScheduler::submit(KernelTask task, std::uint64_t submitPs) {
    if (task.type != TaskType::AiCpu && !task.program)
        throw std::invalid_argument("task " + std::to_string(task.taskId) + " has no program factory");
    if (task.type == TaskType::AiCpu && (chip_.aiCpu.count == 0 || chip_.aiCpu.freqMhz <= 0))
        throw std::invalid_argument(chip_.name + " has no AI CPU for task " + std::to_string(task.taskId));
    if (isMix(task.type) && chip_.organisation != CoreOrganisation::Split)
        throw std::invalid_argument("MIX task " + std::to_string(task.taskId) + " needs the split organisation");
    if (prefetcher_ != nullptr) queueProgramsOf(task);
    streams_[task.streamId].pending.push_back({std::move(task), submitPs});
    ++outstanding_;
    wakeAt(submitPs);
}

CoreKind TaskScheduler::blockKindOf(TaskType type) const {
    if (type == TaskType::AiVectorCore) return CoreKind::Vector;
    return chip_.organisation == CoreOrganisation::Split ? CoreKind::Cube : CoreKind::Coupled;
}

// In dispatch order: blocks in index order, a MIX block's AIC before its AIVs (startPart).
void TaskScheduler::queueProgramsOf(const KernelTask& task) {
    if (task.type == TaskType::AiCpu) return;
    const bool mix = isMix(task.type);
    for (std::uint32_t block = 0; block < task.blockDim; ++block) {
        auto enqueue = [&](CoreKind kind, std::uint32_t subBlock) {
            prefetcher_->enqueue(task.taskId, task.program, {block, kind, subBlock, task.workspaceAddr});
        };
        enqueue(mix ? CoreKind::Cube : blockKindOf(task.type), 0);
        for (std::uint32_t j = 0; mix && j < chip_.vectorCoresPerCube; ++j) enqueue(CoreKind::Vector, j);
    }
}

void TaskScheduler::wakeAt(std::uint64_t atPs) {
    process_->notifyAt(atPs);
}

void TaskScheduler::step() {
    const std::uint64_t now = nowPs();
    admitReadyTasks(now);
    runAiCpuTasks(now);
    dispatchBlocks(now);
}

void TaskScheduler::admitReadyTasks(std::uint64_t now) {
    for (auto& [id, stream] : streams_) {
        if (stream.busy || stream.pending.empty()) continue;
        const std::uint64_t readyPs = std::max(stream.pending.front().submitPs, stream.lastEndPs) + launchPs_;
        if (readyPs > now) {
            wakeAt(readyPs);
            continue;
        }
        auto running = std::make_unique<RunningTask>();
        running->task = std::move(stream.pending.front().task);
        const std::uint64_t submitPs = stream.pending.front().submitPs;
        stream.pending.pop_front();
        stream.busy = true;
        TaskResult& r = running->result;
        r.taskId = running->task.taskId;
        r.userTag = running->task.userTag;
        r.streamId = running->task.streamId;
        r.type = running->task.type;
        r.blockDim = running->task.blockDim;
        r.mixBlockDim = running->task.mixBlockDim;
        r.submitNs = nsOf(submitPs);
        r.startNs = nsOf(now);
        if (running->task.type == TaskType::AiCpu) aiCpuWaiting_.push_back(running.get());
        running_.push_back(std::move(running));
    }
}

// AI CPU work takes launchOverheadCycles + aiCpuCycles at the AI CPU clock on one free AI CPU.
void TaskScheduler::runAiCpuTasks(std::uint64_t now) {
    for (std::size_t i = 0; i < aiCpuRunning_.size();) {
        RunningTask* task = aiCpuRunning_[i];
        if (task->aiCpuEndPs <= now) {
            aiCpuRunning_.erase(aiCpuRunning_.begin() + static_cast<std::ptrdiff_t>(i));
            finishTask(*task, now);
        } else {
            ++i;
        }
    }
    const double psPerCycle = 1e6 / chip_.aiCpu.freqMhz;
    while (!aiCpuWaiting_.empty()) {
        auto freeCpu = std::find_if(aiCpuFreeAtPs_.begin(), aiCpuFreeAtPs_.end(),
                                    [now](std::uint64_t freeAt) { return freeAt <= now; });
        if (freeCpu == aiCpuFreeAtPs_.end()) break;
        RunningTask* task = aiCpuWaiting_.front();
        aiCpuWaiting_.pop_front();
        const double cycles = static_cast<double>(task->task.aiCpuCycles + chip_.aiCpu.launchOverheadCycles);
        task->aiCpuEndPs = now + static_cast<std::uint64_t>(std::ceil(cycles * psPerCycle));
        task->result.startNs = nsOf(now);
        *freeCpu = task->aiCpuEndPs;
        aiCpuRunning_.push_back(task);
    }
    // A zero-delay wake-up may have replaced the pending timed one: re-arm for every end.
    for (const RunningTask* task : aiCpuRunning_) wakeAt(task->aiCpuEndPs);
}

void TaskScheduler::dispatchBlocks(std::uint64_t now) {
    for (auto& running : running_) {
        if (running->task.type == TaskType::AiCpu) continue;
        while (running->nextBlock < running->task.blockDim && dispatchOne(*running, now)) {
        }
        if (running->task.blockDim == 0 && running->partsRunning == 0) {
            finishTask(*running, now);
            return;  // running_ changed; finishTask re-woke the scheduler
        }
    }
}

bool TaskScheduler::dispatchOne(RunningTask& running, std::uint64_t now) {
    const TaskType type = running.task.type;
    if (isMix(type)) {
        const std::uint32_t perCube = chip_.vectorCoresPerCube;
        for (std::uint32_t g = 0; g < cubeCores_.size(); ++g) {
            if (cubeCores_[g]->busy()) continue;
            bool groupFree = (g + 1) * perCube <= vectorCores_.size();
            for (std::uint32_t j = 0; groupFree && j < perCube; ++j) groupFree = !vectorCores_[g * perCube + j]->busy();
            if (!groupFree) continue;
            std::vector<AiCore*> group{cubeCores_[g]};
            for (std::uint32_t j = 0; j < perCube; ++j) group.push_back(vectorCores_[g * perCube + j]);
            ++running.nextBlock;
            startPart(running, *cubeCores_[g], CoreKind::Cube, 0, group, 0, now);
            for (std::uint32_t j = 0; j < perCube; ++j)
                startPart(running, *vectorCores_[g * perCube + j], CoreKind::Vector, j, group, j + 1, now);
            return true;
        }
        return false;
    }
    std::vector<AiCore*>& pool = type == TaskType::AiVectorCore ? vectorCores_ : cubeCores_;
    const CoreKind kind = blockKindOf(type);
    for (AiCore* core : pool) {
        if (core->busy()) continue;
        ++running.nextBlock;
        startPart(running, *core, kind, 0, {}, 0, now);
        return true;
    }
    if (pool.empty())
        throw std::runtime_error(chip_.name + " has no cores for " + std::string(taskTypeName(type)) + " task " +
                                 std::to_string(running.task.taskId));
    return false;
}

void TaskScheduler::startPart(RunningTask& running, AiCore& core, CoreKind kind, std::uint32_t subBlockIdx,
                              std::vector<AiCore*> group, std::uint32_t ownSlot, std::uint64_t now) {
    BlockAssignment a;
    a.taskId = running.task.taskId;
    a.codeId = codeIdOf(running.task, kind);
    a.codeHeldInL2 = running.task.codeHeldInL2;
    a.codeBytes = running.task.codeBytes;
    a.request = {running.nextBlock - 1, kind, subBlockIdx, running.task.workspaceAddr};
    a.program = prefetcher_ != nullptr ? prefetcher_->take(a.taskId, running.task.program, a.request)
                                        : running.task.program(a.request);
    a.groupBySlot = std::move(group);
    a.ownSlot = ownSlot;
    a.coresOfKind =
        running.task.blockDim *
        (isMix(running.task.type) && kind == CoreKind::Vector ? chip_.vectorCoresPerCube : 1);
    a.owner = &running;
    a.trace = running.task.instructionTrace;
    ++running.partsRunning;
    running.firstDispatchPs = std::min(running.firstDispatchPs, now);
    // Blocks leave the dispatcher one interval apart: block i no earlier than i intervals after
    // the task's first (a later wave, dispatched when a core frees, is usually past that). Counted
    // in the dispatcher's cycles from the cycle of the first dispatch: an interval in rounded
    // picoseconds (i × ceil(interval ps)) puts some blocks a cycle late or not depending on the
    // phase of the task's start, so a kernel moved by a few ns ran a different race between its
    // blocks (docs/fidelity.md §43).
    const std::uint64_t firstCycle = dispatchClock_.cycleAtOrAfter(running.firstDispatchPs);
    const std::uint64_t staggeredCycle = firstCycle + std::uint64_t{a.request.blockIdx} * chip_.blockDispatchIntervalCycles;
    const std::uint64_t startCycle =
        std::max(dispatchClock_.cycleAtOrAfter(now), staggeredCycle) + chip_.blockDispatchCycles;
    core.startBlock(std::move(a), dispatchClock_.psOfCycle(startCycle));
}

void TaskScheduler::onBlockFinished(AiCore& core) {
    const BlockAssignment& a = core.assignment();
    auto& running = *static_cast<RunningTask*>(a.owner);
    BlockResult block;
    block.blockIdx = a.request.blockIdx;
    block.subBlockIdx = a.request.subBlockIdx;
    block.coreKind = a.request.coreKind;
    block.coreId = core.coreId();
    block.startNs = nsOf(core.blockStartPs());
    block.endNs = nsOf(core.blockEndPs());
    block.counters = core.counters();
    finishedCoreCycles_ += block.counters.totalCycles;
    (block.coreKind == CoreKind::Vector ? running.result.vectorSum : running.result.cubeSum) += block.counters;
    running.result.blocks.push_back(std::move(block));
    --running.partsRunning;
    if (running.partsRunning == 0 && running.nextBlock == running.task.blockDim) finishTask(running, nowPs());
    wakeAt(nowPs());  // a core became free
}

void TaskScheduler::finishTask(RunningTask& running, std::uint64_t now) {
    TaskResult& r = running.result;
    r.endNs = nsOf(now);
    if (!r.blocks.empty()) {
        // The task starts when its first block is handed to a core (the dispatch is in the
        // task's duration, not in the blocks' cycles).
        r.startNs = nsOf(running.firstDispatchPs);
        for (const BlockResult& b : r.blocks) {
            r.startNs = std::min(r.startNs, b.startNs);
            r.endNs = std::max(r.endNs, b.endNs);
        }
    }
    Stream& stream = streams_[running.task.streamId];
    stream.busy = false;
    stream.lastEndPs = now;
    --outstanding_;
    observer_.onTaskFinished(r);
    running_.remove_if([&running](const std::unique_ptr<RunningTask>& t) { return t.get() == &running; });
    wakeAt(now);
}

std::string TaskScheduler::stuckReport() const {
    std::ostringstream out;
    out << outstanding_ << " task(s) never finished.";
    for (const auto* pool : {&cubeCores_, &vectorCores_})
        for (const AiCore* core : *pool) {
            const std::string state = core->blockedState();
            if (!state.empty()) out << "\n  " << state;
        }
    return out.str();
}

}  // namespace ascendsim
