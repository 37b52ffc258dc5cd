#include "profiler/writers/summary/step_trace_time.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "profiler/format/time_format.h"
#include "profiler/writers/json/json_python_number.h"

namespace ascendsim {

namespace {

// Python float(ns / 1000) for an int ns: the correctly rounded quotient, which strtod of the
// exact decimal text also gives.
double nsToUsFloat(std::uint64_t ns) { return std::strtod(nsToUsString(ns).c_str(), nullptr); }

struct StepState {
    std::optional<std::string> id;  // nullopt: the single step-less row
    PythonNumber start = PythonNumber::ofInt(-1), end = PythonNumber::ofInt(-1);
    PythonNumber e2eStart = PythonNumber::ofInt(-1), e2eEnd = PythonNumber::ofInt(-1);
    PythonNumber fwkStart = PythonNumber::ofInt(-1), firstTask = PythonNumber::ofInt(-1);
};

struct Buckets {
    PythonNumber compute, commNotOverlapped, comm, free, bubble;
};

bool isUnset(const PythonNumber& n) { return !n.isFloat() && n.asDouble() == -1.0; }

}  // namespace

std::vector<StepRange> computeStepRanges(const RunRecord& run) {
    // Every device task a torch op launched, kernels and collectives alike: torch_npu follows
    // the torch_to_npu flows, which end on HCCL ops too ([D] e5a31957 test_data kernel_details:
    // hcom_broadcast__483_0, the step's first op, is in step 2).
    struct LaunchedSpan {
        std::uint64_t correlationId, startNs, endNs;
        std::int64_t hostOpIndex;
    };
    std::vector<LaunchedSpan> spans;
    for (const auto& k : run.kernels)
        spans.push_back({k.correlationId, k.device.startNs, k.device.endNs, k.hostOpIndex});
    for (const auto& c : run.communicationOps)
        spans.push_back({c.correlationId, c.startNs, c.endNs, c.hostOpIndex});
    std::vector<StepRange> ranges;
    for (const auto& step : run.steps) {
        const LaunchedSpan* lowest = nullptr;
        const LaunchedSpan* highest = nullptr;
        for (const auto& k : spans) {
            if (k.hostOpIndex < 0 || static_cast<std::size_t>(k.hostOpIndex) >= run.hostOps.size()) continue;
            const auto& op = run.hostOps[static_cast<std::size_t>(k.hostOpIndex)];
            if (op.startNs < step.startNs || op.startNs > step.endNs) continue;
            if (!lowest || k.correlationId < lowest->correlationId) lowest = &k;
            if (!highest || k.correlationId > highest->correlationId) highest = &k;
        }
        if (!lowest) return {};  // "There is no flow events in ProfilerStep#N range."
        std::uint64_t deviceStart = UINT64_MAX, deviceEnd = 0;
        for (const auto& k : spans) {
            if (k.correlationId == lowest->correlationId) deviceStart = std::min(deviceStart, k.startNs);
            if (k.correlationId == highest->correlationId) deviceEnd = std::max(deviceEnd, k.endNs);
        }
        ranges.push_back({std::to_string(step.stepNumber), run.epochNs + deviceStart,
                          run.epochNs + std::max(deviceEnd, step.endNs), run.epochNs + step.startNs});
    }
    return ranges;
}

CsvRow stepTraceTimeHeader(FormatVersion version) {
    CsvRow header{"Step", "Computing", "Communication(Not Overlapped)", "Overlapped", "Communication", "Free",
                  "Stage", "Bubble", "Communication(Not Overlapped and Exclude Receive)", "Preparing"};
    if (version == FormatVersion::Cann83) header.insert(header.begin(), "Device_id");
    return header;
}

CsvTable buildStepTraceTime(const std::vector<TraceEvent>& timeline, const std::vector<StepRange>& steps,
                            std::optional<std::uint64_t> firstFrameworkOpNs, FormatVersion version) {
    CsvTable table;
    table.header = stepTraceTimeHeader(version);

    std::map<std::uint64_t, std::int64_t> pidDevice;
    for (const auto& e : timeline) {
        if (e.name() != "process_labels") continue;
        const std::string* labels = e.argText("labels");
        const std::string label = labels ? *labels : std::string();
        if (!label.starts_with("NPU")) continue;
        pidDevice[e.pid()] = label == "NPU" ? -1 : std::stoll(label.substr(4));
    }

    std::vector<StepState> stepTemplate;
    for (const auto& s : steps) {
        StepState st;
        st.id = s.stepId;
        st.start = PythonNumber::ofFloat(nsToUsFloat(s.startNs));
        st.end = PythonNumber::ofFloat(nsToUsFloat(s.endNs));
        st.fwkStart = PythonNumber::ofFloat(nsToUsFloat(s.fwkStartNs));
        stepTemplate.push_back(st);
    }
    if (steps.empty()) stepTemplate.push_back(StepState{});
    std::map<std::int64_t, std::vector<StepState>> stepsByDevice;
    for (const auto& [pid, device] : pidDevice) stepsByDevice.emplace(device, stepTemplate);

    // save_time[device][step] in insertion order (Python dicts), sorted at the end anyway.
    std::map<std::int64_t, std::vector<std::pair<std::optional<std::string>, Buckets>>> saved;
    bool hasAnalysisData = false;
    for (const auto& e : timeline) {
        const std::string_view name = e.name();
        const bool overlapEvent = name == "Computing" || name == "Communication" || name == "Free" ||
                                  name == "Communication(Not Overlapped)";
        const bool bubbleEvent = name.starts_with("hcom_receive");
        if (!overlapEvent && !bubbleEvent) continue;
        if (overlapEvent) hasAnalysisData = true;
        const auto pidIt = pidDevice.find(e.pid());
        if (pidIt == pidDevice.end()) continue;
        const std::int64_t device = pidIt->second;
        const double ts = nsToUsFloat(e.members.find("ts")->asUnsigned());
        const double dur = e.members.find("dur")->asReal();
        auto& deviceSteps = stepsByDevice[device];
        std::optional<std::string> current;
        for (const auto& st : deviceSteps) {
            if (st.start.asDouble() <= ts && ts < st.end.asDouble()) { current = st.id; break; }
        }
        for (auto& st : deviceSteps) {
            if (st.id != current) continue;
            if (isUnset(st.e2eStart) || ts < st.e2eStart.asDouble()) st.e2eStart = PythonNumber::ofFloat(ts);
            if (isUnset(st.e2eEnd) || ts + dur > st.e2eEnd.asDouble()) st.e2eEnd = PythonNumber::ofFloat(ts + dur);
            if ((name == "Communication" || name == "Computing") &&
                (isUnset(st.firstTask) || ts < st.firstTask.asDouble())) {
                st.firstTask = PythonNumber::ofFloat(ts);
            }
            break;
        }
        auto& rows = saved[device];
        auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.first == current; });
        if (row == rows.end()) row = rows.insert(rows.end(), {current, Buckets{}});
        const PythonNumber d = PythonNumber::ofFloat(dur);
        Buckets& b = row->second;
        if (bubbleEvent) b.bubble += d;
        else if (name == "Computing") b.compute += d;
        else if (name == "Communication") b.comm += d;
        else if (name == "Free") b.free += d;
        else b.commNotOverlapped += d;
    }
    if (!hasAnalysisData) return table;

    struct Line {
        std::int64_t device;
        std::optional<std::string> step;
        CsvRow cells;
    };
    std::vector<Line> lines;
    for (const auto& [device, rows] : saved) {
        for (const auto& [step, b] : rows) {
            if (!steps.empty() && !step) continue;
            const StepState* st = nullptr;
            for (const auto& s : stepsByDevice[device]) if (s.id == step) { st = &s; break; }
            const PythonNumber e2e = st ? st->e2eEnd - st->e2eStart : PythonNumber();
            PythonNumber prepare;
            if (st && !step) {
                prepare = firstFrameworkOpNs ? st->firstTask - PythonNumber::ofFloat(nsToUsFloat(*firstFrameworkOpNs))
                                             : PythonNumber();
            } else if (st) {
                prepare = st->firstTask - st->fwkStart;
            }
            // max(comunNotOverlp - bubble, 0): Python's max keeps the first argument unless the
            // int 0 is greater.
            const PythonNumber notOverlappedOverReceives = b.commNotOverlapped - b.bubble;
            const PythonNumber excludeReceive =
                notOverlappedOverReceives.asDouble() < 0.0 ? PythonNumber::ofInt(0) : notOverlappedOverReceives;
            CsvRow cells{step.value_or(""), b.compute.text(), b.commNotOverlapped.text(),
                         (b.comm - b.commNotOverlapped).text(), b.comm.text(), b.free.text(), (e2e - b.bubble).text(),
                         b.bubble.text(), excludeReceive.text(), prepare.text()};
            if (version == FormatVersion::Cann83) cells.insert(cells.begin(), std::to_string(device));
            lines.push_back({device, step, std::move(cells)});
        }
    }
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
        if (a.device != b.device) return a.device < b.device;
        if (a.step && b.step) return std::stoll(*a.step) < std::stoll(*b.step);
        return false;
    });
    for (auto& l : lines) table.rows.push_back(std::move(l.cells));
    return table;
}

}  // namespace ascendsim
