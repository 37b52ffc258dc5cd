#pragma once
// Running microbenchmark programs on the real Device, each run in its own fresh SystemC context.
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/device/device.h"
#include "models/isa/instruction.h"
#include "models/task/kernel_task.h"
#include "models/task/task_result.h"

namespace ascendsim {

struct TimedTask {
    KernelTask task;
    std::uint64_t submitNs = 0;
};

// Submits every task to a fresh Device of `chip`, runs until idle, returns the results in
// completion order. With `memory` the device uses it (fresh, outliving the call) instead of the
// chip's own SharedMemorySystem.
std::vector<TaskResult> runOnDevice(const ChipConfig& chip, std::vector<TimedTask> tasks, DeviceOptions options = {},
                                    MemorySystem* memory = nullptr);

// The task type that runs `kind` work on this chip: AI_CORE for cube (and coupled) programs,
// AI_VECTOR_CORE for vector programs on split chips, AI_CORE on coupled ones.
TaskType taskTypeFor(const ChipConfig& chip, CoreKind kind);

// Total cycles of one block running `program` alone on the chip.
std::uint64_t singleBlockCycles(const ChipConfig& chip, CoreKind kind,
                                const std::vector<Instruction>& program);

// `chip` with a free instruction-cache miss and no per-instruction scalar work. The references
// were measured with loop kernels whose code stays in the ICache and whose instruction
// parameters are precomputed; a microbenchmark here is a straight-line program, whose misses
// (one per fill unit) and operator-style scalar work would otherwise starve short instructions.
ChipConfig withLoopResidentCode(const ChipConfig& chip);

// Marginal cost of one repetition of `body`: the cycles of 2N repetitions minus those of N,
// divided by N. Removes block start-up, cold L2 misses and pipeline fill from the measurement.
double marginalCyclesPerRepetition(const ChipConfig& chip, CoreKind kind,
                                   const std::vector<Instruction>& body, std::uint32_t n);

}  // namespace ascendsim
