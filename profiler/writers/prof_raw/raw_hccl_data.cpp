#include "profiler/writers/prof_raw/raw_hccl_data.h"

#include <unordered_map>

#include "profiler/writers/db/db_cann_enums.h"
#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/prof_raw/raw_clock.h"

namespace ascendsim {

namespace {

// hccl_info_common.py LinkType / TransPortType / RoleType.
constexpr std::uint32_t kLinkOnChip = 0, kLinkHccs = 1, kLinkPcie = 2, kLinkRoce = 3, kLinkSio = 4;
constexpr std::uint32_t kTransportSdma = 0, kTransportRdma = 1, kTransportLocal = 2;
constexpr std::uint32_t kRoleDst = 0, kRoleSrc = 1;
constexpr std::uint32_t kReduceSum = 0;

std::uint32_t linkNumber(HcclLinkType link) {
    switch (link) {
        case HcclLinkType::OnChip: return kLinkOnChip;
        case HcclLinkType::Hccs: return kLinkHccs;
        case HcclLinkType::Pcie: return kLinkPcie;
        case HcclLinkType::Rdma: return kLinkRoce;
        case HcclLinkType::Sio: return kLinkSio;
        case HcclLinkType::None: break;
    }
    return kRawHcclReserved;
}

std::optional<HcclLinkType> linkOf(std::uint32_t n) {
    switch (n) {
        case kLinkOnChip: return HcclLinkType::OnChip;
        case kLinkHccs: return HcclLinkType::Hccs;
        case kLinkPcie: return HcclLinkType::Pcie;
        case kLinkRoce: return HcclLinkType::Rdma;
        case kLinkSio: return HcclLinkType::Sio;
        case kRawHcclReserved: return HcclLinkType::None;
        default: return std::nullopt;
    }
}

std::uint32_t transportNumber(HcclLinkType link) {
    if (link == HcclLinkType::Rdma) return kTransportRdma;
    if (link == HcclLinkType::None) return kTransportLocal;
    return kTransportSdma;
}

// A group name is HCCL's communicator hash, a decimal u64 ("17522688603477080586").
std::uint64_t groupNumber(const std::string& group) {
    std::uint64_t v = 0;
    for (char c : group) {
        if (c < '0' || c > '9') return 0;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v;
}

// HCCL's data type number (hccl_info_common.py DataType); RESERVED for a name it does not have.
std::uint32_t dataTypeNumber(const std::string& name) {
    const std::int64_t id = hcclDataTypeId(name);
    return id < 0 || id > 0xFF ? kRawHcclReserved : static_cast<std::uint32_t>(id);
}

}  // namespace

// The kind travels in the fields HCCL fills per task (assumed, docs/output-formats.md): a notify
// carries a notify id (its plane) and its role (record: src, wait: dst); a copy carries no notify
// id and no reduction; a Reduce_Inline carries its reduction (sum).
RawHcclInfo hcclInfoOf(const CommunicationOpRecord& op, const HcclTask& task) {
    RawHcclInfo r;
    r.groupName = groupNumber(op.groupName);
    r.localRank = task.srcRank;
    r.remoteRank = task.dstRank;
    r.rankSize = op.rankSize;
    r.planeId = task.plane;
    r.contextId = task.contextId;
    const bool notify = task.kind == HcclTaskKind::NotifyRecord || task.kind == HcclTaskKind::NotifyWait;
    r.notifyId = notify ? task.plane : kRawHcclNoNotify;
    r.role = task.kind == HcclTaskKind::NotifyWait ? kRoleDst : kRoleSrc;
    r.dataSize = task.sizeBytes;
    r.opType = task.kind == HcclTaskKind::ReduceInline ? kReduceSum : kRawHcclReserved;
    r.dataType = dataTypeNumber(op.dataType);
    r.linkType = linkNumber(task.link);
    r.transportType = transportNumber(task.link);
    r.rdmaType = task.link == HcclLinkType::Rdma && !notify ? 1 : kRawHcclReserved;  // RDMA_SEND_PAYLOAD
    return r;
}

std::optional<HcclTask> hcclTaskOf(const RawHcclInfo& info) {
    HcclTask t;
    if (info.notifyId != kRawHcclNoNotify) t.kind = info.role == kRoleDst ? HcclTaskKind::NotifyWait : HcclTaskKind::NotifyRecord;
    else if (info.opType == kRawHcclReserved) t.kind = HcclTaskKind::Memcpy;
    else if (info.opType == kReduceSum) t.kind = HcclTaskKind::ReduceInline;
    else return std::nullopt;
    const auto link = linkOf(info.linkType);
    if (!link) return std::nullopt;
    t.link = *link;
    t.plane = info.planeId;
    t.contextId = info.contextId;
    t.srcRank = info.localRank;
    t.dstRank = info.remoteRank;
    t.sizeBytes = info.dataSize;
    return t;
}

std::map<std::string, std::string> rawHcclDataFiles(const RunRecord& run, const ProfilerConfig& config,
                                                    RawTypeDictionary& dict) {
    const Era2023DataSelection selection = era2023DataSelection(config);
    std::unordered_map<std::uint64_t, const ApiRecord*> launchByConn;
    for (const ApiRecord& api : run.apis)
        if (api.level == ApiLevel::Node && api.name == "launch") launchByConn.emplace(api.connectionId, &api);
    RawRecordBuffer infos, opInfos;
    for (const CommunicationOpRecord& op : run.communicationOps) {
        const auto launch = launchByConn.find(op.correlationId);
        if (launch == launchByConn.end()) continue;
        const std::uint32_t thread = launch->second->threadId;
        const std::uint64_t ticks = rawSysCount(run, launch->second->startNs);
        RawHcclOpInfo o;
        o.header = {RawHcclOpInfo::kLevel, dict.fixed(kRawLevelNode, RawHcclOpInfo::kType, "hccl_op_info"), thread,
                    RawHcclOpInfo::kDataBytes, ticks};
        o.dataType = static_cast<std::uint8_t>(dataTypeNumber(op.dataType));
        o.algType = dict.hashOf(op.algorithm);
        o.count = op.count;
        o.groupName = groupNumber(op.groupName);
        encodeRaw(o, opInfos);
        if (!selection.hccl) continue;
        for (const HcclTask& task : op.tasks) {
            RawHcclInfo r = hcclInfoOf(op, task);
            r.header.level = RawHcclInfo::kLevel;
            r.header.type = dict.fixed(kRawLevelHccl, RawHcclInfo::kType, "hccl_info");
            r.header.threadId = thread;
            r.header.timestamp = ticks;
            r.itemId = dict.hashOf(op.name);
            encodeRaw(r, infos);
        }
    }
    std::map<std::string, std::string> files;
    if (infos.size() > 0) files["unaging.additional.hccl_info.slice_0"] = infos.bytes();
    if (opInfos.size() > 0) files["aging.compact.hccl_op_info.slice_0"] = opInfos.bytes();
    return files;
}

}  // namespace ascendsim
