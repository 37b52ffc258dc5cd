#include "profiler/writers/timeline/trace_view.h"
#include "profiler/format/file_output.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string_view>

#include "profiler/assembly/output_permissions.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "profiler/writers/summary/torch_op_text.h"

namespace ascendsim {

namespace {

double traceViewDurationUs(std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

TraceEvent completeEvent(std::string name, std::uint32_t pid, std::uint64_t tid, TraceValue ts, std::uint64_t durNs,
                         const char* cat, TraceMembers args) {
    TraceEvent e{TraceMembers(8), std::move(args)};
    e.members.add("ph", "X").add("name", std::move(name)).add("pid", pid).add("tid", tid).add("ts", std::move(ts));
    e.members.add("dur", traceViewDurationUs(durNs)).add("cat", cat).add("args", TraceValue::argsPlace());
    return e;
}

TraceEvent flowEvent(const char* ph, const char* name, TraceValue id, std::uint32_t pid, std::uint64_t tid,
                     TraceValue ts, const char* cat) {
    TraceEvent e{TraceMembers(8), {}};
    e.members.add("ph", ph).add("bp", "e").add("name", name).add("id", std::move(id)).add("pid", pid);
    e.members.add("tid", tid).add("ts", std::move(ts)).add("cat", cat);
    return e;
}

TraceEvent metaEvent(const char* name, std::uint32_t pid, std::uint64_t tid, const char* key, TraceValue value) {
    TraceEvent e{TraceMembers(5), TraceMembers(1)};
    e.members.add("ph", "M").add("name", name).add("pid", pid).add("tid", tid).add("args", TraceValue::argsPlace());
    e.args.add(key, std::move(value));
    return e;
}

TraceValue traceTs(const RunRecord& run, std::uint64_t simNs) { return TraceValue::timestamp(run.epochNs + simNs); }

TraceMembers torchOpArgs(const HostOpRecord& op, const ProfilerConfig& config) {
    TraceMembers args(7);
    args.add("Sequence number", op.sequenceNumber);
    args.add("Fwd thread id", op.forwardThreadId);
    if (config.recordShapes && !op.inputDims.empty()) args.add("Input Dims", torchOpBeanText(op.inputDims));
    if (config.recordShapes && !op.inputTypes.empty()) args.add("Input type", torchOpBeanText(op.inputTypes));
    if (config.withStack && !op.callStack.empty()) args.add("Call stack", torchOpBeanText(op.callStack));
    if (config.withModules && !op.moduleHierarchy.empty()) args.add("Module Hierarchy", op.moduleHierarchy);
    if (config.withFlops && op.flops >= 0) args.add("flops", op.flops);
    return args;
}

// Thread metadata: op threads in first-appearance order, dequeue-only threads after them with
// sort index max(tid)+1, +2, ... (torch_npu TraceEventManager).
void appendThreadMetadata(std::vector<TraceEvent>& out, const RunRecord& run) {
    std::vector<std::uint32_t> threads;
    auto note = [&threads](std::uint32_t tid) {
        if (std::find(threads.begin(), threads.end(), tid) == threads.end()) threads.push_back(tid);
    };
    for (const auto& op : run.hostOps) note(op.threadId);
    for (const auto& q : run.taskQueue) note(q.enqueueThreadId);
    for (const auto& p : run.pythonCalls) note(p.threadId);
    std::vector<std::uint32_t> dequeueThreads;
    for (const auto& q : run.taskQueue) {
        if (std::find(threads.begin(), threads.end(), q.dequeueThreadId) == threads.end() &&
            std::find(dequeueThreads.begin(), dequeueThreads.end(), q.dequeueThreadId) == dequeueThreads.end()) {
            dequeueThreads.push_back(q.dequeueThreadId);
        }
    }
    const std::uint32_t pid = run.processId;
    out.push_back(metaEvent("process_name", pid, 0, "name", "Python"));
    out.push_back(metaEvent("process_labels", pid, 0, "labels", "CPU"));
    out.push_back(metaEvent("process_sort_index", pid, 0, "sort_index", 0));
    std::uint32_t maxTid = 0;
    for (std::uint32_t tid : threads) {
        out.push_back(metaEvent("thread_name", pid, tid, "name", "Thread " + std::to_string(tid)));
        out.push_back(metaEvent("thread_sort_index", pid, tid, "sort_index", tid));
        maxTid = std::max(maxTid, tid);
    }
    for (std::uint32_t tid : dequeueThreads) {
        out.push_back(metaEvent("thread_name", pid, tid, "name", "Thread " + std::to_string(tid)));
        out.push_back(metaEvent("thread_sort_index", pid, tid, "sort_index", ++maxTid));
    }
}

// fwd/bwd flows as torch_npu pairs them (FwkFileParser.filter_fwd_bwd_event): per sequence
// number, the latest-starting op with "Fwd thread id" 0 is the start and the latest-starting op
// with a non-zero one (the autograd node, Fwd thread id = RecordFunction's thread number, not an
// OS tid) is the end; no flow when both are on the same thread. Flows in first-seen order.
void appendFwdBwdFlows(std::vector<TraceEvent>& out, const RunRecord& run) {
    struct Pair {
        const HostOpRecord* start = nullptr;
        const HostOpRecord* end = nullptr;
    };
    std::vector<std::int64_t> order;
    std::map<std::int64_t, Pair> pairs;
    for (const auto& op : run.hostOps) {
        if (op.sequenceNumber < 0) continue;
        const auto [it, inserted] = pairs.try_emplace(op.sequenceNumber);
        if (inserted) order.push_back(op.sequenceNumber);
        const HostOpRecord*& slot = op.forwardThreadId == 0 ? it->second.start : it->second.end;
        if (slot == nullptr || slot->startNs < op.startNs) slot = &op;
    }
    for (const std::int64_t sequence : order) {
        const Pair& pair = pairs.at(sequence);
        if (pair.start == nullptr || pair.end == nullptr || pair.start->threadId == pair.end->threadId) continue;
        out.push_back(flowEvent("s", "fwdbwd", sequence, run.processId, pair.start->threadId,
                                traceTs(run, pair.start->startNs), "fwdbwd"));
        out.push_back(flowEvent("f", "fwdbwd", sequence, run.processId, pair.end->threadId,
                                traceTs(run, pair.end->startNs), "fwdbwd"));
    }
}

constexpr std::array<std::string_view, 9> kLevel0PrunedPrefixes = {
    "CANN", "AscendCL", "Runtime", "GE", "Node", "Model", "Hccl", "acl_to_npu", "Communication@"};

bool prunedAtLevel0(const TraceEvent& e) {
    const std::string_view name = e.name();
    for (auto prefix : kLevel0PrunedPrefixes)
        if (name.starts_with(prefix)) return true;
    if (const std::string* argName = e.argText("name")) {
        for (auto prefix : kLevel0PrunedPrefixes)
            if (*argName == prefix) return true;
    }
    return false;
}

void appendList(std::string& out, const std::vector<TraceEvent>& events) {
    bool first = true;
    for (const auto& e : events) {
        if (!first) out += ", ";
        first = false;
        appendTraceEvent(out, e, TraceJsonStyle::Python);
    }
}

}  // namespace

std::vector<TraceEvent> buildFrameworkTraceEvents(const RunRecord& run, const ProfilerConfig& config) {
    std::vector<TraceEvent> out;
    if (!config.activityCpu) return out;
    const std::uint32_t pid = run.processId;
    for (const auto& op : run.hostOps) {
        out.push_back(completeEvent(op.name, pid, op.threadId, traceTs(run, op.startNs), op.endNs - op.startNs,
                                    "cpu_op", torchOpArgs(op, config)));
    }
    for (const auto& q : run.taskQueue) {
        const TraceValue ts = traceTs(run, q.enqueueStartNs);
        out.push_back(completeEvent("Enqueue", pid, q.enqueueThreadId, ts, q.enqueueEndNs - q.enqueueStartNs,
                                    "enqueue", TraceMembers(1).add("correlation_id", q.correlationId)));
        out.push_back(flowEvent("s", "enqueue_to_dequeue", q.correlationId, pid, q.enqueueThreadId, ts,
                                "async_task_queue"));
    }
    for (const auto& q : run.taskQueue) {
        const TraceValue ts = traceTs(run, q.dequeueStartNs);
        out.push_back(completeEvent("Dequeue@" + q.opName, pid, q.dequeueThreadId, ts,
                                    q.dequeueEndNs - q.dequeueStartNs, "dequeue",
                                    TraceMembers(1).add("correlation_id", q.correlationId)));
        out.push_back(flowEvent("f", "enqueue_to_dequeue", q.correlationId, pid, q.dequeueThreadId, ts,
                                "async_task_queue"));
    }
    appendThreadMetadata(out, run);
    appendFwdBwdFlows(out, run);
    if (config.withStack || config.withModules) {
        for (const auto& call : run.pythonCalls) {
            TraceMembers args(3);
            args.add("Python id", call.id).add("Python parent id", call.parentId);
            if (call.moduleId >= 0) args.add("Python module id", call.moduleId);
            out.push_back(completeEvent(call.name, pid, call.threadId, traceTs(run, call.startNs),
                                        call.endNs - call.startNs, "python_function", std::move(args)));
        }
    }
    return out;
}

std::vector<TraceEvent> buildTorchToNpuFlows(const RunRecord& run, const ProfilerConfig& config) {
    std::vector<TraceEvent> out;
    if (!config.activityCpu || !config.activityNpu || config.level == ProfilerLevel::LevelNone) return out;
    const std::uint32_t hardwarePid = ascendHardwarePid(run, config.formatVersion);
    for (const auto& k : run.kernels) {
        if (k.hostOpIndex < 0 || static_cast<std::size_t>(k.hostOpIndex) >= run.hostOps.size()) continue;
        const auto& op = run.hostOps[static_cast<std::size_t>(k.hostOpIndex)];
        const std::uint64_t id = run.epochNs + k.device.startNs;
        out.push_back(flowEvent("s", "torch_to_npu", id, run.processId, op.threadId, traceTs(run, op.startNs),
                                "async_npu"));
        out.push_back(flowEvent("f", "torch_to_npu", id, hardwarePid, k.device.streamId,
                                traceTs(run, k.device.startNs), "async_npu"));
    }
    // Collectives: the flow ends on the HCCL op row (the e5a31957 sample's torch_to_npu on tid 0).
    const std::uint32_t hcclPid = formatTracePid(
        run.processId, timelineEra(config.formatVersion).hcclSortIndex, run.deviceId);
    for (const auto& c : run.communicationOps) {
        if (c.hostOpIndex < 0 || static_cast<std::size_t>(c.hostOpIndex) >= run.hostOps.size())
            continue;
        const auto& op = run.hostOps[static_cast<std::size_t>(c.hostOpIndex)];
        const std::uint64_t id = run.epochNs + c.startNs;
        out.push_back(flowEvent("s", "torch_to_npu", id, run.processId, op.threadId,
                                traceTs(run, op.startNs), "async_npu"));
        out.push_back(flowEvent("f", "torch_to_npu", id, hcclPid, 0, traceTs(run, c.startNs),
                                "async_npu"));
    }
    return out;
}

std::string renderTraceView(const RunRecord& run, const ProfilerConfig& config,
                            const std::vector<TraceEvent>& msprofTimeline) {
    const auto framework = buildFrameworkTraceEvents(run, config);
    const auto flows = buildTorchToNpuFlows(run, config);

    // torch_npu writes the framework list, strips its "]", then appends "," and the CANN list
    // without its "[" (so the two parts join with "," and no space). The CANN list is the pruned
    // timeline then the flows, rendered from the caller's timeline without copying it (a rank of
    // the 128-rank Llama step has ~100 000 events).
    std::string out = "[";
    appendList(out, framework);
    bool firstOfTail = true;
    const auto appendTail = [&](const TraceEvent& e) {
        if (!firstOfTail) out += ", ";
        else if (!framework.empty()) out += ",";
        firstOfTail = false;
        appendTraceEvent(out, e, TraceJsonStyle::Python);
    };
    for (const auto& e : msprofTimeline)
        if (config.level != ProfilerLevel::Level0 || !prunedAtLevel0(e)) appendTail(e);
    for (const auto& f : flows) appendTail(f);
    out += "]";
    return out;
}

void writeChromeTrace(const std::filesystem::path& path, const RunRecord& run, const ProfilerConfig& config) {
    const std::string text = renderTraceView(run, config, buildMsprofTraceEvents(run, config));
    writeFileBytes(path, text);
    // Not on /dev/null or a pipe: as root that would change the device's mode.
    if (std::filesystem::is_regular_file(path)) std::filesystem::permissions(path, kOutputFilePerms);
}

}  // namespace ascendsim
