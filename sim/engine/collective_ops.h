#pragma once
// Collective (HCCL) ops of a workload: how they are recognised, lowered to a per-rank schedule of
// link tasks instead of AI core kernels, and named the way CANN's HCCL trace names them.
#include <cstdint>
#include <string>

#include "models/chip/chip_config.h"
#include "models/kernels/hccl_task.h"
#include "models/kernels/op_instance.h"

namespace ascendsim {

// The stream HCCL's tasks run on (the real Level1 sample's HCCL stream is 4; compute is 2).
inline constexpr std::uint32_t kCommunicationStreamId = 4;

bool isCollectiveOpType(const std::string& opType);

// What the engine needs of one collective op: its size and the time it takes on every rank.
struct LoweredCollective {
    std::uint64_t bytes = 0;
    std::uint64_t count = 0;  // elements
    DataType dtype = DataType::Fp32;
    std::uint32_t ranks = 0;
    std::uint64_t durationNs =
        0;  // identical on every rank (the schedule ends each phase together)
};

// Throws std::invalid_argument when the chip has no link model or `ranks` does not fit it.
LoweredCollective lowerCollective(const OpInstance& op, std::uint32_t ranks,
                                  const ChipConfig& chip);

// `rank`'s tasks of a lowered collective (the model's schedule for that rank).
CollectiveSchedule collectiveScheduleFor(const LoweredCollective& collective, std::uint32_t rank,
                                         const ChipConfig& chip);

// HCCL's spelling of a reduction dtype: "FP32", "FP16", "BFP16", "INT8", "INT32", "INT64", ...
std::string hcclDataTypeName(DataType dtype);

// The world communicator's name as the HCCL trace shows it: a 64-bit hash printed in decimal.
// Assumption: FNV-1a of torch's default group name "hccl_world_group" (the real value is a hash
// HCCL computes from the rank table, which a simulation has none of).
std::string worldGroupHash();

// "hcom_allReduce__<group hash mod 1000>_<n>_1": HCCL numbers a communicator's ops of one
// iteration from 0; the sample's prefix is the last three digits of the group hash.
std::string collectiveOpName(const std::string& groupHash, std::uint32_t indexInStep);
inline constexpr const char* kAllReduceApiName = "hcom_allReduce_";

}  // namespace ascendsim
