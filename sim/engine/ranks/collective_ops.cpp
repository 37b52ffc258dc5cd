#include "sim/engine/ranks/collective_ops.h"

#include <stdexcept>

#include "models/collective/hccl_all_reduce.h"
#include "models/collective/hccl_broadcast.h"
#include "models/collective/hccl_single_phase.h"
#include "sim/workload/parallel_layout.h"

namespace ascendsim {

namespace {

struct CollectiveNames {
    CollectiveKind kind;
    const char* workloadOpType;
    const char* apiName;
    const char* npuOpName;
};

constexpr CollectiveNames kCollectives[] = {
    {CollectiveKind::AllReduce, "HcomAllReduce", "hcom_allReduce_", "HcclAllreduce"},
    {CollectiveKind::AllGather, "HcomAllGather", "hcom_allGather_", "HcclAllgather"},
    {CollectiveKind::ReduceScatter, "HcomReduceScatter", "hcom_reduceScatter_",
     "HcclReduceScatter"},
    {CollectiveKind::Broadcast, "HcomBroadcast", "hcom_broadcast_", "HcclBroadcast"},
};

const CollectiveNames& namesOf(CollectiveKind kind) {
    for (const CollectiveNames& names : kCollectives)
        if (names.kind == kind) return names;
    throw std::logic_error("a collective kind without names");
}

}  // namespace

std::optional<CollectiveKind> collectiveKindOf(const std::string& opType) {
    for (const CollectiveNames& names : kCollectives)
        if (opType == names.workloadOpType) return names.kind;
    return std::nullopt;
}

bool isCollectiveOpType(const std::string& opType) {
    return collectiveKindOf(opType).has_value();
}

const char* collectiveApiName(CollectiveKind kind) {
    return namesOf(kind).apiName;
}

const char* collectiveNpuOpName(CollectiveKind kind) {
    return namesOf(kind).npuOpName;
}

std::string collectiveGroupOf(const OpInstance& op) {
    const auto group = op.attrs.find("group");
    if (group == op.attrs.end()) return "world";
    const std::string* name = std::get_if<std::string>(&group->second);
    return name ? *name : "world";
}

LoweredCollective lowerCollective(const OpInstance& op, std::uint32_t groupRanks,
                                  const ChipConfig& chip) {
    const std::optional<CollectiveKind> kind = collectiveKindOf(op.type);
    if (!kind) throw std::invalid_argument(op.type + " is not a collective");
    if (op.inputs.empty() || op.outputs.empty())
        throw std::invalid_argument(op.type + " needs its input and output tensors");
    // ReduceScatter plans with one rank's output; the others with the input.
    const TensorInfo& tensor =
        *kind == CollectiveKind::ReduceScatter ? op.outputs.front() : op.inputs.front();
    LoweredCollective c;
    c.kind = *kind;
    c.bytes = tensor.bytes();
    c.count = tensor.elementCount();
    c.dtype = tensor.dtype;
    c.ranks = groupRanks;
    c.group = collectiveGroupOf(op);
    c.durationNs = collectiveScheduleFor(c, 0, chip).durationNs;
    return c;
}

CollectiveSchedule collectiveScheduleFor(const LoweredCollective& collective, std::uint32_t rank,
                                         const ChipConfig& chip) {
    switch (collective.kind) {
        case CollectiveKind::AllReduce:
            return planMeshAllReduce(collective.bytes, collective.ranks, rank, chip.hccl);
        case CollectiveKind::AllGather:
            return planMeshAllGather(collective.bytes, collective.ranks, rank, chip.hccl);
        case CollectiveKind::ReduceScatter:
            return planMeshReduceScatter(collective.bytes, collective.ranks, rank, chip.hccl);
        case CollectiveKind::Broadcast:
            return planMeshBroadcast(collective.bytes, collective.ranks, rank, chip.hccl);
    }
    throw std::logic_error("a collective kind without a model");
}

CollectiveSchedule collectiveScheduleAfterWait(const LoweredCollective& collective, std::uint32_t rank,
                                               const ChipConfig& chip, std::uint64_t waitNs) {
    CollectiveSchedule schedule = collectiveScheduleFor(collective, rank, chip);
    if (waitNs == 0) return schedule;
    HcclTask wait;
    wait.kind = HcclTaskKind::NotifyWait;
    wait.durationNs = waitNs;
    wait.srcRank = rank;
    for (HcclTask& task : schedule.tasks) {
        task.startNs += waitNs;
        ++task.contextId;
    }
    schedule.tasks.insert(schedule.tasks.begin(), wait);
    schedule.durationNs += waitNs;
    return schedule;
}

std::string hcclDataTypeName(DataType dtype) {
    switch (dtype) {
        case DataType::Fp16:
            return "FP16";
        case DataType::Bf16:
            return "BFP16";
        case DataType::Fp32:
        case DataType::Hf32:
            return "FP32";
        case DataType::Int8:
            return "INT8";
        case DataType::Uint8:
            return "UINT8";
        case DataType::Int16:
            return "INT16";
        case DataType::Int32:
            return "INT32";
        case DataType::Int64:
            return "INT64";
        case DataType::Bool:
            return "UINT8";
    }
    return "FP32";
}

std::string worldGroupHash() { return communicatorHash("hccl_world_group"); }

std::string collectiveOpName(CollectiveKind kind, const std::string& groupHash,
                             std::uint32_t indexInStep) {
    const std::string prefix =
        groupHash.size() > 3 ? groupHash.substr(groupHash.size() - 3) : groupHash;
    return std::string(collectiveApiName(kind)) + "_" + std::to_string(std::stoull(prefix)) + "_" +
           std::to_string(indexInStep) + "_1";
}

}  // namespace ascendsim
