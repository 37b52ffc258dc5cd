#pragma once
// The typed record of one simulated run (DESIGN.md "Recorder"): everything the profiler writers
// need, and nothing formatted. Times are simulated nanoseconds since the start of the run; the
// writers add `epochNs` (wall-clock ns at simulated time 0) to print absolute timestamps.
//
// Producers: the engine (device tasks, from models/ TaskResult), the host model (framework ops,
// API calls, task queue, memory). Consumers: profiler/ writers only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/task/task_result.h"

namespace ascendsim {

// How a kernel_details row describes one tensor.
struct TensorDescription {
    std::string shape;   // "32,3,224,224"
    std::string dtype;   // "FLOAT16"
    std::string format;  // "NCHW", "ND", "FRACTAL_NZ", "NC1HWC0"
};

// One device task (kernel) with its framework context.
struct KernelRecord {
    TaskResult device;                 // times, block dims, PMU counters
    std::string name;                  // kernel name, e.g. "Conv2D_3a1f..._high_performance_1"
    std::string opType;                // "Conv2D"
    std::uint64_t correlationId = 0;   // links the kernel to the host launch (flows)
    std::int64_t hostOpIndex = -1;     // index into RunRecord::hostOps of the launching torch op
    std::vector<TensorDescription> inputs;
    std::vector<TensorDescription> outputs;
    bool hf32Eligible = false;
};

// A framework (torch) op as torch_npu records it.
struct HostOpRecord {
    std::string name;                  // "aten::conv2d", "ProfilerStep#3"
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t threadId = 0;
    std::int64_t sequenceNumber = -1;
    std::uint32_t forwardThreadId = 0;
    std::int64_t parent = -1;          // index of the enclosing op, -1 at top level
    std::string inputDims;             // record_shapes: "[32, 3, 224, 224];[64, 3, 7, 7]"
    std::string inputTypes;            // record_shapes: "float;float"
    std::string callStack;             // with_stack: frames joined by ";"
    std::string moduleHierarchy;       // with_modules
};

// A profiler step: ProfilerStep#N on the host.
struct StepRecord {
    std::uint32_t stepNumber = 0;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
};

struct RunRecord {
    const ChipConfig* chip = nullptr;
    std::uint32_t deviceId = 0;
    std::int64_t rankId = -1;          // -1: not distributed
    std::uint64_t epochNs = 0;         // wall-clock ns (UTC epoch) at simulated time 0
    std::uint32_t processId = 0;
    std::string hostName;

    std::vector<HostOpRecord> hostOps;
    std::vector<StepRecord> steps;
    std::vector<KernelRecord> kernels;  // in device start order
};

}  // namespace ascendsim
