#pragma once
// Collective (HCCL) ops of a workload: how they are recognised, lowered to a per-rank schedule of
// link tasks instead of AI core kernels, and named the way CANN's HCCL trace names them.
#include <cstdint>
#include <optional>
#include <string>

#include "models/chip/chip_config.h"
#include "models/collective/hccl_task.h"
#include "models/kernels/op_instance.h"

namespace ascendsim {

// The stream HCCL's tasks run on (the real Level1 sample's HCCL stream is 4; compute is 2).
inline constexpr std::uint32_t kCommunicationStreamId = 4;

// The collectives a workload can hold (HcomAllReduce, HcomAllGather, HcomReduceScatter,
// HcomBroadcast), each planned by its mesh model in models/kernels/hccl_*.h.
enum class CollectiveKind : std::uint8_t { AllReduce, AllGather, ReduceScatter, Broadcast };

// The kind of a workload op type; nullopt for an op that is not a collective.
std::optional<CollectiveKind> collectiveKindOf(const std::string& opType);
bool isCollectiveOpType(const std::string& opType);

// What the engine needs of one collective op: its size and the time it takes on every rank.
struct LoweredCollective {
    CollectiveKind kind = CollectiveKind::AllReduce;
    // The bytes the model plans with: the buffer (AllReduce, Broadcast), one rank's input
    // (AllGather) or one rank's output (ReduceScatter).
    std::uint64_t bytes = 0;
    // Elements, as HCCL's API counts them: the buffer's (AllReduce, Broadcast), sendCount
    // (AllGather: one rank's input), recvCount (ReduceScatter: one rank's output).
    std::uint64_t count = 0;
    DataType dtype = DataType::Fp32;
    std::uint32_t ranks = 0;  // of its group
    std::string group = "world";  // the `parallel:` group kind it spans (its `group` attribute)
    std::uint64_t durationNs =
        0;  // identical on every rank (the schedule ends each phase together)
};

// `groupRanks`: the ranks of the op's group (Workload::groupSize of its `group` attribute).
// Throws std::invalid_argument when the chip has no link model or `groupRanks` does not fit it.
LoweredCollective lowerCollective(const OpInstance& op, std::uint32_t groupRanks,
                                  const ChipConfig& chip);

// The `group` attribute of a collective op ("world" when absent).
std::string collectiveGroupOf(const OpInstance& op);

// `rank`'s tasks of a lowered collective (the model's schedule for that rank).
CollectiveSchedule collectiveScheduleFor(const LoweredCollective& collective, std::uint32_t rank,
                                         const ChipConfig& chip);

// The schedule of a rank that arrived `waitNs` before its group's last rank: a Notify_Wait on the
// main stream spans the wait (the early ranks' long first Notify_Wait of real cluster traces),
// then the usual tasks follow.
CollectiveSchedule collectiveScheduleAfterWait(const LoweredCollective& collective, std::uint32_t rank,
                                               const ChipConfig& chip, std::uint64_t waitNs);

// HCCL's spelling of a reduction dtype: "FP32", "FP16", "BFP16", "INT8", "INT32", "INT64", ...
std::string hcclDataTypeName(DataType dtype);

// The world communicator's name as the HCCL trace shows it: a 64-bit hash printed in decimal.
// Assumption: FNV-1a of torch's default group name "hccl_world_group" (the real value is a hash
// HCCL computes from the rank table, which a simulation has none of).
std::string worldGroupHash();

// The AscendCL API HCCL reports the op under, the kernel_details Type: "hcom_allReduce_",
// "hcom_allGather_", "hcom_reduceScatter_", "hcom_broadcast_" ([D] e5a31957 test_data and
// ef63bc64 level2 kernel_details.csv / api_statistic.csv).
const char* collectiveApiName(CollectiveKind kind);

// The torch_npu op record of the c10d call ("HcclAllreduce" for dist.all_reduce).
// Assumption for the other three: ProcessGroupHCCL's names "HcclAllgather",
// "HcclReduceScatter", "HcclBroadcast"; no sample trace shows them.
const char* collectiveNpuOpName(CollectiveKind kind);

// HCCL's alg_type: the communicator's level-0 and level-1 algorithms ("MESH-RING" in the
// e5a31957 trace). Assumption: the same for every op of a one-server communicator, since the
// samples' traces hold only allreduces.
inline constexpr const char* kMeshAlgorithmName = "MESH-RING";

// "hcom_allReduce__<last 3 digits of the group hash>_<n>_1": HCCL numbers a communicator's ops of one
// iteration from 0 whatever their kind ([D] e5a31957 test_data: broadcast _0, _1, allReduce _2,
// allGather _3, ...); the sample's prefix is the last three digits of the group hash.
std::string collectiveOpName(CollectiveKind kind, const std::string& groupHash,
                             std::uint32_t indexInStep);

}  // namespace ascendsim
