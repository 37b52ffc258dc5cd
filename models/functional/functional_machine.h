#pragma once
// Functional execution of lowered programs on real data (DESIGN.md decision 3): proves that a
// kernel's tiling covers its output exactly, for every block_dim. No timing here.
//
// Each core has its own local buffers (L1, L0A, L0B, L0C, UB, BT, FB) as byte arrays sized from
// the chip config; GM is one flat byte array shared by all cores. Every core's stream runs in
// program order; blocks interleave at cross-core flags (MIX groups, and mode-0 SyncAll barriers of
// any kernel on a split chip).
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/functional/cross_core_semaphores.h"
#include "models/isa/instruction.h"
#include "models/task/kernel_task.h"

namespace ascendsim {

class FunctionalMachine {
public:
    FunctionalMachine(const ChipConfig& chip, std::uint64_t globalMemoryBytes);
    // Binding a temporary chip would dangle (chip_ is a reference): refused at compile time.
    FunctionalMachine(const ChipConfig&& chip, std::uint64_t globalMemoryBytes) = delete;

    std::vector<std::uint8_t>& globalMemory() { return gm_; }

    // Writes/reads `values` as elements of `dtype` at GM byte address `addr` (with rounding to
    // fp16/bf16/int8 as the dtype requires).
    void writeTensor(std::uint64_t addr, DataType dtype, const std::vector<float>& values);
    std::vector<float> readTensor(std::uint64_t addr, DataType dtype, std::size_t count) const;

    // Runs every block of `task` to completion. Throws std::runtime_error naming the instruction
    // on an out-of-bounds or misaligned access, or when blocks deadlock on cross-core flags.
    void runKernel(const KernelTask& task);

    // Also check that every block's flags order its cross-pipe local-buffer accesses (a missing
    // SetFlag/WaitFlag throws, naming the hazard). Off by default.
    void setHazardChecking(bool enabled) { checkHazards_ = enabled; }

private:
    void runInterleaved(const KernelTask& task, const std::vector<CoreSlot>& slots, CrossCoreSemaphores* semaphores);

    const ChipConfig& chip_;
    std::vector<std::uint8_t> gm_;
    bool checkHazards_ = false;
};

}  // namespace ascendsim
