#include "sim/engine/device/lowered_workload.h"

#include <algorithm>
#include <stdexcept>

#include "sim/engine/device/device_address_planner.h"
#include "sim/engine/device/kernel_naming.h"

namespace ascendsim {

namespace {

void assignAddresses(std::vector<TensorInfo>& tensors, const DeviceAddressPlanner& planner) {
    for (auto& t : tensors) t.deviceAddr = planner.addressOf(t.name);
}

std::string loweringField(const WorkloadOp& op) {
    return op.fieldPath + (op.blockDim ? ".block_dim" : ".type");
}

}  // namespace

LoweredWorkload::LoweredWorkload(const Workload& workload, const ChipConfig& chip) {
    const DeviceAddressPlanner planner(workload);
    peakBytes_ = planner.peakBytes();
    const auto& registry = KernelRegistry::instance();
    ops_.reserve(workload.ops.size());
    for (const auto& op : workload.ops) {
        LoweredOp lowered;
        lowered.source = &op;
        lowered.instance = makeOpInstance(workload, op);
        assignAddresses(lowered.instance.inputs, planner);
        assignAddresses(lowered.instance.outputs, planner);
        if (isCollectiveOpType(op.type)) {
            try {
                lowered.collective = lowerCollective(lowered.instance, workload.groupSize(collectiveGroupOf(lowered.instance)), chip);
            } catch (const std::invalid_argument& e) {
                throw WorkloadError(op.locationOf("type"), op.fieldPath + ".type", e.what());
            }
            lowered.kernels.emplace_back();
            lowered.npuOpName = collectiveNpuOpName(lowered.collective->kind);
            lowered.kernelNames.push_back(collectiveApiName(lowered.collective->kind));
        } else {
            try {
                lowered.kernels = registry.lower(lowered.instance, chip);
            } catch (const LoweringError& e) {
                throw WorkloadError(op.locationOf(op.blockDim ? "block_dim" : "type"),
                                    loweringField(op), e.what());
            }
            lowered.npuOpName = npuOpNameFor(op.type);
            for (const auto& k : lowered.kernels)
                lowered.kernelNames.push_back(kernelNameFor(
                    lowered.npuOpName, reportedOpTypeOf(k, op.type), k.type, k.kernelSuffix));
        }
        for (const auto& t : lowered.instance.inputs) lowered.inputs.push_back(describeTensor(t));
        for (const auto& t : lowered.instance.outputs) lowered.outputs.push_back(describeTensor(t));
        for (const auto& k : lowered.kernels) workspaceBytes_ = std::max(workspaceBytes_, k.workspaceBytes);
        ops_.push_back(std::move(lowered));
    }
    constexpr std::uint64_t kTwoMiB = 2ULL << 20;
    workspaceAddress_ = (DeviceAddressPlanner::kBaseAddress + peakBytes_ + kTwoMiB - 1) / kTwoMiB * kTwoMiB;
}

}  // namespace ascendsim
