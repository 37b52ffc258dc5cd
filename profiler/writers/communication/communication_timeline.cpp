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

OrderedJson hcclOpArgs(const CommunicationOpRecord& op, FormatVersion version) {
    const bool cann83 = version == FormatVersion::Cann83;
    OrderedJson args = jsonObjectWithRoom(8);
    if (cann83) args["rank_size"] = op.rankSize;
    args["connection_id"] = op.correlationId;
    args["model id"] = kInvalidModelId;
    args["data_type"] = op.dataType;
    args["alg_type"] = op.algorithm;
    args["count"] = op.count;
    if (cann83) {
        // Assumed values: the run has no HCCL retry or relay (values not seen in a sample).
        args["relay"] = "no";
        args["retry"] = "no";
    }
    return args;
}

OrderedJson hcclTaskArgs(const CommunicationOpRecord& op, const HcclTask& task) {
    OrderedJson args = jsonObjectWithRoom(14);
    const double durationUs = static_cast<double>(task.durationNs) / 1000.0;
    args["notify_id"] = std::to_string(hcclNotifyId(task));
    args["duration estimated(us)"] = durationUs;
    args["stream id"] = op.streamId;
    args["task id"] = op.taskId;
    args["context id"] = task.contextId;
    args["task type"] = hcclTaskName(task.kind);
    args["src rank"] = task.srcRank;
    args["dst rank"] = task.dstRank;
    args["transport type"] = hcclTransportTypeName(task);
    args["size(Byte)"] = task.sizeBytes;
    args["data type"] =
        task.kind == HcclTaskKind::ReduceInline ? op.dataType : std::string("INVALID_TYPE");
    args["link type"] = hcclLinkTypeName(task.link);
    // Bytes per ns = GB/s (1e9), as the sample's 8404992 B in 727.7 us = 11.55.
    args["bandwidth(GB/s)"] =
        isTransfer(task.kind) && task.durationNs > 0
            ? static_cast<double>(task.sizeBytes) / static_cast<double>(task.durationNs)
            : 0.0;
    args["model id"] = kInvalidModelId;
    return args;
}

std::string hcclGroupThreadName() {
    return "Group 0 Communication";
}

std::string hcclPlaneThreadName(std::uint32_t plane) {
    return "Plane " + std::to_string(plane);
}

}  // namespace ascendsim
