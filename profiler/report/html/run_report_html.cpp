#include "profiler/report/html/run_report_html.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "profiler/report/html/html_page.h"
#include "profiler/report/html/roofline.h"
#include "profiler/report/pipe_bound.h"
#include "profiler/report/report_format.h"
#include "profiler/report/step_split.h"

namespace ascendsim {

namespace {

std::string number(double v, const char* pattern = "%.2f") { return formatNumber(pattern, v); }

double durationUs(const KernelRecord& k) { return static_cast<double>(k.device.endNs - k.device.startNs) / 1e3; }

void stepSection(const RunRecord& run, HtmlPage& page) {
    const auto splits = computeStepSplits(run);
    if (splits.empty()) return;
    std::vector<std::string> labels;
    ChartSeries computing{"Computing", {}}, communication{"Communication (not overlapped)", {}}, free{"Free", {}};
    for (const auto& s : splits) {
        labels.push_back("step " + std::to_string(s.stepNumber));
        computing.values.push_back(s.computingUs);
        communication.values.push_back(s.communicationUs);
        free.values.push_back(s.freeUs);
    }
    page.heading("Step time split");
    page.barChart("step-split", "Time per recorded step (us)", labels, {computing, communication, free}, "us", true, true);
}

void kernelSection(const RunRecord& run, HtmlPage& page) {
    std::vector<std::size_t> order(run.kernels.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return durationUs(run.kernels[a]) > durationUs(run.kernels[b]); });
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> ids;
    for (std::size_t n = 0; n < order.size(); ++n) {
        const KernelRecord& k = run.kernels[order[n]];
        rows.push_back({k.name, k.opType, std::string(taskTypeName(k.device.type)), number(durationUs(k)),
                        std::to_string(k.device.blockDim), std::string(boundPipeName(boundPipeOf(k.device)))});
        ids.push_back("kernel-" + std::to_string(order[n]));
    }
    page.heading("Kernels, longest first (the roofline's points link here)");
    page.table("top-kernels", {"kernel", "op type", "core", "duration us", "block dim", "bound pipe"}, rows, ids);
}

template <typename Key>
void groupTable(const RunRecord& run, HtmlPage& page, const std::string& id, const std::string& title,
                const std::string& keyTitle, Key key) {
    struct Totals {
        std::size_t count = 0;
        double us = 0;
        std::array<double, kBoundPipeCount> boundUs{};
    };
    std::map<std::string, Totals> groups;
    double all = 0;
    for (const auto& k : run.kernels) {
        Totals& t = groups[key(k)];
        ++t.count;
        t.us += durationUs(k);
        t.boundUs[static_cast<std::size_t>(boundPipeOf(k.device))] += durationUs(k);
        all += durationUs(k);
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, t] : groups) {
        const auto bound = static_cast<BoundPipe>(std::max_element(t.boundUs.begin(), t.boundUs.end()) - t.boundUs.begin());
        rows.push_back({name, std::to_string(t.count), number(t.us), number(t.us / static_cast<double>(t.count)),
                        number(all > 0 ? 100.0 * t.us / all : 0.0, "%.1f%%"), std::string(boundPipeName(bound))});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return std::stod(a[2]) > std::stod(b[2]); });
    page.heading(title);
    page.table(id, {keyTitle, "kernels", "total us", "avg us", "share", "bound pipe (time-weighted)"}, rows);
}

double ratio(double busy, double cycles) { return cycles > 0 ? busy / cycles : 0.0; }

void pipeSection(const RunRecord& run, HtmlPage& page) {
    PipeBusy total;
    double cubeCycles = 0, vectorCycles = 0;
    PmuCounters sum;
    double seconds = 0;
    for (const auto& k : run.kernels) {
        const PipeBusy b = pipeBusy(k.device);
        for (std::size_t p = 0; p < kBoundPipeCount; ++p) total.busyCycles[p] += b.busyCycles[p];
        cubeCycles += static_cast<double>(k.device.cubeSum.totalCycles);
        vectorCycles += static_cast<double>(k.device.vectorSum.totalCycles);
        sum += k.device.cubeSum;
        sum += k.device.vectorSum;
        seconds += durationUs(k) * 1e-6;
    }
    const auto busy = [&](BoundPipe p) { return total.busyCycles[static_cast<std::size_t>(p)]; };
    const double vectorSide = vectorCycles > 0 ? vectorCycles : cubeCycles;
    const std::vector<std::string> pipes = {"cube", "mte1", "fixpipe", "vector", "scalar", "mte2", "mte3"};
    const std::vector<double> ratios = {ratio(busy(BoundPipe::Cube), cubeCycles), ratio(busy(BoundPipe::Mte1), cubeCycles),
                                        ratio(busy(BoundPipe::FixPipe), cubeCycles), ratio(busy(BoundPipe::Vector), vectorSide),
                                        ratio(busy(BoundPipe::Scalar), cubeCycles + vectorCycles),
                                        ratio(busy(BoundPipe::Mte2), cubeCycles + vectorCycles),
                                        ratio(busy(BoundPipe::Mte3), cubeCycles + vectorCycles)};
    page.heading("Pipe utilisation");
    page.paragraph("Busy cycles / cycles of the cores that ran the pipe, over all recorded kernels "
                   "(cube, mte1, fixpipe: AI Cube cores; vector: AI Vector cores; scalar, mte2, mte3: all cores).");
    page.barChart("pipe-utilisation", "Pipe busy ratio", pipes, {{"busy ratio", ratios}}, "ratio");

    const double hits = static_cast<double>(sum[PmuEvent::L2R0ReadHit] + sum[PmuEvent::L2R1ReadHit] + sum[PmuEvent::L2WriteHit]);
    const double misses = static_cast<double>(sum[PmuEvent::L2R0ReadMissAllocate] + sum[PmuEvent::L2R1ReadMissAllocate] +
                                              sum[PmuEvent::L2WriteMissAllocate]);
    const auto gbps = [&](PmuEvent e, double bytesPerCount) {
        return seconds > 0 ? static_cast<double>(sum[e]) * bytesPerCount / seconds / 1e9 : 0.0;
    };
    page.heading("L2 and memory bandwidth (averaged over kernel time)");
    page.table("memory", {"measure", "value"},
               {{"L2 hit rate", number(hits + misses > 0 ? 100.0 * hits / (hits + misses) : 0.0, "%.1f%%")},
                {"HBM read GB/s", number(gbps(PmuEvent::MainMemRead, 8))},
                {"HBM write GB/s", number(gbps(PmuEvent::MainMemWrite, 8))},
                {"L2 read GB/s", number(gbps(PmuEvent::L2Read, 256))},
                {"L2 write GB/s", number(gbps(PmuEvent::L2Write, 256))},
                {"chip HBM bandwidth GB/s", number(run.chip->hbm.bandwidthGBps)}});
}

void rooflineSection(const RunRecord& run, HtmlPage& page) {
    const ChipConfig& chip = *run.chip;
    const ChipRoofs roofs = chipRoofs(chip);
    std::map<std::string, ScatterSeries> byCore;
    double minX = 0, maxX = 0;
    for (std::size_t i = 0; i < run.kernels.size(); ++i) {
        const KernelRecord& k = run.kernels[i];
        const RoofPoint p = roofPointOf(k.device, chip);
        if (p.flops <= 0 || p.hbmBytes <= 0 || p.seconds <= 0) continue;  // no work or no traffic: off a log plot
        auto& series = byCore[std::string(taskTypeName(k.device.type))];
        series.name = std::string(taskTypeName(k.device.type)) + " kernels";
        series.points.push_back({p.intensity(), p.achievedFlops(), k.name + " (" + k.opType + ")", "#kernel-" + std::to_string(i)});
        minX = minX == 0 ? p.intensity() : std::min(minX, p.intensity());
        maxX = std::max(maxX, p.intensity());
    }
    page.heading("Roofline of " + chip.name);
    page.paragraph("Each kernel: x = operations per HBM byte, y = operations per second achieved (cube FLOPs from the "
                   "mac counters + vector element operations). Roofs from the chip config: cube and vector peaks, "
                   "HBM and L2 bandwidth. Click a point to jump to its kernel row.");
    std::vector<ScatterSeries> series;
    for (auto& [core, s] : byCore) series.push_back(std::move(s));
    const double lo = minX > 0 ? std::min(minX, 0.1) : 0.1;
    const double hi = std::max(maxX, 10000.0);
    const auto roof = [&](const std::string& name, double peak) {
        return ScatterSeries{name, {{lo, peak, name, ""}, {hi, peak, name, ""}}, true};
    };
    const auto bandwidth = [&](const std::string& name, double bytesPerSecond, double peak) {
        // y = bandwidth × intensity up to the ridge where it meets the highest compute roof.
        const double ridge = peak / bytesPerSecond;
        return ScatterSeries{name, {{lo, bytesPerSecond * lo, name, ""}, {std::max(ridge, lo), std::max(peak, bytesPerSecond * lo), name, ""}}, true};
    };
    const double peak = std::max(roofs.cubeFlops, roofs.vectorFlops);
    series.push_back(roof("cube peak " + number(roofs.cubeFlops / 1e12, "%.1f") + " TFLOP/s", roofs.cubeFlops));
    series.push_back(roof("vector peak " + number(roofs.vectorFlops / 1e12, "%.2f") + " TOP/s", roofs.vectorFlops));
    series.push_back(bandwidth("HBM " + number(roofs.hbmBytesPerSecond / 1e9, "%.0f") + " GB/s", roofs.hbmBytesPerSecond, peak));
    if (roofs.l2BytesPerSecond > 0)
        series.push_back(bandwidth("L2 " + number(roofs.l2BytesPerSecond / 1e9, "%.0f") + " GB/s", roofs.l2BytesPerSecond, peak));
    page.scatterChart("roofline", "Roofline: " + chip.name, "operations per HBM byte", "operations per second", series);
}

}  // namespace

void writeRunReportHtml(const RunRecord& run, const std::string& title, std::ostream& out) {
    if (!run.chip) throw std::logic_error("writeRunReportHtml needs the run's chip");
    HtmlPage page(title);
    page.paragraph(run.workloadName + " on " + run.chip->name + ": " + std::to_string(run.steps.size()) +
                   " recorded steps, " + std::to_string(run.kernels.size()) + " kernels recorded.");
    stepSection(run, page);
    rooflineSection(run, page);
    pipeSection(run, page);
    groupTable(run, page, "op-types", "Device time by op type", "op type", [](const KernelRecord& k) { return k.opType; });
    groupTable(run, page, "core-types", "Device time by core type", "core type",
               [](const KernelRecord& k) { return std::string(taskTypeName(k.device.type)); });
    kernelSection(run, page);
    page.write(out);
}

}  // namespace ascendsim
