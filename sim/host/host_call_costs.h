#pragma once
// How long one host call takes, from the reasons its cost differs between calls
// (docs/host-model.md): whether CANN has the op cached (operator selection, tiling), whether the
// call is the API's first since the host blocked on a device synchronize (cold), how many tensor
// descriptors and attributes it handles, whether the caching allocator has a free block, and
// whether Enqueue finds the dequeue thread awake. No randomness: equal causes give equal
// durations, so a run stays byte-for-byte reproducible. The constants and their sources are in
// host_costs.h.
#include <cstdint>

#include "sim/host/framework_op.h"

namespace ascendsim {

// What CANN knows about an NPU op when it is called (OpPreparationCache decides).
enum class OpPreparation : std::uint8_t {
    NewOpType,  // first call of the op type: operator selection, then tiling
    NewShape,   // op type known, (shapes, dtypes, attribute count) not: tiling
    Cached,     // seen before: cache hits all the way
};

// How an NPU op call finds the host: `cold` for the op type's first call since the last device
// synchronize.
struct OpCallState {
    OpPreparation preparation = OpPreparation::Cached;
    bool cold = false;
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

// AscendCL@aclnnXxxGetWorkspaceSize: descriptors and attributes, tiling / op selection on a miss,
// warming up when cold.
std::uint64_t getWorkspaceSizeNs(const OpCallState& call, const OpArguments& arguments);
// Extra time in the ACL execute call (aclnnXxx, aclopCompileAndExecute) when cold.
std::uint64_t coldExecuteNs(const OpCallState& call);
// Enqueue into the PTA task queue; waking a sleeping dequeue thread costs more than adding to a
// queue it is still draining.
std::uint64_t enqueueNs(bool dequeueThreadBusy);
// Runtime@KernelLaunchWithHandle for a kernel with `kernelArguments` argument slots; `cold`: the
// kernel's first launch since the last device synchronize.
std::uint64_t kernelLaunchNs(bool cold, std::uint32_t kernelArguments);
// Runtime@CtxGetOverflowAddr: slow on the first query since the last device synchronize.
std::uint64_t overflowQueryNs(bool cold);
// Entering a torch op record: dispatch of its inputs, and record_shapes formatting them.
std::uint64_t opEnterNs(std::uint32_t inputTensors, bool recordShapes);

}  // namespace host_call_costs
}  // namespace ascendsim
