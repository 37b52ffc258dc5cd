#include "models/functional/functional_machine.h"

#include <map>
#include <memory>
#include <optional>
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
        const std::uint32_t coresOnChip = kind == CoreKind::Vector ? chip_.vectorCoreCount : chip_.aiCoreCount;
        std::vector<CoreSlot> slots;
        for (std::uint32_t block = 0; block < task.blockDim; ++block) slots.push_back({block, kind, 0});
        // Coupled chips have no cross-core flags: their runners get no semaphores and reject them.
        std::optional<CrossCoreSemaphores> semaphores;
        if (!coupled) semaphores = CrossCoreSemaphores::singleKind(task.blockDim, kind, coresOnChip);
        runInterleaved(task, slots, semaphores ? &*semaphores : nullptr);
        return;
    }

    if (coupled) throw std::runtime_error("FunctionalMachine: MIX kernels need a split (220x) chip");
    if (task.blockDim > chip_.aiCoreCount)
        throw std::runtime_error("FunctionalMachine: MIX blockDim " + std::to_string(task.blockDim) +
                                 " exceeds the " + std::to_string(chip_.aiCoreCount) +
                                 " co-resident AIC groups");
    const std::uint32_t aivPerGroup = chip_.vectorCoresPerCube;
    std::vector<CoreSlot> slots;
    for (std::uint32_t group = 0; group < task.blockDim; ++group) {
        slots.push_back({group, CoreKind::Cube, 0});
        for (std::uint32_t aiv = 0; aiv < aivPerGroup; ++aiv) slots.push_back({group, CoreKind::Vector, aiv});
    }
    CrossCoreSemaphores semaphores(task.blockDim, aivPerGroup);
    runInterleaved(task, slots, &semaphores);
}

// Round-robin over the blocks in order: each runs until it finishes or blocks on a cross-core
// wait; a full pass in which no core advances while some are unfinished is a deadlock. Without
// cross-core waits this is one block after another. A core's local buffers are taken when it
// starts (poisoned) and given back when it finishes, so only cores running at once hold memory.
void FunctionalMachine::runInterleaved(const KernelTask& task, const std::vector<CoreSlot>& slots,
                                       CrossCoreSemaphores* semaphores) {
    std::map<CoreKind, std::vector<std::unique_ptr<CoreMemory>>> freeMemory;
    std::vector<std::unique_ptr<CoreMemory>> memories(slots.size());
    std::vector<std::unique_ptr<CoreRunner>> runners(slots.size());
    std::vector<bool> finished(slots.size(), false);
    std::size_t remaining = slots.size();
    while (remaining > 0) {
        bool anyProgress = false;
        for (std::size_t i = 0; i < slots.size(); ++i) {
            if (finished[i]) continue;
            if (!runners[i]) {
                const CoreSlot& slot = slots[i];
                auto& pool = freeMemory[slot.kind];
                if (pool.empty()) {
                    memories[i] = std::make_unique<CoreMemory>(chip_, slot.kind, gm_);
                } else {
                    memories[i] = std::move(pool.back());
                    pool.pop_back();
                }
                memories[i]->poison();
                runners[i] = std::make_unique<CoreRunner>(
                    slot, task.program({slot.group, slot.kind, slot.subBlock, task.workspaceAddr}), *memories[i],
                    checkHazards_);
            }
            bool progressed = false;
            if (runners[i]->run(semaphores, progressed) == CoreRunner::State::Finished) {
                finished[i] = true;
                --remaining;
                progressed = true;
                runners[i].reset();
                freeMemory[slots[i].kind].push_back(std::move(memories[i]));
            }
            anyProgress = anyProgress || progressed;
        }
        if (!anyProgress) {
            std::string blocked;
            for (std::size_t i = 0; i < slots.size(); ++i)
                if (!finished[i]) blocked += (blocked.empty() ? "" : ", ") + runners[i]->describe();
            throw std::runtime_error("FunctionalMachine: kernel deadlocked on cross-core flags; blocked: " + blocked);
        }
    }
}

}  // namespace ascendsim
