#include "sim/replay/input/autograd_links.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "sim/replay/input/export_file.h"
#include "sim/replay/input/hccl_transfer_reader.h"
#include "sim/replay/input/trace_view_json.h"

namespace ascendsim {

namespace autograd_link {

// A point on a host thread: (tid as the trace spells it, ns).
using HostPoint = std::pair<std::string, std::int64_t>;

struct OpSpan {
    std::string tid;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    bool holds(const HostPoint& point) const { return point.first == tid && startNs <= point.second && point.second <= endNs; }
};

std::optional<HostPoint> hostPointOf(std::string_view event) {
    const auto tid = trace_json::valueOf(event, "tid");
    const auto ts = trace_json::valueOf(event, "ts");
    const std::optional<std::int64_t> ns = ts ? microsecondsTextToNs(*ts) : std::nullopt;
    if (!tid || !ns) return std::nullopt;
    return HostPoint{std::string(*tid), *ns};
}

// The innermost of `spans` (indices into it) that holds `point`; kNoAutogradOp when none does.
std::size_t innermostHolding(const std::vector<OpSpan>& spans, const HostPoint& point) {
    std::size_t best = RealKernel::kNoAutogradOp;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (!spans[i].holds(point)) continue;
        if (best == RealKernel::kNoAutogradOp ||
            spans[i].endNs - spans[i].startNs < spans[best].endNs - spans[best].startNs)
            best = i;
    }
    return best;
}

// Numbers the links by their forward ops' starts and gives each kernel the innermost linked op
// whose span holds its launch (`launchOf`; nullopt: not recorded).
void assignLinks(std::vector<std::pair<OpSpan, OpSpan>> links, std::vector<RealKernel>& kernels,
                 const std::function<std::optional<HostPoint>(const RealKernel&)>& launchOf) {
    std::sort(links.begin(), links.end(), [](const auto& a, const auto& b) {
        return a.first.startNs != b.first.startNs ? a.first.startNs < b.first.startNs : a.first.tid < b.first.tid;
    });
    std::vector<OpSpan> forwards, backwards;
    for (const auto& [forward, backward] : links) {
        forwards.push_back(forward);
        backwards.push_back(backward);
    }
    for (RealKernel& kernel : kernels) {
        const std::optional<HostPoint> launch = launchOf(kernel);
        if (!launch) continue;
        kernel.forwardOp = innermostHolding(forwards, *launch);
        kernel.backwardOf = innermostHolding(backwards, *launch);
    }
}

}  // namespace autograd_link

void attributeAutogradLinks(std::string_view traceViewJson, std::vector<RealKernel>& kernels) {
    using namespace autograd_link;
    std::map<HostPoint, std::int64_t> opEnds;              // cpu_op start → end
    std::map<std::string, HostPoint> launchOf;             // async_npu flow id → its host launch
    std::map<std::int64_t, std::string> flowOfKernelStart; // kernel start (ns) → async_npu flow id
    std::map<std::string, std::pair<std::optional<HostPoint>, std::optional<HostPoint>>> fwdbwd;  // id → (s, f)
    for (std::string_view event : trace_json::arrayObjects(traceViewJson)) {
        const auto ph = trace_json::valueOf(event, "ph");
        const auto cat = trace_json::valueOf(event, "cat");
        if (!ph || !cat) continue;
        if (*ph == "X" && *cat == "cpu_op") {
            const std::optional<HostPoint> start = hostPointOf(event);
            const auto dur = trace_json::valueOf(event, "dur");
            if (!start || !dur) continue;
            double durUs = 0.0;
            try {
                durUs = std::stod(std::string(*dur));
            } catch (const std::exception&) {
                continue;
            }
            opEnds[*start] = start->second + static_cast<std::int64_t>(std::llround(durUs * 1000.0));
            continue;
        }
        if (*cat != "async_npu" && *cat != "fwdbwd") continue;
        const auto id = trace_json::valueOf(event, "id");
        const std::optional<HostPoint> point = hostPointOf(event);
        if (!id || !point) continue;
        const std::string flow(*id);
        if (*cat == "async_npu") {
            if (*ph == "s") launchOf[flow] = *point;
            else if (*ph == "f") flowOfKernelStart[point->second] = flow;
        } else if (*ph == "s") {
            fwdbwd[flow].first = point;
        } else if (*ph == "f") {
            fwdbwd[flow].second = point;
        }
    }
    std::vector<std::pair<OpSpan, OpSpan>> links;  // (forward, backward)
    for (const auto& [id, ends] : fwdbwd) {
        if (!ends.first || !ends.second) continue;
        const auto forwardEnd = opEnds.find(*ends.first);
        const auto backwardEnd = opEnds.find(*ends.second);
        if (forwardEnd == opEnds.end() || backwardEnd == opEnds.end()) continue;
        links.emplace_back(OpSpan{ends.first->first, ends.first->second, forwardEnd->second},
                           OpSpan{ends.second->first, ends.second->second, backwardEnd->second});
    }
    assignLinks(std::move(links), kernels, [&](const RealKernel& kernel) -> std::optional<HostPoint> {
        const auto flow = flowOfKernelStart.find(kernel.startNs);
        if (kernel.startNs < 0 || flow == flowOfKernelStart.end()) return std::nullopt;
        const auto launch = launchOf.find(flow->second);
        if (launch == launchOf.end()) return std::nullopt;
        return launch->second;
    });
}

void readAutogradLinks(const std::filesystem::path& kernelDetails, std::vector<RealKernel>& kernels) {
    const std::filesystem::path trace = kernelDetails.parent_path() / "trace_view.json";
    if (!std::filesystem::is_regular_file(trace)) return;
    attributeAutogradLinks(readExportFile(trace), kernels);
}

}  // namespace ascendsim

namespace ascendsim {

void readDbAutogradLinks(const SqliteReader& db, std::vector<RealKernel>& kernels) {
    using namespace autograd_link;
    if (!db.hasTable("PYTORCH_API") || !db.hasTable("CONNECTION_IDS") || !db.hasTable("TASK")) return;
    // The outermost op of each sequence number on each side: autograd numbers the op it records a
    // node for (aten::convolution), and the backward node (ConvolutionBackward0) carries that number
    // with its forward thread's id (fwdThreadId > 0; 0 on the forward side).
    std::map<std::int64_t, OpSpan> forwards, backwards;
    db.query("SELECT startNs, endNs, globalTid, sequenceNumber, fwdThreadId FROM PYTORCH_API "
             "WHERE sequenceNumber >= 0 AND startNs IS NOT NULL AND endNs IS NOT NULL",
             [&](const SqliteRow& row) {
                 const std::optional<std::int64_t> start = trace_json::integerOf(row.text(0));
                 const std::optional<std::int64_t> end = trace_json::integerOf(row.text(1));
                 if (!start || !end) return;
                 const OpSpan span{std::to_string(row.integer(2)), *start, *end};
                 auto& side = row.integer(4) > 0 ? backwards : forwards;
                 const auto [it, fresh] = side.emplace(row.integer(3), span);
                 if (!fresh && (span.startNs < it->second.startNs ||
                                (span.startNs == it->second.startNs && span.endNs > it->second.endNs)))
                     it->second = span;
             });
    std::vector<std::pair<OpSpan, OpSpan>> links;
    for (const auto& [sequence, forward] : forwards) {
        const auto backward = backwards.find(sequence);
        if (backward != backwards.end()) links.emplace_back(forward, backward->second);
    }
    // A task's launch: the framework op whose connection its connectionId is (CONNECTION_IDS maps a
    // PYTORCH_API row's connectionId to the ids of the tasks it launched), at that op's start.
    std::map<std::int64_t, HostPoint> launchOfTask;
    db.query("SELECT t.globalTaskId, p.globalTid, p.startNs FROM TASK t JOIN CONNECTION_IDS c ON c.connectionId = "
             "t.connectionId JOIN PYTORCH_API p ON p.connectionId = c.id",
             [&](const SqliteRow& row) {
                 const std::optional<std::int64_t> start = trace_json::integerOf(row.text(2));
                 if (start) launchOfTask.emplace(row.integer(0), HostPoint{std::to_string(row.integer(1)), *start});
             });
    assignLinks(std::move(links), kernels, [&](const RealKernel& kernel) -> std::optional<HostPoint> {
        const auto it = launchOfTask.find(static_cast<std::int64_t>(kernel.sourceLine));
        if (it == launchOfTask.end()) return std::nullopt;
        return it->second;
    });
}

}  // namespace ascendsim
