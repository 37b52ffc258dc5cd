#include "sim/microbench/device_run.h"

#include <memory>
#include <stdexcept>

#include "models/device/device.h"
#include "models/systemc/fresh_simulation_context.h"

namespace ascendsim {

namespace {

class CollectingObserver final : public TaskObserver {
public:
    void onTaskFinished(const TaskResult& result) override { results.push_back(result); }
    std::vector<TaskResult> results;
};

std::vector<Instruction> repeated(const std::vector<Instruction>& body, std::uint32_t times) {
    std::vector<Instruction> program;
    program.reserve(body.size() * times);
    for (std::uint32_t i = 0; i < times; ++i) program.insert(program.end(), body.begin(), body.end());
    return program;
}

}  // namespace

std::vector<TaskResult> runOnDevice(const ChipConfig& chip, std::vector<TimedTask> tasks, DeviceOptions options,
                                    MemorySystem* memory) {
    CollectingObserver observer;
    const FreshSimulationContext context;
    {
        std::unique_ptr<Device> device = memory != nullptr ? std::make_unique<Device>(chip, observer, *memory, std::move(options))
                                                           : std::make_unique<Device>(chip, observer, std::move(options));
        for (auto& timed : tasks) device->submit(std::move(timed.task), timed.submitNs);
        device->runUntilIdle();
    }
    return observer.results;
}

TaskType taskTypeFor(const ChipConfig& chip, CoreKind kind) {
    if (chip.organisation == CoreOrganisation::Split && kind == CoreKind::Vector) {
        return TaskType::AiVectorCore;
    }
    return TaskType::AiCore;
}

std::uint64_t singleBlockCycles(const ChipConfig& chip, CoreKind kind,
                                const std::vector<Instruction>& program) {
    KernelTask task;
    task.type = taskTypeFor(chip, kind);
    task.blockDim = 1;
    task.program = [program](const BlockProgramRequest&) {
        return std::make_unique<FixedInstructionStream>(program);
    };
    std::vector<TimedTask> tasks;
    tasks.push_back(TimedTask{std::move(task), 0});
    const std::vector<TaskResult> results = runOnDevice(chip, std::move(tasks));
    if (results.size() != 1 || results[0].blocks.size() != 1) {
        throw std::logic_error("microbenchmark task did not report exactly one block");
    }
    return results[0].blocks[0].counters.totalCycles;
}

ChipConfig withLoopResidentCode(const ChipConfig& chip) {
    ChipConfig steady = chip;
    steady.icache.missPenaltyCycles = 0;
    // The MSKPP loops issue back-to-back instructions with their parameters precomputed: none of
    // the per-instruction scalar work of an operator kernel (pipes.scalar_cycles_per_instruction).
    steady.scalarCyclesPerInstruction = 0;
    steady.scalarCyclesPerInstructionAic = 0;
    return steady;
}

double marginalCyclesPerRepetition(const ChipConfig& chip, CoreKind kind,
                                   const std::vector<Instruction>& body, std::uint32_t n) {
    const std::uint64_t once = singleBlockCycles(chip, kind, repeated(body, n));
    const std::uint64_t twice = singleBlockCycles(chip, kind, repeated(body, 2 * n));
    return static_cast<double>(twice - once) / n;
}

}  // namespace ascendsim
