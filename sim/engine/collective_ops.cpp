#include "sim/engine/collective_ops.h"

#include <stdexcept>

#include "models/kernels/hccl_all_reduce.h"

namespace ascendsim {

bool isCollectiveOpType(const std::string& opType) {
    return opType == "HcomAllReduce";
}

LoweredCollective lowerCollective(const OpInstance& op, std::uint32_t ranks,
                                  const ChipConfig& chip) {
    if (op.inputs.empty()) throw std::invalid_argument(op.type + " needs the tensor it reduces");
    const TensorInfo& tensor = op.inputs.front();
    LoweredCollective c;
    c.bytes = tensor.bytes();
    c.count = tensor.elementCount();
    c.dtype = tensor.dtype;
    c.ranks = ranks;
    c.durationNs = planMeshAllReduce(c.bytes, ranks, 0, chip.hccl).durationNs;
    return c;
}

CollectiveSchedule collectiveScheduleFor(const LoweredCollective& collective, std::uint32_t rank,
                                         const ChipConfig& chip) {
    return planMeshAllReduce(collective.bytes, collective.ranks, rank, chip.hccl);
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

std::string worldGroupHash() {
    constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;
    constexpr std::uint64_t kFnvPrime = 1099511628211ULL;
    std::uint64_t hash = kFnvOffset;
    for (const char c : std::string("hccl_world_group")) {
        hash ^= static_cast<unsigned char>(c);
        hash *= kFnvPrime;
    }
    return std::to_string(hash);
}

std::string collectiveOpName(const std::string& groupHash, std::uint32_t indexInStep) {
    const std::string prefix =
        groupHash.size() > 3 ? groupHash.substr(groupHash.size() - 3) : groupHash;
    return std::string(kAllReduceApiName) + "_" + std::to_string(std::stoull(prefix)) + "_" +
           std::to_string(indexInStep) + "_1";
}

}  // namespace ascendsim
