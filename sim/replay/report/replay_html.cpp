#include "sim/replay/report/replay_html.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "profiler/report/html/html_page.h"
#include "profiler/report/report_format.h"
#include "sim/replay/input/real_tensors.h"

namespace ascendsim {

namespace {

std::string number(double v, const char* pattern = "%.3f") { return formatNumber(pattern, v); }

// Foreach rows list 33 tensors: a table cell keeps the first 60 characters.
std::string shortShapes(const std::string& shapes) {
    constexpr std::size_t kMax = 60;
    return shapes.size() <= kMax ? shapes : shapes.substr(0, kMax) + "...";
}

std::string kernelLabel(const ReplayedKernel& k) {
    return k.sample.type + " [" + shortShapes(k.sample.inputShapes) + "] bd " + std::to_string(k.sample.blockDim);
}

double ratioOf(const ReplayedKernel& k) { return k.simulated->durationUs / k.realUs; }

bool replayed(const ReplayedKernel& k) { return k.simulated && k.realUs > 0.0 && k.simulated->durationUs > 0.0; }

// y = factor·x over the real-time range: the identity and the ±20 % band edges.
ScatterSeries bandLine(const std::string& name, double factor, double lo, double hi) {
    ScatterSeries line{name, {{lo, lo * factor, "", ""}, {hi, hi * factor, "", ""}}, true};
    return line;
}

}  // namespace

void writeReplayHtml(const ReplayReport& report, std::ostream& out) {
    HtmlPage page("ascendsim replay");
    const ReplayCoverage coverage = replayCoverage(report.kernels);
    const FidelityStats all = fidelityStats(fidelityInputs(report.kernels));
    page.paragraph(report.source.string() + " (export " + report.exportType + ") replayed on " + report.chipName + " (" +
                   report.chipReason + "), L2 " + std::string(l2StateName(report.l2)) + " at every kernel start.");
    page.paragraph("Coverage: " + number(100.0 * coverage.share(), "%.1f") + " % of real compute-kernel time (" +
                   number(coverage.replayedUs) + " of " + number(coverage.computeUs) + " us). " +
                   std::to_string(all.kernels) + " distinct kernels replayed: median abs error " +
                   number(100.0 * all.medianAbsError, "%.1f") + " %, geomean sim/real " + number(all.geomeanRatio) +
                   ", within ±20 %: " + number(100.0 * all.withinBandShare, "%.1f") + " %.");

    // Scatter: one series per family, in order of first appearance; the kernel table rows are the link targets.
    std::vector<std::string> families;
    std::map<std::string, std::size_t> seriesOf;
    std::vector<ScatterSeries> series;
    double lo = 0.0, hi = 0.0;
    for (std::size_t i = 0; i < report.kernels.size(); ++i) {
        const ReplayedKernel& k = report.kernels[i];
        if (!replayed(k)) continue;
        if (!seriesOf.count(k.family)) {
            seriesOf[k.family] = series.size();
            series.push_back(ScatterSeries{k.family, {}, false});
            families.push_back(k.family);
        }
        series[seriesOf[k.family]].points.push_back(
            {k.realUs, k.simulated->durationUs, kernelLabel(k) + ": sim/real " + number(ratioOf(k)), "#kernel-" + std::to_string(i)});
        lo = lo == 0.0 ? std::min(k.realUs, k.simulated->durationUs) : std::min({lo, k.realUs, k.simulated->durationUs});
        hi = std::max({hi, k.realUs, k.simulated->durationUs});
    }
    if (!series.empty()) {
        series.push_back(bandLine("sim = real", 1.0, lo, hi));
        series.push_back(bandLine("+20 %", 1.0 + kWithinBand, lo, hi));
        series.push_back(bandLine("-20 %", 1.0 - kWithinBand, lo, hi));
    }
    page.heading("Simulated vs real kernel time");
    page.scatterChart("sim-vs-real", "Each distinct kernel: real (x) and simulated (y) duration, us", "real us", "simulated us",
                      series);

    // Per family: median abs error and share within the band, as bars.
    ChartSeries errors{"median abs error (%)", {}}, within{"within ±20 % (%)", {}};
    std::vector<std::vector<std::string>> familyRows;
    for (const auto& family : families) {
        const FidelityStats s = fidelityStats(fidelityInputs(report.kernels, family));
        errors.values.push_back(100.0 * s.medianAbsError);
        within.values.push_back(100.0 * s.withinBandShare);
        familyRows.push_back({family, std::to_string(s.kernels), number(100.0 * s.medianAbsError, "%.1f"), number(s.geomeanRatio),
                              number(100.0 * s.withinBandShare, "%.1f")});
    }
    page.heading("Error per op family");
    page.barChart("family-errors", "Median abs error and share within ±20 % per family", families, {errors, within}, "%");
    page.table("families", {"family", "kernels", "median abs error %", "geomean sim/real", "within ±20 % %"}, familyRows);

    // The kernels furthest from real, by |log(sim/real)|.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < report.kernels.size(); ++i)
        if (replayed(report.kernels[i])) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::fabs(std::log(ratioOf(report.kernels[a]))) > std::fabs(std::log(ratioOf(report.kernels[b])));
    });
    std::vector<std::vector<std::string>> worstRows;
    std::vector<std::string> worstIds;
    for (std::size_t n = 0; n < order.size(); ++n) {
        const ReplayedKernel& k = report.kernels[order[n]];
        worstRows.push_back({k.sample.type, k.family, k.sample.acceleratorCore, std::to_string(k.sample.blockDim),
                             shortShapes(k.sample.inputShapes), std::to_string(k.occurrences), number(k.realUs), number(k.simulated->durationUs),
                             number(ratioOf(k))});
        worstIds.push_back("kernel-" + std::to_string(order[n]));
    }
    page.heading("Kernels, furthest from real first");
    page.table("worst-kernels", {"type", "family", "core", "block dim", "input shapes", "occurrences", "real us", "simulated us", "sim/real"},
               worstRows, worstIds);

    std::vector<std::vector<std::string>> missing;
    for (const auto& k : report.kernels)
        if (!k.simulated)
            missing.push_back({k.sample.type, shortShapes(k.sample.inputShapes), std::to_string(k.occurrences), number(k.realTotalUs),
                               k.excluded.empty() ? k.reason : k.excluded});
    page.heading("Not replayed");
    page.table("not-replayed", {"type", "input shapes", "occurrences", "real us (all)", "reason"}, missing);
    page.write(out);
}

}  // namespace ascendsim
