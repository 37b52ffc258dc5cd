#pragma once
// One kernel launch's instruction timeline (`--core-trace`, docs/core-trace.md): which launch was
// traced and every span its cores recorded (models/core/instruction_trace.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/core/instruction_trace.h"
#include "models/task/kernel_task.h"

namespace ascendsim {

// Which launch to trace: the first one of `opIndex` (any AI-core kernel when empty) in step
// `stepNumber` (any step when empty).
struct CoreTraceSelection {
    std::optional<std::size_t> opIndex;
    std::optional<std::uint32_t> stepNumber;
};

struct CoreTrace {
    std::string opName;      // the workload's op ("layer1.0.conv1")
    std::string opType;      // "Conv2D"
    std::string kernelName;  // as kernel_details.csv names it
    TaskType type = TaskType::AiCore;
    std::uint32_t blockDim = 0;
    std::uint32_t mixBlockDim = 0;
    std::uint64_t taskId = 0;     // the device's task id
    std::uint32_t stepNumber = 0;  // as ProfilerStep#N numbers it (from 0)
    std::uint64_t startNs = 0;    // first block starts (device time)
    std::uint64_t endNs = 0;      // last block ends
    std::vector<TraceSpan> spans;
};

}  // namespace ascendsim
