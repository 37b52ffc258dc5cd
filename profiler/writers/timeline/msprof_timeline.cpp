#include "profiler/writers/timeline/msprof_timeline.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "profiler/format/time_format.h"
#include "profiler/record/collection_span.h"
#include "profiler/writers/timeline/ascend_tasks.h"
#include "profiler/writers/communication/communication_timeline.h"
#include "profiler/writers/timeline/hardware_sample_timeline.h"
#include "profiler/writers/timeline/overlap_analysis.h"

namespace ascendsim {

namespace {

// msprof HOST_PID: host layers use this device id in the pid (json_constant.h).
constexpr std::uint32_t kHostDeviceId = 31;
// UINT32_MAX, msprof's "not applicable" for Model Id / Subtask Id.
constexpr std::uint64_t kInvalidId = 4294967295ULL;
// msprof CONN_OFFSET: HostToDevice flow ids are connection_id << 32 in the C++ writer.
constexpr int kConnectionIdShift = 32;

double nsToUsDouble(std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

// Builds events in the key order of the era's writer.
class EventFactory {
public:
    EventFactory(const RunRecord& run, const TimelineEra& era) : run_(run), era_(era) {}

    // An X event; `args` moved in (the hot path: one per kernel and HCCL task), none when null.
    TraceEvent duration(std::string name, std::uint32_t pid, std::uint64_t tid, std::uint64_t startNs,
                        std::uint64_t durNs, std::optional<TraceMembers> args) const {
        TraceEvent e{TraceMembers(7), {}};
        e.members.add("name", std::move(name)).add("pid", pid).add("tid", tid).add("ts", ts(startNs));
        e.members.add("dur", nsToUsDouble(durNs));
        if (era_.cppKeyOrder) {
            e.members.add("ph", "X");
            if (args) e.members.add("args", TraceValue::argsPlace());
        } else {
            if (args) e.members.add("args", TraceValue::argsPlace());
            e.members.add("ph", "X");
        }
        if (args) e.args = std::move(*args);
        return e;
    }

    TraceEvent counter(std::string name, std::uint32_t pid, std::uint64_t tsNs, TraceMembers args) const {
        TraceEvent e{TraceMembers(6), std::move(args)};
        e.members.add("name", std::move(name));
        if (era_.cppKeyOrder) {
            e.members.add("pid", pid).add("tid", 0).add("ts", ts(tsNs)).add("ph", "C");
            e.members.add("args", TraceValue::argsPlace());
        } else {
            e.members.add("ts", ts(tsNs)).add("pid", pid).add("tid", 0).add("args", TraceValue::argsPlace());
            e.members.add("ph", "C");
        }
        return e;
    }

    TraceEvent flow(const std::string& id, std::uint32_t pid, std::uint64_t tid, std::uint64_t tsNs, bool end) const {
        TraceEvent e{TraceMembers(8), {}};
        e.members.add("name", "HostToDevice" + id);
        const char* ph = end ? "f" : "s";
        if (era_.cppKeyOrder) {
            e.members.add("pid", pid).add("tid", tid).add("ph", ph).add("cat", "HostToDevice").add("id", id);
            e.members.add("ts", ts(tsNs));
            if (end) e.members.add("bp", "e");
        } else if (!end) {
            e.members.add("ph", ph).add("cat", "HostToDevice").add("id", id).add("pid", pid).add("tid", tid);
            e.members.add("ts", ts(tsNs));
        } else {
            e.members.add("ph", ph).add("id", id).add("ts", ts(tsNs)).add("cat", "HostToDevice").add("pid", pid);
            e.members.add("tid", tid).add("bp", "e");
        }
        return e;
    }

    // The flow start msprof adds to every mstx marker: the C++ writer (MsprofTxAssembler
    // GenerateTxExConnectionTrace) with the connection id, the Python export (checked: msprof's
    // export of ascendsim raw data) with the mark id and "bp": "e".
    TraceEvent mstxFlowStart(const MstxEventRecord& m, std::uint32_t pid) const {
        const std::string id = std::to_string(era_.cppKeyOrder ? mstxConnectionId(m) : m.markId);
        TraceEvent e{TraceMembers(8), {}};
        e.members.add("name", "MsTx_" + id);
        if (era_.cppKeyOrder) {
            e.members.add("pid", pid).add("tid", m.threadId).add("ph", "s").add("cat", "MsTx").add("id", id);
            e.members.add("ts", ts(m.startNs));
        } else {
            e.members.add("ph", "s").add("id", id).add("ts", ts(m.startNs)).add("cat", "MsTx").add("pid", pid);
            e.members.add("tid", m.threadId).add("bp", "e");
        }
        return e;
    }

    // A metadata event; `argKey` is a string literal.
    TraceEvent meta(const char* name, std::uint32_t pid, std::uint64_t tid, const char* argKey,
                    TraceValue argValue) const {
        TraceEvent e{TraceMembers(5), TraceMembers(1)};
        e.members.add("name", name).add("pid", pid).add("tid", tid);
        e.args.add(argKey, std::move(argValue));
        if (era_.cppKeyOrder) {
            e.members.add("ph", "M").add("args", TraceValue::argsPlace());
        } else {
            e.members.add("args", TraceValue::argsPlace()).add("ph", "M");
        }
        return e;
    }

private:
    TraceValue ts(std::uint64_t simNs) const { return TraceValue::timestamp(run_.epochNs + simNs); }

    const RunRecord& run_;
    const TimelineEra& era_;
};

// One process block: its metadata (process + threads) and its data events.
struct ProcessBlock {
    std::vector<TraceEvent> processMeta;  // name, labels, sort index
    std::vector<std::pair<TraceEvent, std::optional<TraceEvent>>> threadMeta;  // (thread_name, thread_sort_index)
    std::vector<TraceEvent> events;
};

void appendBlock(std::vector<TraceEvent>& meta, std::vector<TraceEvent>& data, ProcessBlock& block,
                 const TimelineEra& era) {
    const auto appendThreads = [&] {
        for (auto& [name, index] : block.threadMeta) {
            meta.push_back(std::move(name));
            if (index) meta.push_back(std::move(*index));
        }
    };
    if (era.cppKeyOrder) {
        for (auto& m : block.processMeta) meta.push_back(std::move(m));
        appendThreads();
    } else {
        // Python msprof: process_name, the threads, then labels and sort index.
        meta.push_back(std::move(block.processMeta[0]));
        appendThreads();
        for (std::size_t i = 1; i < block.processMeta.size(); ++i) meta.push_back(std::move(block.processMeta[i]));
    }
    for (auto& e : block.events) data.push_back(std::move(e));
}

struct ApiArgs {
    std::string mode, level, id, itemId;
};

ApiArgs apiArgs(const ApiRecord& api, const std::unordered_map<std::uint64_t, const KernelRecord*>& kernelByConn) {
    switch (api.level) {
        case ApiLevel::Acl: {
            std::string mode = "ACL_OP";
            if (api.name.starts_with("aclnn")) mode = "ACL_NN";
            else if (api.name.starts_with("aclrt")) mode = "ACL_RTS";
            else if (api.name.starts_with("hcom")) mode = "HOST_HCCL";
            return {mode, "acl", api.name, "0"};
        }
        case ApiLevel::Node: {
            auto it = kernelByConn.find(api.connectionId);
            return {api.name, "node", "0", it != kernelByConn.end() ? it->second->name : api.name};
        }
        case ApiLevel::Model: return {api.name, "model", "0", api.name};
        case ApiLevel::Communication: return {"master", "hccl", "0", api.name};
        case ApiLevel::Runtime: return {api.name, "runtime", "0", "0"};
    }
    return {api.name, "acl", api.name, "0"};
}

std::string apiTraceName(const ApiRecord& api, const TimelineEra& era) {
    switch (api.level) {
        case ApiLevel::Acl: return "AscendCL@" + api.name;
        case ApiLevel::Runtime: return "Runtime@" + api.name;
        case ApiLevel::Model: return "Model@" + api.name;
        case ApiLevel::Node: return "Node@" + api.name;
        case ApiLevel::Communication: return era.communicationApiPrefix + "@" + api.name;
    }
    return "Api@" + api.name;
}

// CANN collects runtime APIs only at Level2 (formats.md §1.6: Level2 = Level1|RUNTIME_API|AICPU).
bool apiCollected(const ApiRecord& api, ProfilerLevel level) {
    return api.level != ApiLevel::Runtime || level == ProfilerLevel::Level2;
}

// msprof's MSTX_EVENT_TYPE_TABLE names: a torch_npu mark is "marker_ex", a range "start/end".
const char* mstxEventTypeName(MstxEventKind kind) { return kind == MstxEventKind::Mark ? "marker_ex" : "start/end"; }

// One X event per marker named by its message, args event_type and domain (MsprofTxExTraceEvent;
// msprof's Python export writes the same), dur = end - start, and a flow start per marker.
void appendMsprofTxBlock(std::vector<TraceEvent>& meta, std::vector<TraceEvent>& data, const RunRecord& run,
                         const TimelineEra& era, const EventFactory& make, std::uint32_t hostDevice) {
    const std::uint32_t pid = formatTracePid(run.processId, era.msprofTxSortIndex, hostDevice);
    ProcessBlock block;
    std::set<std::uint32_t> threads;
    for (const MstxEventRecord& m : run.mstxEvents) {
        threads.insert(m.threadId);
        TraceMembers args(2);
        args.add("event_type", mstxEventTypeName(m.kind));
        args.add("domain", m.domain);
        block.events.push_back(make.duration(m.message, pid, m.threadId, m.startNs, m.endNs - m.startNs, std::move(args)));
        block.events.push_back(make.mstxFlowStart(m, pid));
    }
    block.processMeta.push_back(make.meta("process_name", pid, 0, "name", kMsprofTxProcessName));
    block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", "CPU"));
    block.processMeta.push_back(make.meta("process_sort_index", pid, 0, "sort_index", era.msprofTxSortIndex));
    for (std::uint32_t tid : threads) {
        block.threadMeta.emplace_back(make.meta("thread_name", pid, tid, "name", "Thread " + std::to_string(tid)),
                                      make.meta("thread_sort_index", pid, tid, "sort_index", tid));
    }
    appendBlock(meta, data, block, era);
}

}  // namespace

std::uint64_t mstxConnectionId(const MstxEventRecord& event) { return kMstxFirstConnectionId + event.markId; }

TimelineEra timelineEra(FormatVersion version) {
    TimelineEra era;
    if (version == FormatVersion::Cann83) return era;
    // Early-2025 (MSI sample) and 2024 samples: Python msprof layout.
    era.hardwareSortIndex = 13;
    era.aiCoreFreqSortIndex = 14;
    era.overlapSortIndex = version == FormatVersion::Cann80 ? 23 : 21;
    era.npuMemSortIndex = version == FormatVersion::Cann80 ? 19 : 20;
    era.hcclSortIndex = 15;  // e5a31957 Level0/1 (HCCL pid 3170820576 = process 3096504, sort 15)
    era.hostLayersUseDevice31 = false;
    era.labelsCarryDeviceId = false;
    era.cppKeyOrder = false;
    era.flowIdShifted = false;
    era.overlapEventsHaveArgs = false;
    era.eventsSortedByTime = true;
    era.communicationApiPrefix = "Hccl";
    era.hasAiCoreFreqCounter = !predates2025(version);
    return era;
}

std::string renderMsprofTimelineJson(const std::vector<TraceEvent>& timeline) {
    std::string out = "[";
    for (std::size_t i = 0; i < timeline.size(); ++i) {
        if (i > 0) out += ',';
        appendTraceEvent(out, timeline[i], TraceJsonStyle::Compact);
    }
    out += ']';
    return out;
}

std::string renderMsprofTimelineJson(const std::vector<OrderedJson>& timeline) {
    std::string out = "[";
    for (std::size_t i = 0; i < timeline.size(); ++i) {
        if (i > 0) out += ',';
        out += timeline[i].dump();
    }
    out += ']';
    return out;
}

std::uint32_t formatTracePid(std::uint32_t pid, std::uint32_t sortIndex, std::uint32_t deviceId) {
    return (pid << 10) | (sortIndex << 5) | deviceId;
}

std::uint32_t ascendHardwarePid(const RunRecord& run, FormatVersion version) {
    return formatTracePid(run.processId, timelineEra(version).hardwareSortIndex, run.deviceId);
}

std::string traceTimestamp(const RunRecord& run, std::uint64_t simNs) { return nsToUsString(run.epochNs + simNs); }

std::string hardwareTaskTypeArg(TaskType type, const ProfilerConfig& config) {
    if (predates2025(config.formatVersion)) return type == TaskType::AiCpu ? "AI_CPU" : "Other";
    const bool sqeType = config.formatVersion == FormatVersion::Cann80 || config.level == ProfilerLevel::Level0;
    if (sqeType && type == TaskType::AiVectorCore) return "AI_CORE";
    return std::string(taskTypeName(type));
}

std::string hostToDeviceFlowId(std::uint64_t connectionId, FormatVersion version) {
    if (timelineEra(version).flowIdShifted) return std::to_string(connectionId << kConnectionIdShift);
    return std::to_string(connectionId);
}

std::vector<OrderedJson> buildMsprofTimeline(const RunRecord& run, const ProfilerConfig& config) {
    return traceEventsJson(buildMsprofTraceEvents(run, config));
}

std::vector<TraceEvent> buildMsprofTraceEvents(const RunRecord& run, const ProfilerConfig& config) {
    if (!config.activityNpu || config.level == ProfilerLevel::LevelNone) return {};
    const TimelineEra era = timelineEra(config.formatVersion);
    const EventFactory make(run, era);
    const std::uint32_t hostDevice = era.hostLayersUseDevice31 ? kHostDeviceId : run.deviceId;
    const std::string npuLabel = era.labelsCarryDeviceId ? "NPU " + std::to_string(run.deviceId) : "NPU";

    std::unordered_map<std::uint64_t, const KernelRecord*> kernelByConn;
    for (const auto& k : run.kernels) kernelByConn.emplace(k.correlationId, &k);
    std::set<std::uint64_t> communicationConnections;
    for (const auto& c : run.communicationOps) communicationConnections.insert(c.correlationId);
    std::set<std::uint64_t> launchedConnections;  // connections with a Node@launch flow start

    std::vector<TraceEvent> meta, data;

    // MsprofTx: the mstx markers on their host threads.
    if (!run.mstxEvents.empty()) appendMsprofTxBlock(meta, data, run, era, make, hostDevice);

    // CANN host APIs.
    {
        const std::uint32_t pid = formatTracePid(run.processId, era.cannSortIndex, hostDevice);
        ProcessBlock block;
        std::set<std::uint32_t> threads;
        std::vector<TraceEvent> flows;
        for (const auto& api : run.apis) {
            if (!apiCollected(api, config.level)) continue;
            threads.insert(api.threadId);
            const ApiArgs a = apiArgs(api, kernelByConn);
            TraceMembers args(6);
            args.add("Thread Id", api.threadId);
            args.add("Mode", a.mode);
            args.add("level", a.level);
            args.add("id", a.id);
            args.add("item_id", a.itemId);
            args.add("connection_id", api.connectionId);
            block.events.push_back(make.duration(apiTraceName(api, era), pid, api.threadId, api.startNs,
                                                 api.endNs - api.startNs, std::move(args)));
            if (api.level == ApiLevel::Node &&
                (kernelByConn.contains(api.connectionId) ||
                 communicationConnections.contains(api.connectionId))) {
                launchedConnections.insert(api.connectionId);
                flows.push_back(make.flow(hostToDeviceFlowId(api.connectionId, config.formatVersion), pid,
                                          api.threadId, api.startNs, false));
            }
        }
        if (!block.events.empty()) {
            block.processMeta.push_back(make.meta("process_name", pid, 0, "name", "CANN"));
            block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", "CPU"));
            block.processMeta.push_back(make.meta("process_sort_index", pid, 0, "sort_index", era.cannSortIndex));
            for (std::uint32_t tid : threads) {
                block.threadMeta.emplace_back(make.meta("thread_name", pid, tid, "name", "Thread " + std::to_string(tid)),
                                              make.meta("thread_sort_index", pid, tid, "sort_index", tid));
            }
            for (auto& f : flows) block.events.push_back(std::move(f));
            appendBlock(meta, data, block, era);
        }
    }

    // Ascend Hardware: one thread per stream.
    if (!run.kernels.empty() || !run.communicationOps.empty() || !run.memcpyTasks.empty() ||
        !run.eventTasks.empty()) {
        const std::uint32_t pid = formatTracePid(run.processId, era.hardwareSortIndex, run.deviceId);
        ProcessBlock block;
        std::set<std::uint32_t> streams;
        std::vector<TraceEvent> flows;
        for (const auto& k : run.kernels) {
            const std::uint32_t stream = k.device.streamId;
            streams.insert(stream);
            TraceMembers args(7);
            args.add("Model Id", kInvalidId);
            args.add("Task Type", hardwareTaskTypeArg(k.device.type, config));
            args.add("Physic Stream Id", stream);
            args.add("Task Id", k.taskId);
            args.add("Batch Id", 0);
            args.add("Subtask Id", kInvalidId);
            args.add("connection_id", k.correlationId);
            block.events.push_back(
                make.duration(k.name, pid, stream, k.device.startNs, k.device.endNs - k.device.startNs, std::move(args)));
            if (launchedConnections.contains(k.correlationId)) {
                flows.push_back(make.flow(hostToDeviceFlowId(k.correlationId, config.formatVersion), pid, stream,
                                          k.device.startNs, true));
            }
        }
        // Host<->device copies and stream events on their stream (the sample's MEMCPY_ASYNC, a
        // PCIe DMA SQE; EVENT_RECORD / EVENT_WAIT).
        for (const RuntimeTask& task : runtimeTasksOf(run)) {
            streams.insert(task.streamId);
            TraceMembers args(7);
            args.add("Model Id", kInvalidId);
            args.add("Task Type", task.sqeType);
            args.add("Physic Stream Id", task.streamId);
            args.add("Task Id", task.taskId);
            args.add("Batch Id", 0);
            args.add("Subtask Id", kInvalidId);
            args.add("connection_id", task.correlationId);
            block.events.push_back(
                make.duration(task.ascendType, pid, task.streamId, task.startNs, task.endNs - task.startNs, std::move(args)));
        }
        // The HCCL stream runs each HCCL task as one SQE (Level1/2: CANN's HCCL_TRACE), subtask =
        // the task's context id, as the sample's Stream 4 rows.
        if (config.level != ProfilerLevel::Level0) {
            for (const auto& op : run.communicationOps) {
                streams.insert(op.streamId);
                for (const auto& t : op.tasks) {
                    TraceMembers args(7);
                    args.add("Model Id", kInvalidId);
                    args.add("Task Type", hcclSqeTypeName(t.kind));
                    args.add("Physic Stream Id", op.streamId);
                    args.add("Task Id", op.taskId);
                    args.add("Batch Id", 0);
                    args.add("Subtask Id", t.contextId);
                    args.add("connection_id", op.correlationId);
                    block.events.push_back(make.duration(hcclSqeTypeName(t.kind), pid, op.streamId,
                                                         op.startNs + t.startNs, t.durationNs,
                                                         std::move(args)));
                }
            }
        }
        block.processMeta.push_back(make.meta("process_name", pid, 0, "name", "Ascend Hardware"));
        block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", npuLabel));
        block.processMeta.push_back(make.meta("process_sort_index", pid, 0, "sort_index", era.hardwareSortIndex));
        for (std::uint32_t s : streams) {
            block.threadMeta.emplace_back(make.meta("thread_name", pid, s, "name", "Stream " + std::to_string(s)),
                                          make.meta("thread_sort_index", pid, s, "sort_index", s));
        }
        for (auto& f : flows) block.events.push_back(std::move(f));
        appendBlock(meta, data, block, era);
    }

    // HCCL: the op row of the world group, and (Level1/2: CANN's HCCL_TRACE) one row per plane.
    if (!run.communicationOps.empty()) {
        const std::uint32_t pid = formatTracePid(run.processId, era.hcclSortIndex, run.deviceId);
        const bool withTasks = config.level != ProfilerLevel::Level0;
        ProcessBlock block;
        std::uint32_t planes = 1;
        std::vector<TraceEvent> flows;
        for (const auto& op : run.communicationOps) {
            TraceMembers opArgs = hcclOpArgs(op, config.formatVersion);
            block.events.push_back(
                make.duration(op.name, pid, 0, op.startNs, op.endNs - op.startNs, std::move(opArgs)));
            if (launchedConnections.contains(op.correlationId))
                flows.push_back(
                    make.flow(hostToDeviceFlowId(op.correlationId, config.formatVersion), pid, 0,
                              op.startNs, true));
            if (!withTasks) continue;
            for (const auto& task : op.tasks) {
                planes = std::max(planes, task.plane + 1);
                TraceMembers args = hcclTaskArgs(op, task);
                block.events.push_back(make.duration(hcclTaskName(task.kind), pid, task.plane + 1,
                                                     op.startNs + task.startNs, task.durationNs,
                                                     std::move(args)));
            }
        }
        block.processMeta.push_back(make.meta("process_name", pid, 0, "name", "HCCL"));
        block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", npuLabel));
        block.processMeta.push_back(
            make.meta("process_sort_index", pid, 0, "sort_index", era.hcclSortIndex));
        block.threadMeta.emplace_back(
            make.meta("thread_name", pid, 0, "name", hcclGroupThreadName()),
            make.meta("thread_sort_index", pid, 0, "sort_index", 0));
        for (std::uint32_t plane = 0; plane < planes; ++plane) {
            block.threadMeta.emplace_back(
                make.meta("thread_name", pid, plane + 1, "name", hcclPlaneThreadName(plane)),
                make.meta("thread_sort_index", pid, plane + 1, "sort_index", plane + 1));
        }
        for (auto& f : flows) block.events.push_back(std::move(f));
        appendBlock(meta, data, block, era);
    }

    // Overlap Analysis.
    std::vector<TimeInterval> communicationSpans;
    for (const auto& op : run.communicationOps)
        communicationSpans.push_back({op.startNs, op.endNs});
    const auto overlap = computeOverlapAnalysis(run.kernels, communicationSpans);
    if (!overlap.empty()) {
        const std::uint32_t pid = formatTracePid(run.processId, era.overlapSortIndex, run.deviceId);
        ProcessBlock block;
        block.processMeta.push_back(make.meta("process_name", pid, 0, "name", "Overlap Analysis"));
        block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", npuLabel));
        block.processMeta.push_back(make.meta("process_sort_index", pid, 0, "sort_index", era.overlapSortIndex));
        for (std::uint32_t tid = 0; tid < 4; ++tid) {
            const std::string name = overlapKindName(static_cast<OverlapKind>(tid));
            block.threadMeta.emplace_back(make.meta("thread_name", pid, tid, "name", name),
                                          make.meta("thread_sort_index", pid, tid, "sort_index", tid));
        }
        if (!era.cppKeyOrder) {
            // The Python writer emitted thread names only.
            for (auto& tm : block.threadMeta) tm.second.reset();
        }
        for (const auto& o : overlap) {
            std::optional<TraceMembers> emptyArgs;
            if (era.overlapEventsHaveArgs) emptyArgs.emplace();
            block.events.push_back(make.duration(overlapKindName(o.kind), pid, static_cast<std::uint32_t>(o.kind),
                                                 o.span.startNs, o.span.endNs - o.span.startNs, std::move(emptyArgs)));
        }
        appendBlock(meta, data, block, era);
    }

    // AI Core Freq: the model runs at the chip's nominal clock, sampled at collection start and end.
    if (era.hasAiCoreFreqCounter && run.chip != nullptr && run.chip->aiCoreFreqMhz > 0.0) {
        const std::uint32_t pid = formatTracePid(run.processId, era.aiCoreFreqSortIndex, run.deviceId);
        ProcessBlock block;
        block.processMeta.push_back(make.meta("process_name", pid, 0, "name", "AI Core Freq"));
        block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", npuLabel));
        block.processMeta.push_back(make.meta("process_sort_index", pid, 0, "sort_index", era.aiCoreFreqSortIndex));
        TraceMembers args(1);
        args.add("MHz", static_cast<std::int64_t>(run.chip->aiCoreFreqMhz));
        const auto [first, last] = deviceCollectionSpan(run);
        block.events.push_back(make.counter("AI Core Freq", pid, first, args));
        if (last > first) block.events.push_back(make.counter("AI Core Freq", pid, last, args));
        appendBlock(meta, data, block, era);
    }

    // HBM and LLC: sampled memory-side hardware counters (profile_memory).
    for (const CounterProcess& process : hardwareSampleCounterProcesses(run, config)) {
        const std::uint32_t pid = formatTracePid(run.processId, process.sortIndex, run.deviceId);
        ProcessBlock block;
        block.processMeta.push_back(make.meta("process_name", pid, 0, "name", process.name));
        block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", npuLabel));
        block.processMeta.push_back(make.meta("process_sort_index", pid, 0, "sort_index", process.sortIndex));
        for (const CounterPoint& point : process.points) {
            block.events.push_back(make.counter(point.series, pid, point.timeNs, TraceMembers(1).add(point.argKey, point.argValue)));
        }
        appendBlock(meta, data, block, era);
    }

    // NPU MEM: the process's device memory (profile_memory turns on CANN's memory sampling).
    if (config.profileMemory && !run.appMemory.empty()) {
        const std::uint32_t pid = formatTracePid(run.processId, era.npuMemSortIndex, run.deviceId);
        ProcessBlock block;
        block.processMeta.push_back(make.meta("process_name", pid, 0, "name", "NPU MEM"));
        block.processMeta.push_back(make.meta("process_labels", pid, 0, "labels", npuLabel));
        block.processMeta.push_back(make.meta("process_sort_index", pid, 0, "sort_index", era.npuMemSortIndex));
        for (const auto& sample : run.appMemory) {
            const double kb = static_cast<double>(sample.bytes) / 1024.0;
            for (const auto& [series, value] : {std::pair<const char*, double>{"APP/DDR", 0.0}, {"APP/HBM", kb},
                                               {"APP/Memory", kb}}) {
                block.events.push_back(make.counter(series, pid, sample.timeNs, TraceMembers(1).add("KB", value)));
            }
        }
        appendBlock(meta, data, block, era);
    }

    if (era.eventsSortedByTime) {
        // By "ts": the 3-decimal µs strings order as their ns do.
        std::stable_sort(data.begin(), data.end(), [](const TraceEvent& a, const TraceEvent& b) {
            return a.members.find("ts")->asUnsigned() < b.members.find("ts")->asUnsigned();
        });
    }
    std::vector<TraceEvent> events = std::move(meta);
    for (auto& e : data) events.push_back(std::move(e));
    return events;
}

}  // namespace ascendsim
