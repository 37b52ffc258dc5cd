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

std::uint64_t getWorkspaceSizeNs(OpPreparation preparation, const OpArguments& arguments) {
    std::uint64_t cost = kGetWorkspaceSizeCachedNs +
                         arguments.tensorDescriptors() * kTensorDescriptorNs +
                         arguments.attributes * kAttributeNs;
    if (preparation != OpPreparation::Cached) cost += kTilingNs;
    if (preparation == OpPreparation::NewOpType) cost += kOpSelectionNs;
    return cost;
}

std::uint64_t executorBuildNs(OpPreparation preparation) {
    return preparation == OpPreparation::Cached ? 0 : kExecutorBuildNs;
}

std::uint64_t enqueueNs(bool dequeueThreadBusy) {
    return dequeueThreadBusy ? kEnqueueToBusyQueueNs : kEnqueueWakingDequeueNs;
}

std::uint64_t kernelLaunchNs(bool firstLaunchOfKernel, std::uint32_t kernelArguments) {
    return kKernelLaunchCachedBaseNs + kernelArguments * kKernelArgumentNs +
           (firstLaunchOfKernel ? kFirstKernelLaunchNs : 0);
}

std::uint64_t overflowQueryNs(bool firstQuery) {
    return firstQuery ? kOverflowQueryNs : kOverflowQueryCachedNs;
}

std::uint64_t opEnterNs(std::uint32_t inputTensors, bool recordShapes) {
    return kOpEnterNs +
           inputTensors * (kOpInputDispatchNs + (recordShapes ? kRecordShapesPerInputNs : 0));
}

}  // namespace host_call_costs
}  // namespace ascendsim
