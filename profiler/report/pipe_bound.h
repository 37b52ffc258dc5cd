#pragma once
// Which pipe bounds a task: the pipe with the largest busy ratio (busy cycles / total cycles)
// across the task's core sides. Ratios of different pipes overlap (hardware.md §3.2), so the
// largest one is the unit the kernel waits on most.
#include <array>
#include <string_view>

#include "models/task/task_result.h"

namespace ascendsim {

enum class BoundPipe : std::uint8_t { Cube, Vector, Scalar, Mte1, Mte2, Mte3, FixPipe, AiCpu };
inline constexpr std::size_t kBoundPipeCount = 8;

std::string_view boundPipeName(BoundPipe p);  // "cube", "vector", "mte2", ...

// Busy cycles of every pipe summed over all blocks of both core sides, and the cycles they ran.
struct PipeBusy {
    std::array<double, kBoundPipeCount> busyCycles{};
    double totalCycles = 0.0;  // Σ block total cycles of the side that ran each pipe
};

PipeBusy pipeBusy(const TaskResult& task);

// Pipe with the largest busy ratio; AiCpu for AI CPU tasks.
BoundPipe boundPipeOf(const TaskResult& task);

}  // namespace ascendsim
