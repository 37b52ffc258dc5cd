#include "profiler/writers/communication/communication_timeline.h"

namespace ascendsim {

namespace {

// UINT32_MAX / UINT64_MAX: HCCL's "not applicable" model id and notify id.
constexpr std::uint64_t kInvalidModelId = 4294967295ULL;
constexpr std::uint64_t kNoNotifyId = UINT64_MAX;

bool isTransfer(HcclTaskKind kind) {
    return kind == HcclTaskKind::Memcpy || kind == HcclTaskKind::ReduceInline;
}

}  // namespace

std::uint64_t hcclNotifyId(const HcclTask& task) {
    if (task.kind == HcclTaskKind::Memcpy) return kNoNotifyId;
    if (task.kind == HcclTaskKind::ReduceInline) return 0;
    const std::uint64_t peer = task.dstRank == kNoPeerRank ? 0 : task.dstRank;
    if (task.kind == HcclTaskKind::NotifyRecord) return (peer << 32) | task.contextId;
    return task.contextId;
}

const char* hcclTaskName(HcclTaskKind kind) {
    switch (kind) {
        case HcclTaskKind::NotifyRecord:
            return "Notify_Record";
        case HcclTaskKind::NotifyWait:
            return "Notify_Wait";
        case HcclTaskKind::Memcpy:
            return "Memcpy";
        case HcclTaskKind::ReduceInline:
            return "Reduce_Inline";
    }
    return "Memcpy";
}

const char* hcclSqeTypeName(HcclTaskKind kind) {
    switch (kind) {
        case HcclTaskKind::NotifyRecord:
            return "Write Value";
        case HcclTaskKind::NotifyWait:
            return "Notify Wait";
        case HcclTaskKind::Memcpy:
        case HcclTaskKind::ReduceInline:
            return "SDMA";
    }
    return "SDMA";
}

const char* hcclTransportTypeName(const HcclTask& task) {
    if (task.kind == HcclTaskKind::NotifyWait) return "LOCAL";
    return task.link == HcclLinkType::Rdma ? "RDMA" : "SDMA";
}

const char* hcclLinkTypeName(HcclLinkType link) {
    switch (link) {
        case HcclLinkType::OnChip:
            return "ON_CHIP";
        case HcclLinkType::Hccs:
            return "HCCS";
        case HcclLinkType::Rdma:
            return "ROCE";
        case HcclLinkType::Sio:
            return "SIO";
        case HcclLinkType::Pcie:
            return "PCIE";
        case HcclLinkType::None:
            return "INVALID_TYPE";
    }
    return "INVALID_TYPE";
}

TraceMembers hcclOpArgs(const CommunicationOpRecord& op, FormatVersion version) {
    const bool cann83 = version == FormatVersion::Cann83;
    TraceMembers args(8);
    if (cann83) args.add("rank_size", op.rankSize);
    args.add("connection_id", op.correlationId);
    args.add("model id", kInvalidModelId);
    args.add("data_type", op.dataType);
    args.add("alg_type", op.algorithm);
    args.add("count", op.count);
    if (cann83) {
        // Assumed values: the run has no HCCL retry or relay (values not seen in a sample).
        args.add("relay", "no");
        args.add("retry", "no");
    }
    return args;
}

TraceMembers hcclTaskArgs(const CommunicationOpRecord& op, const HcclTask& task) {
    TraceMembers args(14);
    const double durationUs = static_cast<double>(task.durationNs) / 1000.0;
    args.add("notify_id", std::to_string(hcclNotifyId(task)));
    args.add("duration estimated(us)", durationUs);
    args.add("stream id", op.streamId);
    args.add("task id", op.taskId);
    args.add("context id", task.contextId);
    args.add("task type", hcclTaskName(task.kind));
    args.add("src rank", task.srcRank);
    args.add("dst rank", task.dstRank);
    args.add("transport type", hcclTransportTypeName(task));
    args.add("size(Byte)", task.sizeBytes);
    args.add("data type", task.kind == HcclTaskKind::ReduceInline ? op.dataType : std::string("INVALID_TYPE"));
    args.add("link type", hcclLinkTypeName(task.link));
    // Bytes per ns = GB/s (1e9), as the sample's 8404992 B in 727.7 us = 11.55.
    args.add("bandwidth(GB/s)", isTransfer(task.kind) && task.durationNs > 0
                                    ? static_cast<double>(task.sizeBytes) / static_cast<double>(task.durationNs)
                                    : 0.0);
    args.add("model id", kInvalidModelId);
    return args;
}

std::string hcclGroupThreadName() {
    return "Group 0 Communication";
}

std::string hcclPlaneThreadName(std::uint32_t plane) {
    return "Plane " + std::to_string(plane);
}

}  // namespace ascendsim
