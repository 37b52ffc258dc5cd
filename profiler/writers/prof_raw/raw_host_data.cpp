#include "profiler/writers/prof_raw/raw_host_data.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/prof_raw/raw_clock.h"
#include "profiler/writers/prof_raw/raw_ge_enums.h"
#include "profiler/writers/prof_raw/raw_hccl_data.h"
#include "profiler/writers/prof_raw/raw_layouts.h"
#include "profiler/writers/timeline/ascend_tasks.h"

namespace ascendsim {

namespace {

// prof_common.h report types.
constexpr std::uint32_t kAclOpBase = 0x010000, kAclRuntimeBase = 0x030000, kAclNnBase = 0x050000,
                        kAclHostHcclBase = 0x070000;
constexpr std::uint32_t kNodeBasicInfoType = 0, kNodeLaunchType = 5, kNodeGeApiBase = 0x010000;
constexpr std::uint32_t kModelBase = 0x000000;
constexpr std::uint32_t kHcclMasterType = 0x010001;

struct ApiType {
    std::uint16_t level;
    std::uint32_t type;
    std::uint64_t itemId;
};

// GE's node name of each launch: the kernel's or the collective's it launches, by connection id.
using NodeNames = std::unordered_map<std::uint64_t, const std::string*>;

ApiType apiType(const ApiRecord& api, const NodeNames& nodeByConn, RawTypeDictionary& dict) {
    switch (api.level) {
        case ApiLevel::Acl: {
            std::uint32_t base = kAclOpBase;
            if (api.name.starts_with("aclnn")) base = kAclNnBase;
            else if (api.name.starts_with("aclrt")) base = kAclRuntimeBase;
            else if (api.name.starts_with("hcom")) base = kAclHostHcclBase;
            return {kRawLevelAcl, dict.typeOf(kRawLevelAcl, base, api.name), 0};
        }
        case ApiLevel::Node: {
            const auto it = nodeByConn.find(api.connectionId);
            const std::uint64_t item = dict.hashOf(it != nodeByConn.end() ? *it->second : api.name);
            const std::uint32_t type = api.name == "launch" ? dict.fixed(kRawLevelNode, kNodeLaunchType, "launch")
                                                            : dict.typeOf(kRawLevelNode, kNodeGeApiBase, api.name);
            return {kRawLevelNode, type, item};
        }
        case ApiLevel::Model:
            return {kRawLevelModel, dict.typeOf(kRawLevelModel, kModelBase, api.name), dict.hashOf(api.name)};
        case ApiLevel::Communication:
            return {kRawLevelHccl, dict.fixed(kRawLevelHccl, kHcclMasterType, "master"), dict.hashOf(api.name)};
        case ApiLevel::Runtime:
            return {kRawLevelRuntime, dict.typeOf(kRawLevelRuntime, 0, api.name), 0};
    }
    return {kRawLevelAcl, 0, 0};
}

bool apiSelected(const ApiRecord& api, const Era2023DataSelection& selection) {
    if (api.level == ApiLevel::Acl) return selection.apiLayer;
    if (api.level == ApiLevel::Communication) return selection.hccl;
    return true;
}

void nodeBasicInfo(RawRecordBuffer& out, const KernelRecord& kernel, std::uint32_t threadId, std::uint64_t ticks,
                   RawTypeDictionary& dict) {
    RawNodeBasicInfo r;
    r.header = {kRawLevelNode, dict.fixed(kRawLevelNode, kNodeBasicInfoType, "node_basic_info"), threadId,
                RawNodeBasicInfo::kDataBytes, ticks};
    r.opName = dict.hashOf(kernel.name);
    r.taskType = geTaskTypeOf(kernel.device.type);
    r.opType = dict.hashOf(kernel.opType);
    // blockNum: block dim in the low 16 bits; for MIX kernels the high 16 bits hold the ratio
    // whose product with the block dim is the mix block dim (node_basic_info_bean.py mix_block_num).
    const std::uint32_t blockDim = kernel.device.blockDim;
    const std::uint32_t ratio = blockDim == 0 ? 0 : kernel.device.mixBlockDim / blockDim;
    r.blockNum = (blockDim & 0xFFFFu) | (ratio << 16);
    r.opFlag = kernel.hf32Eligible ? 1 : 0;  // cann_analysis_gear.py: "YES" if op_flag else "NO"
    encodeRaw(r, out);
}

// GE reports a collective's node like a kernel's, of task type HCCL (ge_enum_constant.py GeTaskType
// 9; msprof reads its op type from it, cann_analysis_gear.py add_hccl_op).
void collectiveNodeBasicInfo(RawRecordBuffer& out, const CommunicationOpRecord& op, std::uint32_t threadId,
                             std::uint64_t ticks, RawTypeDictionary& dict) {
    RawNodeBasicInfo r;
    r.header = {kRawLevelNode, dict.fixed(kRawLevelNode, kNodeBasicInfoType, "node_basic_info"), threadId,
                RawNodeBasicInfo::kDataBytes, ticks};
    r.opName = dict.hashOf(op.name);
    r.taskType = kGeTaskTypeHccl;
    r.opType = dict.hashOf(op.opType);
    encodeRaw(r, out);
}

// The runtime's name of a task's type. MIX kernels are KERNEL_MIX_AIC / KERNEL_MIX_AIV, the names
// for which msprof gives a host task GE's context ids "4294967295,0" (cann_analysis_gear.py
// get_context_ids), so that it pairs with the FFTS+ sub-task (context 0) the STARS log reports.
std::string runtimeTaskType(const AscendTask& task) {
    if (task.kernel != nullptr && task.kernel->device.type == TaskType::MixAic) return "KERNEL_MIX_AIC";
    if (task.kernel != nullptr && task.kernel->device.type == TaskType::MixAiv) return "KERNEL_MIX_AIV";
    return task.ascendType;
}

void taskTrack(RawRecordBuffer& out, const RunRecord& run, const AscendTask& task, std::uint32_t threadId,
               std::uint64_t ticks, RawTypeDictionary& dict) {
    RawTaskTrack r;
    r.header = {kRawLevelRuntime, dict.typeOf(kRawLevelRuntime, 0, "task_track"), threadId, RawTaskTrack::kDataBytes,
                ticks};
    r.deviceId = static_cast<std::uint16_t>(run.deviceId & 0x0FFFu);  // devType 0 (NPU) in the high 4 bits
    r.streamId = static_cast<std::uint16_t>(task.streamId);
    r.taskId = task.taskId;
    r.taskType = dict.typeOf(kRawLevelRuntime, 0, runtimeTaskType(task));
    r.kernelName = task.kernel != nullptr       ? dict.hashOf(task.kernel->name)
                   : task.collective != nullptr ? dict.hashOf(task.collective->name)
                                                : 0;
    encodeRaw(r, out);
}

RawTensorData tensorData(const TensorDescription& t, std::uint32_t tensorType) {
    RawTensorData d;
    d.tensorType = tensorType;
    d.format = geFormatNumber(t.format);
    d.dataType = geDataTypeNumber(t.dtype);
    std::size_t dim = 0;
    std::size_t pos = 0;
    while (pos < t.shape.size() && dim < d.shape.size()) {
        const std::size_t comma = std::min(t.shape.find(',', pos), t.shape.size());
        d.shape[dim++] = static_cast<std::uint32_t>(std::stoull(t.shape.substr(pos, comma - pos)));
        pos = comma + 1;
    }
    return d;
}

// GE reports a node's tensors beside its basic info: inputs then outputs, five to a record.
void tensorInfo(RawRecordBuffer& out, const KernelRecord& kernel, std::uint32_t threadId, std::uint64_t ticks,
                RawTypeDictionary& dict) {
    std::vector<RawTensorData> all;
    for (const TensorDescription& t : kernel.inputs) all.push_back(tensorData(t, 0));
    for (const TensorDescription& t : kernel.outputs) all.push_back(tensorData(t, 1));
    for (std::size_t i = 0; i < all.size(); i += RawTensorInfo::kTensorsPerRecord) {
        RawTensorInfo r;
        r.header.threadId = threadId;
        r.header.timestamp = ticks;
        r.opName = dict.hashOf(kernel.name);
        const std::size_t end = std::min(all.size(), i + RawTensorInfo::kTensorsPerRecord);
        r.tensors.assign(all.begin() + static_cast<std::ptrdiff_t>(i), all.begin() + static_cast<std::ptrdiff_t>(end));
        encodeRaw(r, out);
    }
}

// A MIX kernel runs as one FFTS+ context, id 0: GE reports it beside the node's basic info.
void contextIdInfo(RawRecordBuffer& out, const KernelRecord& kernel, std::uint32_t threadId, std::uint64_t ticks,
                   RawTypeDictionary& dict) {
    RawContextIdInfo r;
    r.header.threadId = threadId;
    r.header.timestamp = ticks;
    r.opName = dict.hashOf(kernel.name);
    r.contextIds = {0};
    encodeRaw(r, out);
}

}  // namespace

std::map<std::string, std::string> rawHostDataFiles(const RunRecord& run, const ProfilerConfig& config,
                                                    RawTypeDictionary& dict) {
    const Era2023DataSelection selection = era2023DataSelection(config);
    std::unordered_map<std::uint64_t, const KernelRecord*> kernelByConn;
    NodeNames nodeByConn;
    for (const KernelRecord& k : run.kernels) {
        kernelByConn.emplace(k.correlationId, &k);
        nodeByConn.emplace(k.correlationId, &k.name);
    }
    std::unordered_map<std::uint64_t, const CommunicationOpRecord*> collectiveByConn;
    for (const CommunicationOpRecord& op : run.communicationOps) {
        collectiveByConn.emplace(op.correlationId, &op);
        nodeByConn.emplace(op.correlationId, &op.name);
    }
    std::unordered_map<std::uint64_t, const MemcpyTaskRecord*> memcpyByConn;
    for (const MemcpyTaskRecord& m : run.memcpyTasks) memcpyByConn.emplace(m.correlationId, &m);
    std::unordered_map<std::uint64_t, const StreamEventTaskRecord*> eventByConn;
    for (const StreamEventTaskRecord& e : run.eventTasks) eventByConn.emplace(e.correlationId, &e);

    RawRecordBuffer apis, nodes, tensors, tracks, contextIds;
    // The launching API of each device task: Node@launch for a kernel, the AscendCL call for a copy
    // (aclrtMemcpyAsync) or a stream event (aclrtRecordEvent / aclrtStreamWaitEvent).
    std::unordered_map<const void*, const ApiRecord*> launchOf;
    for (const ApiRecord& api : run.apis) {
        if (api.level == ApiLevel::Node && api.name == "launch") {
            if (auto it = kernelByConn.find(api.connectionId); it != kernelByConn.end()) launchOf[it->second] = &api;
            if (auto it = collectiveByConn.find(api.connectionId); it != collectiveByConn.end())
                launchOf[it->second] = &api;
        } else if (api.level == ApiLevel::Acl) {
            if (auto it = memcpyByConn.find(api.connectionId); it != memcpyByConn.end()) launchOf[it->second] = &api;
            if (auto it = eventByConn.find(api.connectionId); it != eventByConn.end()) launchOf[it->second] = &api;
        }
        if (!apiSelected(api, selection)) continue;
        const ApiType t = apiType(api, nodeByConn, dict);
        encodeRaw(RawApiEvent{t.level, t.type, api.threadId, rawSysCount(run, api.startNs), rawSysCount(run, api.endNs),
                              t.itemId},
                  apis);
    }
    // GE reports a node's basic info when it launches it, and the runtime tracks the task it
    // submits inside that launch: both carry the launching thread and a time within the launch.
    for (const KernelRecord& k : run.kernels) {
        auto it = launchOf.find(&k);
        if (it == launchOf.end()) continue;
        nodeBasicInfo(nodes, k, it->second->threadId, rawSysCount(run, it->second->startNs), dict);
        if (selection.taskScheduler)
            tensorInfo(tensors, k, it->second->threadId, rawSysCount(run, it->second->startNs), dict);
        if (k.device.type == TaskType::MixAic || k.device.type == TaskType::MixAiv)
            contextIdInfo(contextIds, k, it->second->threadId, rawSysCount(run, it->second->startNs), dict);
    }
    for (const CommunicationOpRecord& op : run.communicationOps) {
        auto it = launchOf.find(&op);
        if (it != launchOf.end())
            collectiveNodeBasicInfo(nodes, op, it->second->threadId, rawSysCount(run, it->second->startNs), dict);
    }
    if (selection.taskScheduler) {
        const auto collectiveCalls = collectiveLaunchCalls(run);
        for (const AscendTask& task : ascendTasksOf(run, config)) {
            if (task.hcclTask != nullptr) continue;  // an FFTS+ context of its collective's task, not a task
            const void* key = task.kernel != nullptr       ? static_cast<const void*>(task.kernel)
                              : task.collective != nullptr ? static_cast<const void*>(task.collective)
                              : task.memcpy != nullptr     ? static_cast<const void*>(task.memcpy)
                                                           : static_cast<const void*>(task.event);
            auto it = launchOf.find(key);
            if (key == nullptr || it == launchOf.end()) continue;
            // The runtime tracks a task when the call that submits it ends: a collective's FFTS+
            // task is submitted inside HCCL's call (Launch_Ffts), whose event msprof hangs it on.
            const ApiRecord* submit = it->second;
            if (task.collective != nullptr) {
                const auto calls = collectiveCalls.find(task.collective);
                if (calls != collectiveCalls.end() && calls->second.hccl != nullptr) submit = calls->second.hccl;
            }
            taskTrack(tracks, run, task, submit->threadId, rawSysCount(run, submit->endNs), dict);
        }
    }
    std::map<std::string, std::string> files;
    if (apis.size() > 0) files["unaging.api_event.data.slice_0"] = apis.bytes();
    if (nodes.size() > 0) files["aging.compact.node_basic_info.slice_0"] = nodes.bytes();
    if (tracks.size() > 0) files["aging.compact.task_track.slice_0"] = tracks.bytes();
    if (tensors.size() > 0) files["unaging.additional.tensor_info.slice_0"] = tensors.bytes();
    if (contextIds.size() > 0) files["unaging.additional.context_id_info.slice_0"] = contextIds.bytes();
    return files;
}

}  // namespace ascendsim
