#include "sim/host/host_call_costs.h"

#include <algorithm>

#include "sim/host/host_costs.h"

namespace ascendsim {

using namespace host_costs;

OpArguments argumentsOf(const FrameworkOp& op) {
    OpArguments arguments;
    if (!op.inputTypes.empty()) {
        arguments.inputTensors = 1 + static_cast<std::uint32_t>(std::count(
                                         op.inputTypes.begin(), op.inputTypes.end(), ';'));
    }
    arguments.outputTensors = static_cast<std::uint32_t>(op.outputs.size());
    arguments.attributes = op.attributeCount;
    return arguments;
}

namespace host_call_costs {

std::uint64_t getWorkspaceSizeNs(const OpCallState& call, const OpArguments& arguments) {
    std::uint64_t cost = kGetWorkspaceSizeCachedNs +
                         arguments.tensorDescriptors() * kTensorDescriptorNs +
                         arguments.attributes * kAttributeNs;
    if (call.cold) cost += kColdGetWorkspaceSizeNs;
    if (call.preparation != OpPreparation::Cached) cost += kTilingNs;
    if (call.preparation == OpPreparation::NewOpType) cost += kOpSelectionNs;
    return cost;
}

std::uint64_t coldExecuteNs(const OpCallState& call) {
    return call.cold ? kColdExecuteNs : 0;
}

std::uint64_t enqueueNs(bool dequeueThreadBusy) {
    return dequeueThreadBusy ? kEnqueueToBusyQueueNs : kEnqueueWakingDequeueNs;
}

std::uint64_t kernelLaunchNs(bool cold, std::uint32_t kernelArguments) {
    return kKernelLaunchCachedBaseNs + kernelArguments * kKernelArgumentNs +
           (cold ? kColdKernelLaunchNs : 0);
}

std::uint64_t overflowQueryNs(bool cold) {
    return cold ? kOverflowQueryNs : kOverflowQueryWarmNs;
}

std::uint64_t opEnterNs(std::uint32_t inputTensors, bool recordShapes) {
    return kOpEnterNs +
           inputTensors * (kOpInputDispatchNs + (recordShapes ? kRecordShapesPerInputNs : 0));
}

}  // namespace host_call_costs
}  // namespace ascendsim
