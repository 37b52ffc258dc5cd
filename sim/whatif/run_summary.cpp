#include "sim/whatif/run_summary.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "profiler/report/pipe_bound.h"
#include "profiler/report/step_split.h"
#include "sim/engine/device/lowered_workload.h"

namespace ascendsim {

namespace {

double us(std::uint64_t ns) { return static_cast<double>(ns) / 1e3; }

}  // namespace

RunSummary summarizeRun(const SimulationResult& result) {
    const RunRecord& run = result.record;
    if (run.steps.empty())
        throw std::runtime_error("the profiler schedule of '" + result.workload.name +
                                 "' records no step, so there is nothing to compare (raise --steps)");
    RunSummary summary;
    summary.chip = result.chip ? result.chip->name : "";
    summary.aiCoreCount = result.chip ? result.chip->aiCoreCount : 0;
    summary.vectorCoreCount = result.chip ? result.chip->vectorCoreCount : 0;
    summary.stepsRecorded = static_cast<std::uint32_t>(run.steps.size());
    for (const StepSplit& split : computeStepSplits(run)) {
        summary.stepUs += split.stepUs;
        summary.computingUs += split.computingUs;
        summary.communicationUs += split.communicationUs;
        summary.freeUs += split.freeUs;
    }

    struct Longest {
        std::uint64_t ns = 0;
        const TaskResult* task = nullptr;
    };
    std::map<std::size_t, std::pair<double, Longest>> byOp;  // workload op index → (Σ us, longest)
    for (const auto& k : run.kernels) {
        const std::size_t op = LoweredWorkload::opIndexOf(k.device.userTag);
        const std::uint64_t ns = k.device.endNs - k.device.startNs;
        auto& [sumUs, longest] = byOp[op];
        sumUs += us(ns);
        if (!longest.task || ns > longest.ns) longest = {ns, &k.device};
        summary.deviceUs += us(ns);
    }
    for (const auto& [index, entry] : byOp) {
        if (index >= result.workload.ops.size()) continue;
        const WorkloadOp& op = result.workload.ops[index];
        summary.ops.push_back({op.name, op.type, entry.first, entry.second.task->blockDim,
                               std::string(boundPipeName(boundPipeOf(*entry.second.task))),
                               std::string(taskTypeName(entry.second.task->type))});
    }
    const double steps = static_cast<double>(summary.stepsRecorded);
    for (double* v : {&summary.stepUs, &summary.computingUs, &summary.communicationUs, &summary.freeUs,
                      &summary.deviceUs})
        *v /= steps;
    for (auto& op : summary.ops) op.deviceUs /= steps;
    return summary;
}

const OpTiming* findOpTiming(const RunSummary& summary, const std::string& op) {
    for (const auto& o : summary.ops)
        if (o.op == op) return &o;
    return nullptr;
}

namespace {

std::string exact(double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

}  // namespace

std::string serializeRunSummary(const RunSummary& s) {
    std::ostringstream out;
    out << "run\t" << s.chip << "\t" << s.aiCoreCount << "\t" << s.vectorCoreCount << "\t" << s.stepsRecorded << "\t" << exact(s.stepUs) << "\t" << exact(s.computingUs)
        << "\t" << exact(s.communicationUs) << "\t" << exact(s.freeUs) << "\t" << exact(s.deviceUs) << "\n";
    for (const auto& o : s.ops)
        out << "op\t" << o.op << "\t" << o.opType << "\t" << exact(o.deviceUs) << "\t" << o.blockDim << "\t" << o.bound
            << "\t" << o.core << "\n";
    return out.str();
}

RunSummary deserializeRunSummary(const std::string& text) {
    RunSummary s;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        std::string field;
        while (std::getline(fields, field, '\t')) f.push_back(field);
        if (!f.empty() && f[0] == "run" && f.size() == 10) {
            s.chip = f[1];
            s.aiCoreCount = static_cast<std::uint32_t>(std::stoul(f[2]));
            s.vectorCoreCount = static_cast<std::uint32_t>(std::stoul(f[3]));
            s.stepsRecorded = static_cast<std::uint32_t>(std::stoul(f[4]));
            s.stepUs = std::stod(f[5]);
            s.computingUs = std::stod(f[6]);
            s.communicationUs = std::stod(f[7]);
            s.freeUs = std::stod(f[8]);
            s.deviceUs = std::stod(f[9]);
        } else if (!f.empty() && f[0] == "op" && f.size() == 7) {
            s.ops.push_back({f[1], f[2], std::stod(f[3]), static_cast<std::uint32_t>(std::stoul(f[4])), f[5], f[6]});
        } else {
            throw std::runtime_error("malformed run summary line '" + line + "'");
        }
    }
    return s;
}

}  // namespace ascendsim
