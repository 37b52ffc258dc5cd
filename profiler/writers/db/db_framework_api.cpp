#include "profiler/writers/db/db_framework_api.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "profiler/writers/db/db_global_tid.h"
#include "profiler/writers/summary/torch_op_text.h"

namespace ascendsim {

namespace {

enum class FrameworkApiType : std::int64_t {
    TorchOp = 50001,
    TaskQueue = 50002,
    PythonTrace = 50003
};

class ConnectionIndex {
  public:
    explicit ConnectionIndex(std::vector<std::vector<DbValue>>& rows) : rows_(rows) {}
    // A new index holding `ids` (torch_npu gives every linked row its own index).
    std::int64_t add(const std::vector<std::int64_t>& ids) {
        const std::int64_t index = next_++;
        for (std::int64_t id : ids) rows_.push_back({index, id});
        return index;
    }

  private:
    std::vector<std::vector<DbValue>>& rows_;
    std::int64_t next_ = 0;
};

struct QueueEntry {
    std::int64_t startNs, endNs;
    std::uint32_t threadId;
    std::uint64_t correlationId;
};

std::vector<QueueEntry> queueEntries(const RunRecord& run, bool enqueue) {
    std::vector<QueueEntry> entries;
    for (const TaskQueueRecord& q : run.taskQueue) {
        const std::uint64_t start = enqueue ? q.enqueueStartNs : q.dequeueStartNs;
        const std::uint64_t end = enqueue ? q.enqueueEndNs : q.dequeueEndNs;
        entries.push_back({static_cast<std::int64_t>(run.epochNs + start),
                           static_cast<std::int64_t>(run.epochNs + end),
                           enqueue ? q.enqueueThreadId : q.dequeueThreadId, q.correlationId});
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const QueueEntry& a, const QueueEntry& b) { return a.endNs < b.endNs; });
    return entries;
}


// Per sequence number, the last op (torch.op_range order) on each side of a fwd/bwd pair.
std::vector<std::pair<std::size_t, std::size_t>> forwardBackwardPairs(const RunRecord& run) {
    struct Sides {
        std::int64_t forward = -1, backward = -1;
    };
    std::vector<std::int64_t> order;
    std::map<std::int64_t, Sides> sides;
    for (std::size_t i = 0; i < run.hostOps.size(); ++i) {
        const HostOpRecord& op = run.hostOps[i];
        if (op.sequenceNumber < 0) continue;
        const auto [it, inserted] = sides.try_emplace(op.sequenceNumber);
        if (inserted) order.push_back(op.sequenceNumber);
        (op.forwardThreadId == 0 ? it->second.forward : it->second.backward) =
            static_cast<std::int64_t>(i);
    }
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::int64_t sequence : order) {
        const Sides& s = sides.at(sequence);
        if (s.forward >= 0 && s.backward >= 0)
            pairs.emplace_back(static_cast<std::size_t>(s.forward),
                               static_cast<std::size_t>(s.backward));
    }
    return pairs;
}

// The innermost op (latest start among those strictly enclosing the enqueue), scanning from
// `from` as torch_npu does; returns the op index or -1, and advances `from`.
std::int64_t enclosingOp(const RunRecord& run, const std::vector<std::size_t>& byStart,
                         const QueueEntry& enqueue, std::size_t& from) {
    std::int64_t found = -1;
    for (std::size_t i = from; i < byStart.size(); ++i) {
        const HostOpRecord& op = run.hostOps[byStart[i]];
        const auto start = static_cast<std::int64_t>(run.epochNs + op.startNs);
        const auto end = static_cast<std::int64_t>(run.epochNs + op.endNs);
        if (enqueue.startNs > end) continue;
        if (enqueue.startNs > start && enqueue.endNs < end) {
            found = static_cast<std::int64_t>(i);
            from = i;
        } else if (found >= 0) {
            break;
        }
    }
    return found < 0 ? -1 : static_cast<std::int64_t>(byStart[static_cast<std::size_t>(found)]);
}

}  // namespace

FrameworkApiTables buildFrameworkApiTables(const RunRecord& run, DbStringIds& torchStrings,
                                           std::int64_t cannConnectionOffset,
                                           const std::vector<DbNodeLaunch>& nodeLaunches) {
    FrameworkApiTables tables;
    ConnectionIndex connections(tables.connectionIds);
    const std::vector<QueueEntry> enqueues = queueEntries(run, true);
    const std::vector<QueueEntry> dequeues = queueEntries(run, false);
    std::map<std::uint64_t, std::string> queuedOpName;
    for (const TaskQueueRecord& q : run.taskQueue) queuedOpName[q.correlationId] = q.opName;

    const auto queueRow = [&](const QueueEntry& e, const std::string& name) {
        const auto correlation = static_cast<std::int64_t>(e.correlationId) + cannConnectionOffset;
        tables.pytorchApi.push_back(
            {std::to_string(e.startNs), std::to_string(e.endNs), dbGlobalTid(run, e.threadId),
             connections.add({correlation}), torchStrings.id(name), DbNull{}, DbNull{}, DbNull{},
             DbNull{}, DbNull{}, static_cast<std::int64_t>(FrameworkApiType::TaskQueue)});
    };
    for (const QueueEntry& e : enqueues) queueRow(e, "Enqueue");
    for (const QueueEntry& e : dequeues) queueRow(e, "Dequeue@" + queuedOpName[e.correlationId]);

    for (const PythonCallRecord& call : run.pythonCalls) {
        tables.pytorchApi.push_back(
            {std::to_string(run.epochNs + call.startNs), std::to_string(run.epochNs + call.endNs),
             dbGlobalTid(run, call.threadId), DbNull{}, torchStrings.id(call.name), DbNull{},
             DbNull{}, DbNull{}, DbNull{}, DbNull{},
             static_cast<std::int64_t>(FrameworkApiType::PythonTrace)});
    }

    // Connection ids per op: fwd/bwd pair ids first, then the launches.
    std::vector<std::vector<std::int64_t>> linked(run.hostOps.size());
    std::int64_t pairId = 0;
    for (const QueueEntry& e : enqueues)
        pairId = std::max(pairId, static_cast<std::int64_t>(e.correlationId) + 1);
    for (const auto& [forward, backward] : forwardBackwardPairs(run)) {
        const std::int64_t id = pairId++ + cannConnectionOffset;
        linked[forward].push_back(id);
        linked[backward].push_back(id);
    }
    std::vector<std::size_t> byStart(run.hostOps.size());
    std::iota(byStart.begin(), byStart.end(), 0);
    std::stable_sort(byStart.begin(), byStart.end(), [&run](std::size_t a, std::size_t b) {
        return run.hostOps[a].startNs < run.hostOps[b].startNs;
    });
    if (cannConnectionOffset != 0) {
        // Only queue entries whose partner exists; torch_npu pairs the two lists by position.
        std::vector<QueueEntry> pairedEnqueues, pairedDequeues;
        const auto has = [](const std::vector<QueueEntry>& list, std::uint64_t correlation) {
            return std::any_of(list.begin(), list.end(), [correlation](const QueueEntry& e) {
                return e.correlationId == correlation;
            });
        };
        for (const QueueEntry& e : enqueues)
            if (has(dequeues, e.correlationId)) pairedEnqueues.push_back(e);
        for (const QueueEntry& e : dequeues)
            if (has(enqueues, e.correlationId)) pairedDequeues.push_back(e);
        std::size_t dequeueFrom = 0, opFrom = 0;
        for (const DbNodeLaunch& launch : nodeLaunches) {
            for (std::size_t d = dequeueFrom; d < pairedDequeues.size(); ++d) {
                if (launch.startNs > pairedDequeues[d].startNs &&
                    launch.endNs < pairedDequeues[d].endNs) {
                    dequeueFrom = d;
                    const std::int64_t op = enclosingOp(run, byStart, pairedEnqueues[d], opFrom);
                    if (op >= 0)
                        linked[static_cast<std::size_t>(op)].push_back(launch.connectionId);
                    break;
                }
            }
        }
    }

    std::int64_t nextChain = 0;
    for (std::size_t index : byStart) {
        const HostOpRecord& op = run.hostOps[index];
        const auto optionalText = [&torchStrings](const std::string& text) -> DbValue {
            if (text.empty()) return DbNull{};
            return torchStrings.id(torchOpBeanText(text));
        };
        const DbValue connection =
            linked[index].empty() ? DbValue{DbNull{}} : DbValue{connections.add(linked[index])};
        const std::int64_t name = torchStrings.id(op.name);
        const DbValue dims = optionalText(op.inputDims);
        const DbValue types = optionalText(op.inputTypes);
        DbValue chain = DbNull{};
        if (!op.callStack.empty()) {
            chain = nextChain;
            std::int64_t depth = 0;
            std::size_t begin = 0;
            while (begin <= op.callStack.size()) {
                const std::size_t end =
                    std::min(op.callStack.find(';', begin), op.callStack.size());
                tables.callchains.push_back(
                    {nextChain, torchStrings.id(op.callStack.substr(begin, end - begin)), depth++});
                begin = end + 1;
            }
            ++nextChain;
        }
        tables.pytorchApi.push_back(
            {std::to_string(run.epochNs + op.startNs), std::to_string(run.epochNs + op.endNs),
             dbGlobalTid(run, op.threadId), connection, name, op.sequenceNumber,
             static_cast<std::int64_t>(op.forwardThreadId), dims, types, chain,
             static_cast<std::int64_t>(FrameworkApiType::TorchOp)});
    }
    return tables;
}

}  // namespace ascendsim
