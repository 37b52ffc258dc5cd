#pragma once
// How long one host call takes, from the reasons its cost differs between calls
// (docs/host-model.md): what CANN has cached about the op (operator selection, tiling, the aclnn
// executor), how many tensor descriptors and attributes it handles, whether the caching allocator
// has a free block, whether a kernel was launched before, and whether Enqueue finds the dequeue
// thread awake. No randomness: equal causes give equal durations, so a run stays byte-for-byte
// reproducible. The constants and their sources are in host_costs.h.
#include <cstdint>

#include "sim/host/framework_op.h"

namespace ascendsim {

// What CANN knows about an NPU op when it is called (OpPreparationCache decides).
enum class OpPreparation : std::uint8_t {
    NewOpType,  // first call of the op type: operator selection, then tiling
    NewShape,   // op type known, (shapes, dtypes, attribute count) not: tiling, a new executor
    Cached,     // seen before: cache hits all the way
};

// The arguments of an op that the host handles one by one.
struct OpArguments {
    std::uint32_t inputTensors = 0;  // entries of FrameworkOp::inputTypes
    std::uint32_t outputTensors = 0;
    std::uint32_t attributes = 0;
    std::uint32_t tensorDescriptors() const { return inputTensors + outputTensors; }
};

OpArguments argumentsOf(const FrameworkOp& op);

namespace host_call_costs {

// AscendCL@aclnnXxxGetWorkspaceSize: descriptors and attributes, plus tiling / op selection on a
// miss.
std::uint64_t getWorkspaceSizeNs(OpPreparation preparation, const OpArguments& arguments);
// Extra time in the ACL execute call (aclnnXxx, aclopCompileAndExecute) when no executor is cached.
std::uint64_t executorBuildNs(OpPreparation preparation);
// Enqueue into the PTA task queue; waking a sleeping dequeue thread costs more than adding to a
// queue it is still draining.
std::uint64_t enqueueNs(bool dequeueThreadBusy);
// Runtime@KernelLaunchWithHandle for a kernel with `kernelArguments` argument slots.
std::uint64_t kernelLaunchNs(bool firstLaunchOfKernel, std::uint32_t kernelArguments);
// Runtime@CtxGetOverflowAddr: slow only until the context has cached the address.
std::uint64_t overflowQueryNs(bool firstQuery);
// Entering a torch op record: dispatch of its inputs, and record_shapes formatting them.
std::uint64_t opEnterNs(std::uint32_t inputTensors, bool recordShapes);

}  // namespace host_call_costs
}  // namespace ascendsim
