#pragma once
// The dataflow checks over a flattened workload: every tensor an op reads exists and is ready,
// every tensor is produced at most once, outputs agree with the catalog's shape rules, and
// forward/backward links give sequence numbers.
#include <cstdint>

#include "sim/workload/workload.h"

namespace ascendsim {

// inferMissingOutputs: create undeclared op outputs from shape inference (loading); otherwise an
// undeclared output is an error (re-validating a built workload). Also fills the default
// attributes and sequence numbers. Throws WorkloadError.
void checkWorkloadGraph(Workload& workload, bool inferMissingOutputs);

// Device memory a step needs: tensors living all run (input, weight, state) plus the peak of
// activations and gradients alive at once (from their producer to their last reader). Views
// cost nothing; reading a view keeps its base alive.
struct DeviceMemoryEstimate {
    std::uint64_t persistentBytes = 0;
    std::uint64_t peakTransientBytes = 0;
    std::size_t peakOpIndex = 0;  // the op during which the transient peak occurs
    std::uint64_t totalBytes() const { return persistentBytes + peakTransientBytes; }
};
DeviceMemoryEstimate estimateDeviceMemory(const Workload& workload);

}  // namespace ascendsim
