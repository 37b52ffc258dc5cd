#include "models/functional/functional_machine.h"

#include <memory>
#include <stdexcept>
#include <string>

#include "models/functional/core_memory.h"
#include "models/functional/core_runner.h"
#include "models/functional/cross_core_semaphores.h"
#include "models/functional/float_conversion.h"

namespace ascendsim {

namespace {
bool isMix(TaskType type) { return type == TaskType::MixAic || type == TaskType::MixAiv; }

void checkGmRange(const std::vector<std::uint8_t>& gm, std::uint64_t addr, std::uint64_t bytes,
                  const char* what) {
    if (addr > gm.size() || bytes > gm.size() - addr)
        throw std::runtime_error(std::string(what) + ": GM range " + hexAddress(addr) + " (+" +
                                 std::to_string(bytes) + " bytes) leaves the " +
                                 std::to_string(gm.size()) + "-byte GM");
}
}  // namespace

FunctionalMachine::FunctionalMachine(const ChipConfig& chip, std::uint64_t globalMemoryBytes)
    : chip_(chip), gm_(globalMemoryBytes, 0) {}

void FunctionalMachine::writeTensor(std::uint64_t addr, DataType dtype, const std::vector<float>& values) {
    const std::size_t elementBytes = bytesOf(dtype);
    checkGmRange(gm_, addr, values.size() * elementBytes, "writeTensor");
    for (std::size_t i = 0; i < values.size(); ++i)
        storeElement(gm_.data() + addr + i * elementBytes, dtype, values[i]);
}

std::vector<float> FunctionalMachine::readTensor(std::uint64_t addr, DataType dtype, std::size_t count) const {
    const std::size_t elementBytes = bytesOf(dtype);
    checkGmRange(gm_, addr, count * elementBytes, "readTensor");
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = static_cast<float>(loadElement(gm_.data() + addr + i * elementBytes, dtype));
    return values;
}

void FunctionalMachine::runKernel(const KernelTask& task) {
    if (task.type == TaskType::AiCpu) return;  // AI CPU work has no modelled data effect
    if (!task.program) throw std::runtime_error("FunctionalMachine: kernel task has no program");
    if (task.blockDim == 0) throw std::runtime_error("FunctionalMachine: blockDim 0");
    const bool coupled = chip_.organisation == CoreOrganisation::Coupled;

    if (!isMix(task.type)) {
        const CoreKind kind = task.type == TaskType::AiVectorCore ? CoreKind::Vector
                              : coupled                            ? CoreKind::Coupled
                                                                   : CoreKind::Cube;
        CoreMemory memory(chip_, kind, gm_);
        for (std::uint32_t block = 0; block < task.blockDim; ++block) {
            memory.poison();
            const CoreSlot slot{block, kind, 0};
            CoreRunner runner(slot, task.program({block, kind, 0, task.workspaceAddr}), memory, checkHazards_);
            bool progressed = false;
            runner.run(nullptr, progressed);
        }
        return;
    }

    if (coupled) throw std::runtime_error("FunctionalMachine: MIX kernels need a split (220x) chip");
    if (task.blockDim > chip_.aiCoreCount)
        throw std::runtime_error("FunctionalMachine: MIX blockDim " + std::to_string(task.blockDim) +
                                 " exceeds the " + std::to_string(chip_.aiCoreCount) +
                                 " co-resident AIC groups");
    const std::uint32_t aivPerGroup = chip_.vectorCoresPerCube;
    CrossCoreSemaphores semaphores(task.blockDim, aivPerGroup);
    std::vector<std::unique_ptr<CoreMemory>> memories;
    std::vector<std::unique_ptr<CoreRunner>> runners;
    for (std::uint32_t group = 0; group < task.blockDim; ++group) {
        for (std::uint32_t member = 0; member <= aivPerGroup; ++member) {
            const CoreKind kind = member == 0 ? CoreKind::Cube : CoreKind::Vector;
            const std::uint32_t sub = member == 0 ? 0 : member - 1;
            memories.push_back(std::make_unique<CoreMemory>(chip_, kind, gm_));
            memories.back()->poison();
            runners.push_back(std::make_unique<CoreRunner>(CoreSlot{group, kind, sub},
                                                           task.program({group, kind, sub, task.workspaceAddr}),
                                                           *memories.back(), checkHazards_));
        }
    }

    // Round-robin: each core runs until it blocks on a cross-core wait; a full pass in which no
    // core advances while some are unfinished is a deadlock.
    std::vector<bool> finished(runners.size(), false);
    std::size_t remaining = runners.size();
    while (remaining > 0) {
        bool anyProgress = false;
        for (std::size_t i = 0; i < runners.size(); ++i) {
            if (finished[i]) continue;
            bool progressed = false;
            if (runners[i]->run(&semaphores, progressed) == CoreRunner::State::Finished) {
                finished[i] = true;
                --remaining;
                progressed = true;
            }
            anyProgress = anyProgress || progressed;
        }
        if (!anyProgress) {
            std::string blocked;
            for (std::size_t i = 0; i < runners.size(); ++i)
                if (!finished[i]) blocked += (blocked.empty() ? "" : ", ") + runners[i]->describe();
            throw std::runtime_error("FunctionalMachine: MIX kernel deadlocked on cross-core flags; "
                                     "blocked: " + blocked);
        }
    }
}

}  // namespace ascendsim
