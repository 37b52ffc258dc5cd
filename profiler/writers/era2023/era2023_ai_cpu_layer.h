#pragma once
// The AI CPU layer of a 2023-era msprof timeline. The E2E profiling page lists four layers, top to
// bottom: MsprofTx, AscendCL, Task Scheduler and AI CPU: CANN 6/7 shows the AI CPU tasks as their
// own process below the Task Scheduler, where later releases keep them on Ascend Hardware. It is
// the AI CPU data of the collection (ACL_PROF_AICPU; without it the tasks stay where they are). The
// tasks' X events (args "Task Type" AI_CPU) and their host-to-device flow ends move from the Task
// Scheduler process to an "AI CPU" process with one thread per stream, label NPU, sort index one
// below the Task Scheduler's. Assumed (no public CANN 6/7 timeline shows it): the process's pid is
// built as the others' (sort index in bits 5-9), which is the slot of the AI Core Freq process
// that the 2023 era does not write.
#include <vector>

#include "profiler/writers/json/json_text.h"

namespace ascendsim {

inline constexpr const char* kEra2023AiCpuLayerName = "AI CPU";

// `events` with the AI CPU tasks on their own layer; unchanged when it has no AI CPU task.
std::vector<OrderedJson> withAiCpuLayer(std::vector<OrderedJson> events, const char* taskSchedulerName);

}  // namespace ascendsim
