#include "profiler/report/performance_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "profiler/report/pipe_bound.h"

namespace ascendsim {

namespace {

struct OpTypeTotals {
    std::string opType;
    std::string taskType;
    std::uint64_t count = 0;
    std::uint64_t totalNs = 0;
    std::array<std::uint64_t, kBoundPipeCount> boundNs{};  // device time per bounding pipe
};

std::string fmt(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), format, value);
    return buffer;
}

std::string pad(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

double l2HitRate(const PmuCounters& c) {
    const double hits = static_cast<double>(c[PmuEvent::L2R0ReadHit] + c[PmuEvent::L2R1ReadHit] +
                                            c[PmuEvent::L2WriteHit]);
    const double misses = static_cast<double>(c[PmuEvent::L2R0ReadMissAllocate] +
                                              c[PmuEvent::L2R1ReadMissAllocate] +
                                              c[PmuEvent::L2WriteMissAllocate]);
    return hits + misses > 0 ? hits / (hits + misses) : 0.0;
}

void writeHeader(const RunRecord& run, const ReportContext& context, std::ostream& out) {
    out << "ascendsim report: " << run.workloadName << " on " << (run.chip ? run.chip->name : "?") << "\n";
    out << "  steps simulated " << context.stepsSimulated << ", recorded " << run.steps.size()
        << ", kernels recorded " << run.kernels.size() << ", wall " << fmt("%.2f", context.wallSeconds)
        << " s\n";
    if (!context.chipEdits.empty()) {
        out << "  chip edits (--chip-set):";
        for (const auto& edit : context.chipEdits) out << " " << edit;
        out << "\n";
    }
}

void writeSteps(const RunRecord& run, std::ostream& out) {
    if (run.steps.empty()) return;
    out << "\nRecorded steps (host time vs device busy time):\n";
    for (const auto& step : run.steps) {
        std::uint64_t busyNs = 0, first = UINT64_MAX, last = 0;
        for (const auto& k : run.kernels) {
            if (k.device.startNs < step.startNs || k.device.startNs > step.endNs) continue;
            busyNs += k.device.endNs - k.device.startNs;
            first = std::min(first, k.device.startNs);
            last = std::max(last, k.device.endNs);
        }
        const double hostUs = static_cast<double>(step.endNs - step.startNs) / 1e3;
        const double spanUs = last > first ? static_cast<double>(last - first) / 1e3 : 0.0;
        out << "  ProfilerStep#" << step.stepNumber << ": host " << fmt("%.1f", hostUs) << " us, device busy "
            << fmt("%.1f", static_cast<double>(busyNs) / 1e3) << " us of a "
            << fmt("%.1f", spanUs) << " us span ("
            << fmt("%.1f", spanUs > 0 ? 100.0 * static_cast<double>(busyNs) / 1e3 / spanUs : 0.0)
            << " % busy; the rest is Free time: the device waited for the host)\n";
    }
}

void writeOpTypes(const RunRecord& run, std::ostream& out) {
    std::map<std::pair<std::string, std::string>, OpTypeTotals> byType;
    std::uint64_t allNs = 0;
    for (const auto& k : run.kernels) {
        const std::uint64_t ns = k.device.endNs - k.device.startNs;
        auto& t = byType[{k.opType, std::string(taskTypeName(k.device.type))}];
        t.opType = k.opType;
        t.taskType = std::string(taskTypeName(k.device.type));
        ++t.count;
        t.totalNs += ns;
        t.boundNs[static_cast<std::size_t>(boundPipeOf(k.device))] += ns;
        allNs += ns;
    }
    std::vector<OpTypeTotals> rows;
    for (auto& [key, t] : byType) rows.push_back(t);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.totalNs > b.totalNs; });

    out << "\nDevice time by op type (bound = the pipe with the highest busy ratio, time-weighted):\n";
    out << "  " << pad("op type", 30) << pad("core", 16) << pad("count", 7) << pad("total us", 12)
        << pad("avg us", 10) << pad("share", 8) << "bound\n";
    for (const auto& t : rows) {
        const auto bound = static_cast<BoundPipe>(
            std::max_element(t.boundNs.begin(), t.boundNs.end()) - t.boundNs.begin());
        out << "  " << pad(t.opType, 30) << pad(t.taskType, 16) << pad(std::to_string(t.count), 7)
            << pad(fmt("%.1f", static_cast<double>(t.totalNs) / 1e3), 12)
            << pad(fmt("%.2f", static_cast<double>(t.totalNs) / 1e3 / static_cast<double>(t.count)), 10)
            << pad(fmt("%.1f%%", allNs ? 100.0 * static_cast<double>(t.totalNs) / static_cast<double>(allNs) : 0.0), 8)
            << boundPipeName(bound) << "\n";
    }
}

void writePipes(const RunRecord& run, std::ostream& out) {
    PipeBusy total;
    PmuCounters l2;
    for (const auto& k : run.kernels) {
        const PipeBusy b = pipeBusy(k.device);
        for (std::size_t p = 0; p < kBoundPipeCount; ++p) total.busyCycles[p] += b.busyCycles[p];
        l2 += k.device.cubeSum;
        l2 += k.device.vectorSum;
    }
    double cubeCycles = 0, vectorCycles = 0;
    for (const auto& k : run.kernels) {
        cubeCycles += static_cast<double>(k.device.cubeSum.totalCycles);
        vectorCycles += static_cast<double>(k.device.vectorSum.totalCycles);
    }
    out << "\nPipe busy ratios over all recorded kernels (busy cycles / cycles of the cores that ran them):\n";
    auto ratio = [&](BoundPipe p, double cycles) {
        return cycles > 0 ? total.busyCycles[static_cast<std::size_t>(p)] / cycles : 0.0;
    };
    out << "  cube " << fmt("%.3f", ratio(BoundPipe::Cube, cubeCycles)) << "  mte1 "
        << fmt("%.3f", ratio(BoundPipe::Mte1, cubeCycles)) << "  fixpipe "
        << fmt("%.3f", ratio(BoundPipe::FixPipe, cubeCycles)) << "  (AI Cube cores)\n";
    out << "  vector " << fmt("%.3f", ratio(BoundPipe::Vector, vectorCycles > 0 ? vectorCycles : cubeCycles))
        << "  (AI Vector cores, or coupled cores)\n";
    out << "  scalar " << fmt("%.3f", ratio(BoundPipe::Scalar, cubeCycles + vectorCycles)) << "  mte2 "
        << fmt("%.3f", ratio(BoundPipe::Mte2, cubeCycles + vectorCycles)) << "  mte3 "
        << fmt("%.3f", ratio(BoundPipe::Mte3, cubeCycles + vectorCycles)) << "  (all cores)\n";
    out << "  L2 hit rate " << fmt("%.1f%%", 100.0 * l2HitRate(l2)) << " of line accesses\n";
}

void writeTopKernels(const RunRecord& run, std::ostream& out) {
    std::vector<const KernelRecord*> kernels;
    for (const auto& k : run.kernels) kernels.push_back(&k);
    std::sort(kernels.begin(), kernels.end(), [](const auto* a, const auto* b) {
        return a->device.endNs - a->device.startNs > b->device.endNs - b->device.startNs;
    });
    out << "\nLongest kernels:\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(10, kernels.size()); ++i) {
        const auto& k = *kernels[i];
        out << "  " << pad(fmt("%.1f us", static_cast<double>(k.device.endNs - k.device.startNs) / 1e3), 12)
            << pad(k.name, 52) << " blocks " << k.device.blockDim << ", bound "
            << boundPipeName(boundPipeOf(k.device)) << "\n";
    }
}

}  // namespace

void writePerformanceReport(const RunRecord& run, const ReportContext& context, std::ostream& out) {
    writeHeader(run, context, out);
    writeSteps(run, out);
    writeOpTypes(run, out);
    writePipes(run, out);
    writeTopKernels(run, out);
}

}  // namespace ascendsim
