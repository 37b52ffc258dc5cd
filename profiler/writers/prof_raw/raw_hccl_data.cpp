#include "profiler/writers/prof_raw/raw_hccl_data.h"

#include <algorithm>

#include "profiler/writers/communication/communication_timeline.h"
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

// HCCL names each task (itemId: Notify_Record, Notify_Wait, Memcpy, Reduce_Inline, the names msprof
// prints as the HCCL layer's task rows and "task type", as the e5a31957 trace shows them) and gives
// it its notify id (the one ascendsim's timelines print); a notify's role is src for a record, dst
// for a wait; a Reduce_Inline carries its reduction (sum), the others none.
RawHcclInfo hcclInfoOf(const CommunicationOpRecord& op, const HcclTask& task, RawTypeDictionary& dict) {
    RawHcclInfo r;
    r.header.level = RawHcclInfo::kLevel;
    r.header.type = dict.fixed(kRawLevelHccl, RawHcclInfo::kType, "hccl_info");
    r.itemId = dict.hashOf(hcclTaskName(task.kind));
    r.groupName = groupNumber(op.groupName);
    r.localRank = task.srcRank;
    r.remoteRank = task.dstRank;
    r.rankSize = op.rankSize;
    r.planeId = task.plane;
    r.contextId = task.contextId;
    r.notifyId = hcclNotifyId(task);
    r.role = task.kind == HcclTaskKind::NotifyWait ? kRoleDst : kRoleSrc;
    r.dataSize = task.sizeBytes;
    r.opType = task.kind == HcclTaskKind::ReduceInline ? kReduceSum : kRawHcclReserved;
    r.dataType = dataTypeNumber(op.dataType);
    r.linkType = linkNumber(task.link);
    r.transportType = transportNumber(task.link);
    const bool notify = task.kind == HcclTaskKind::NotifyRecord || task.kind == HcclTaskKind::NotifyWait;
    r.rdmaType = task.link == HcclLinkType::Rdma && !notify ? 1 : kRawHcclReserved;  // RDMA_SEND_PAYLOAD
    return r;
}

std::optional<HcclTask> hcclTaskOf(const RawHcclInfo& info, const std::string& taskName) {
    HcclTask t;
    bool named = false;
    for (HcclTaskKind kind : {HcclTaskKind::NotifyRecord, HcclTaskKind::NotifyWait, HcclTaskKind::Memcpy,
                              HcclTaskKind::ReduceInline})
        if (taskName == hcclTaskName(kind)) t.kind = kind, named = true;
    if (!named) return std::nullopt;
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

std::unordered_map<const CommunicationOpRecord*, CollectiveLaunchCalls> collectiveLaunchCalls(const RunRecord& run) {
    std::unordered_map<std::uint64_t, const ApiRecord*> launchByConn;
    std::map<std::pair<std::uint32_t, std::uint64_t>, const ApiRecord*> hcclCallByStart;  // (thread, start)
    for (const ApiRecord& api : run.apis) {
        if (api.level == ApiLevel::Node && api.name == "launch") launchByConn.emplace(api.connectionId, &api);
        if (api.level == ApiLevel::Communication) hcclCallByStart.emplace(std::make_pair(api.threadId, api.startNs), &api);
    }
    std::unordered_map<const CommunicationOpRecord*, CollectiveLaunchCalls> calls;
    for (const CommunicationOpRecord& op : run.communicationOps) {
        const auto launch = launchByConn.find(op.correlationId);
        if (launch == launchByConn.end()) continue;
        const ApiRecord& node = *launch->second;
        CollectiveLaunchCalls c{&node, nullptr};
        const auto hccl = hcclCallByStart.lower_bound({node.threadId, node.startNs});
        if (hccl != hcclCallByStart.end() && hccl->first.first == node.threadId && hccl->second->endNs <= node.endNs)
            c.hccl = hccl->second;
        calls.emplace(&op, c);
    }
    return calls;
}

std::map<std::string, std::string> rawHcclDataFiles(const RunRecord& run, const ProfilerConfig& config,
                                                    RawTypeDictionary& dict) {
    const Era2023DataSelection selection = era2023DataSelection(config);
    const auto calls = collectiveLaunchCalls(run);
    RawRecordBuffer infos, opInfos, contextIds;
    for (const CommunicationOpRecord& op : run.communicationOps) {
        const auto launch = calls.find(&op);
        if (launch == calls.end()) continue;
        const ApiRecord& node = *launch->second.node;
        RawHcclOpInfo o;
        o.header = {RawHcclOpInfo::kLevel, dict.fixed(kRawLevelNode, RawHcclOpInfo::kType, "hccl_op_info"),
                    node.threadId, RawHcclOpInfo::kDataBytes, rawSysCount(run, node.startNs)};
        o.dataType = static_cast<std::uint8_t>(dataTypeNumber(op.dataType));
        o.algType = dict.hashOf(op.algorithm);
        o.count = op.count;
        o.groupName = groupNumber(op.groupName);
        encodeRaw(o, opInfos);
        const ApiRecord* hccl = launch->second.hccl;
        if (!selection.hccl || hccl == nullptr || op.tasks.empty()) continue;
        const std::uint64_t ticks = rawSysCount(run, hccl->startNs);
        for (const HcclTask& task : op.tasks) {
            RawHcclInfo r = hcclInfoOf(op, task, dict);
            r.header.threadId = hccl->threadId;
            r.header.timestamp = ticks;
            encodeRaw(r, infos);
        }
        // The contexts' range, reported once after the tasks (get_context_ids_in_hccl reads the last).
        const auto [first, last] = std::minmax_element(op.tasks.begin(), op.tasks.end(), [](const HcclTask& a, const HcclTask& b) {
            return a.contextId < b.contextId;
        });
        RawContextIdInfo c;
        c.header.level = RawContextIdInfo::kHcclLevel;
        c.header.threadId = hccl->threadId;
        c.header.timestamp = ticks;
        c.opName = dict.hashOf(op.name);
        c.contextIds = {first->contextId, last->contextId};
        encodeRaw(c, contextIds);
    }
    std::map<std::string, std::string> files;
    if (infos.size() > 0) files["unaging.additional.hccl_info.slice_0"] = infos.bytes();
    if (opInfos.size() > 0) files["aging.compact.hccl_op_info.slice_0"] = opInfos.bytes();
    if (contextIds.size() > 0) files["unaging.additional.context_id_info.slice_0"] = contextIds.bytes();
    return files;
}

}  // namespace ascendsim
