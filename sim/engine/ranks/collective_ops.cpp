#include "sim/engine/ranks/collective_ops.h"

#include "sim/workload/parallel/parallel_layout.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>


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
    {CollectiveKind::Reduce, "HcomReduce", "hcom_reduce_", "HcclReduce"},
    {CollectiveKind::AllToAll, "HcomAllToAll", "hcom_alltoall_", "HcclAlltoAll"},
    {CollectiveKind::AllToAllV, "HcomAllToAllV", "hcom_alltoallv_", "HcclAlltoAllV"},
    {CollectiveKind::Send, "HcomSend", "hcom_send_", "HcclSend"},
    {CollectiveKind::Recv, "HcomReceive", "hcom_receive_", "HcclRecv"},
    {CollectiveKind::BatchSendRecv, "HcomBatchSendRecv", "hcom_batchSendRecv_",
     "HcclBatchSendRecv"},
};

std::int64_t intAttr(const OpInstance& op, const std::string& key, std::int64_t fallback) {
    const auto it = op.attrs.find(key);
    if (it == op.attrs.end()) return fallback;
    return std::get<std::int64_t>(it->second);
}

std::vector<std::int64_t> intsAttr(const OpInstance& op, const std::string& key) {
    const auto it = op.attrs.find(key);
    if (it == op.attrs.end()) throw std::invalid_argument(op.type + " needs attrs." + key);
    return std::get<std::vector<std::int64_t>>(it->second);
}

std::uint32_t groupRankAttr(const OpInstance& op, const std::string& key, std::int64_t value,
                            std::size_t members) {
    if (value < 0 || static_cast<std::size_t>(value) >= members)
        throw std::invalid_argument(op.type + " attrs." + key + " " + std::to_string(value) +
                                    " is outside the group of " + std::to_string(members));
    return static_cast<std::uint32_t>(value);
}

// Bytes of one dim-0 row of `tensor`.
std::uint64_t rowBytes(const TensorInfo& tensor) {
    const std::int64_t rows = tensor.shape.empty() ? 1 : tensor.shape.front();
    return rows > 0 ? tensor.bytes() / static_cast<std::uint64_t>(rows) : 0;
}

// The plan request of `op` issued by group rank `member`.
CollectiveRequest requestOf(const OpInstance& op, CollectiveKind kind,
                            const std::vector<std::uint32_t>& groupRanks, std::uint32_t member) {
    const std::size_t n = groupRanks.size();
    CollectiveRequest r;
    r.op = kind;
    r.groupRanks = groupRanks;
    r.member = member;
    // ReduceScatter plans with one rank's output; the others with the input.
    r.bytes = kind == CollectiveKind::ReduceScatter ? op.outputs.front().bytes()
                                                    : op.inputs.front().bytes();
    switch (kind) {
        case CollectiveKind::Broadcast:
        case CollectiveKind::Reduce:
            r.root = groupRankAttr(op, "root", intAttr(op, "root", 0), n);
            break;
        case CollectiveKind::AllToAll:
            r.bytes /= n;  // the input holds one equal block per member
            break;
        case CollectiveKind::AllToAllV: {
            const std::vector<std::int64_t> counts = intsAttr(op, "send_counts");
            if (counts.size() != n)
                throw std::invalid_argument(op.type + " attrs.send_counts needs one count per "
                                            "member (" + std::to_string(n) + ")");
            std::vector<std::uint64_t> row;
            for (const std::int64_t c : counts)
                row.push_back(static_cast<std::uint64_t>(std::max<std::int64_t>(c, 0)) *
                              rowBytes(op.inputs.front()));
            r.sendBytes.assign(n, row);
            break;
        }
        case CollectiveKind::Send:
            r.messages.push_back(
                {member, groupRankAttr(op, "peer", intAttr(op, "peer", -1), n), r.bytes});
            break;
        case CollectiveKind::Recv:
            r.messages.push_back(
                {groupRankAttr(op, "peer", intAttr(op, "peer", -1), n), member, r.bytes});
            break;
        case CollectiveKind::BatchSendRecv: {
            const std::vector<std::int64_t> to = intsAttr(op, "send_to");
            const std::vector<std::int64_t> from = intsAttr(op, "recv_from");
            for (const std::int64_t peer : to)
                r.messages.push_back({member, groupRankAttr(op, "send_to", peer, n),
                                      op.inputs.front().bytes() / to.size()});
            for (const std::int64_t peer : from)
                r.messages.push_back({groupRankAttr(op, "recv_from", peer, n), member,
                                      op.outputs.front().bytes() / from.size()});
            break;
        }
        case CollectiveKind::AllReduce:
        case CollectiveKind::AllGather:
        case CollectiveKind::ReduceScatter:
            break;
    }
    return r;
}

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

LoweredCollective lowerCollective(const OpInstance& op, std::uint32_t ranks,
                                  const ChipConfig& chip) {
    std::vector<std::uint32_t> world(ranks);
    std::iota(world.begin(), world.end(), 0u);
    return lowerCollective(op, world, 0, chip);
}

LoweredCollective lowerCollective(const OpInstance& op,
                                  const std::vector<std::uint32_t>& groupRanks,
                                  std::uint32_t member, const ChipConfig& chip) {
    const std::optional<CollectiveKind> kind = collectiveKindOf(op.type);
    if (!kind) throw std::invalid_argument(op.type + " is not a collective");
    if (op.inputs.empty() || op.outputs.empty())
        throw std::invalid_argument(op.type + " needs its input and output tensors");
    if (groupRanks.size() < 2)
        throw std::invalid_argument(op.type + " needs a group of at least 2 ranks");
    const ClusterTopology topology(chip.hccl);
    LoweredCollective c;
    c.kind = *kind;
    c.plan = planCollective(requestOf(op, *kind, groupRanks, member), topology);
    c.bytes = c.plan.request.bytes;
    const TensorInfo& tensor =
        *kind == CollectiveKind::ReduceScatter ? op.outputs.front() : op.inputs.front();
    c.count = tensor.elementCount();
    c.dtype = tensor.dtype;
    c.ranks = static_cast<std::uint32_t>(groupRanks.size());
    c.group = collectiveGroupOf(op);
    c.durationNs = c.plan.durationNs;
    return c;
}

CollectiveSchedule collectiveScheduleFor(const LoweredCollective& collective, std::uint32_t rank,
                                         const ChipConfig& chip) {
    return memberSchedule(collective.plan, rank, ClusterTopology(chip.hccl));
}

CollectiveSchedule collectiveScheduleAfterWait(const LoweredCollective& collective, std::uint32_t rank,
                                               const ChipConfig& chip, std::uint64_t waitNs) {
    // hccl's model of arrivals (collective_timeline.cpp): this member arrives first, the rest of
    // its group waitNs later; it runs up to its first Notify_Wait and waits there.
    std::vector<std::uint64_t> arrivals(collective.plan.request.groupRanks.size(), waitNs);
    arrivals.at(rank) = 0;
    const ClusterTopology topology(chip.hccl);
    CollectiveSchedule schedule = memberTimeline(collective.plan, rank, arrivals, topology).schedule;
    const bool waited = std::any_of(schedule.tasks.begin(), schedule.tasks.end(),
                                    [](const HcclTask& t) { return t.kind == HcclTaskKind::NotifyWait; });
    if (waitNs == 0 || waited) return schedule;
    // A schedule without a handshake still waits for its group (the op ends at the release):
    // the wait comes first.
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
