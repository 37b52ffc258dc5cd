#include "sim/engine/device/lowered_workload.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "sim/engine/device/device_address_planner.h"
#include "sim/engine/device/kernel_naming.h"
#include "sim/workload/parallel/parallel_layout.h"

namespace ascendsim {

namespace {

void assignAddresses(std::vector<TensorInfo>& tensors, const DeviceAddressPlanner& planner) {
    for (auto& t : tensors) t.deviceAddr = planner.addressOf(t.name);
}

std::string loweringField(const WorkloadOp& op) {
    return op.fieldPath + (op.blockDim ? ".block_dim" : ".type");
}

// The global ranks of the representative rank's group of the op's `group` kind, ascending
// (0..ranks-1 for the world). Every group of one kind has the same shape in Megatron's rank order
// (same size, same spread over servers), so the first rank of the workload's pipeline stage (rank
// 0 without a pipeline) times the op for every rank of that stage; the ranks' own members and
// waits come from the cluster run (sim/engine/cluster/).
std::vector<std::uint32_t> collectiveMembers(const Workload& workload, const OpInstance& op) {
    const std::string group = collectiveGroupOf(op);
    if (group == "world" || !workload.parallel.declared) {
        std::vector<std::uint32_t> members(workload.groupSize(group));
        std::iota(members.begin(), members.end(), 0u);
        return members;
    }
    return groupMembers(workload.parallel, group, workload.representativeRank());
}

// The representative rank's place in `members` (it issues the op: a Send's sender).
std::uint32_t memberIndexOf(const Workload& workload, const std::vector<std::uint32_t>& members) {
    const auto it = std::find(members.begin(), members.end(), workload.representativeRank());
    return it == members.end() ? 0 : static_cast<std::uint32_t>(it - members.begin());
}

// A MemSet op inside one aclnn call zeroes the output of a later kernel of the call that
// accumulates into it: CANN names it after that kernel's binary (memSetKernelNameFor).
void nameMemSetsAfterTheirOwners(std::vector<LoweredOp>& ops) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
        LoweredOp& memSet = ops[i];
        if (memSet.source->type != "MemSet" || memSet.kernelNames.size() != 1 || memSet.source->outputs.empty() ||
            !memSet.npuOpName.starts_with("aclnn"))
            continue;
        for (std::size_t j = i + 1; j < ops.size() && ops[j].npuOpName == memSet.npuOpName; ++j) {
            const LoweredOp& owner = ops[j];
            const auto& outputs = owner.source->outputs;
            if (owner.kernels.empty() ||
                std::find(outputs.begin(), outputs.end(), memSet.source->outputs.front()) == outputs.end())
                continue;
            const LoweredKernel& k = owner.kernels.front();
            memSet.kernelNames.front() = memSetKernelNameFor(
                memSet.npuOpName, kernelBinaryFor(reportedOpTypeOf(k, owner.source->type), k.type, k.kernelSuffix));
            break;
        }
    }
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
                const std::vector<std::uint32_t> members = collectiveMembers(workload, lowered.instance);
                lowered.collective = lowerCollective(lowered.instance, members, memberIndexOf(workload, members), chip);
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
            lowered.npuOpName = aclnnNameForAten(op.framework.atenName);
            if (lowered.npuOpName.empty()) lowered.npuOpName = npuOpNameFor(op.type);
            for (const auto& k : lowered.kernels)
                lowered.kernelNames.push_back(kernelNameFor(
                    lowered.npuOpName, reportedOpTypeOf(k, op.type), k.type, k.kernelSuffix));
        }
        for (const auto& t : lowered.instance.inputs) lowered.inputs.push_back(describeTensor(t));
        for (const auto& t : lowered.instance.outputs) lowered.outputs.push_back(describeTensor(t));
        for (const auto& k : lowered.kernels) workspaceBytes_ = std::max(workspaceBytes_, k.workspaceBytes);
        ops_.push_back(std::move(lowered));
    }
    nameMemSetsAfterTheirOwners(ops_);
    constexpr std::uint64_t kTwoMiB = 2ULL << 20;
    workspaceAddress_ = (DeviceAddressPlanner::kBaseAddress + peakBytes_ + kTwoMiB - 1) / kTwoMiB * kTwoMiB;
}

}  // namespace ascendsim
