#include "sim/whatif/sweep.h"

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <set>

#include "profiler/report/html/html_file.h"
#include "profiler/report/html/html_page.h"
#include "profiler/report/report_format.h"
#include "sim/engine/progress_meter.h"
#include "sim/whatif/summary_task.h"
#include "sim/whatif/worker_pool.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

namespace {

constexpr std::size_t kDefaultShownOps = 3;  // without op axes: the three longest ops of point 1

std::string fixed(double v, const char* pattern = "%.3f") { return formatNumber(pattern, v); }

std::string csvCell(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::vector<std::string> chooseShownOps(const SweepRequest& request, const std::vector<VaryAxis>& axes,
                                        const std::vector<RunSummary>& runs) {
    std::vector<std::string> shown;
    auto add = [&](const std::string& op) {
        if (!op.empty() && std::find(shown.begin(), shown.end(), op) == shown.end()) shown.push_back(op);
    };
    for (const auto& axis : axes) add(blockDimOpOf(axis.key));
    for (const auto& op : request.ops) add(op);
    if (shown.empty() && !runs.empty()) {
        std::vector<OpTiming> ops = runs.front().ops;
        std::stable_sort(ops.begin(), ops.end(), [](const OpTiming& a, const OpTiming& b) { return a.deviceUs > b.deviceUs; });
        for (std::size_t i = 0; i < std::min(kDefaultShownOps, ops.size()); ++i) add(ops[i].op);
    }
    return shown;
}

// A point's cells: its values, optionally the chip, the step split and device time, and per shown
// op its time, block dim and bound pipe (`missing` where the op did not run).
std::vector<std::string> pointRow(const SweepResult& sweep, std::size_t p, bool withChip, const char* timeFormat,
                                  const char* missing) {
    const RunSummary& r = sweep.runs[p];
    std::vector<std::string> row;
    for (const auto& kv : sweep.points[p]) row.push_back(kv.second);
    if (withChip) row.push_back(r.chip);
    for (double v : {r.stepUs, r.computingUs, r.communicationUs, r.freeUs, r.deviceUs}) row.push_back(fixed(v, timeFormat));
    for (const auto& op : sweep.shownOps) {
        const OpTiming* t = findOpTiming(r, op);
        row.push_back(t ? fixed(t->deviceUs, timeFormat) : missing);
        row.push_back(t ? std::to_string(t->blockDim) : missing);
        row.push_back(t ? t->bound : missing);
    }
    return row;
}

std::string padded(const std::string& text, std::size_t width) {
    return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace

std::string pointLabel(const SweepPoint& point) {
    std::string label;
    for (const auto& [key, value] : point) label += (label.empty() ? "" : " ") + key + "=" + value;
    return label;
}

SweepResult runSweep(const SweepRequest& request, std::ostream& progress) {
    SweepResult sweep;
    if (request.varies.empty())
        throw WorkloadError(SourceLocation{"<command line>", 0, 0}, "--vary", "a sweep needs at least one --vary KEY=VALUES");
    for (std::size_t i = 0; i < request.varies.size(); ++i) sweep.axes.push_back(parseVaryAxis(request.varies[i], i));
    sweep.points = expandGrid(sweep.axes);
    std::vector<std::string> labels;
    for (const auto& p : sweep.points) labels.push_back(pointLabel(p));
    ProgressMeter meter("ascendsim sweep", sweep.points.size(), request.terminal, progress);
    const auto outcomes = runTasks(
        sweep.points.size(), std::min<unsigned>(request.jobs, static_cast<unsigned>(sweep.points.size())),
        [&](std::size_t i) { return simulateAndSummarize(optionsAtPoint(request.base, sweep.points[i])); },
        [&](std::size_t i, const TaskOutcome&) { meter.finished(labels[i]); });
    sweep.runs = summariesOrThrow(outcomes, labels);
    sweep.shownOps = chooseShownOps(request, sweep.axes, sweep.runs);
    return sweep;
}

void writeSweepTable(const SweepResult& sweep, std::ostream& out) {
    out << "ascendsim sweep: " << sweep.points.size() << " points; times in us per recorded step\n";
    std::vector<std::string> header;
    for (const auto& axis : sweep.axes) header.push_back(axis.key);
    for (const char* h : {"step", "computing", "comm(not ovl)", "free", "device"}) header.push_back(h);
    for (const auto& op : sweep.shownOps) {
        header.push_back(op + " us");
        header.push_back("blocks");
        header.push_back("bound");
    }
    std::vector<std::vector<std::string>> rows;
    for (std::size_t p = 0; p < sweep.points.size(); ++p) rows.push_back(pointRow(sweep, p, false, "%.2f", "-"));
    std::vector<std::size_t> widths(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
        widths[c] = header[c].size();
        for (const auto& row : rows) widths[c] = std::max(widths[c], row[c].size());
    }
    for (std::size_t c = 0; c < header.size(); ++c) out << padded(header[c], widths[c] + 1);
    out << "\n";
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) out << padded(row[c], widths[c] + 1);
        out << "\n";
    }
    if (sweep.runs.empty()) return;
    const auto best = std::min_element(sweep.runs.begin(), sweep.runs.end(),
                                       [](const RunSummary& a, const RunSummary& b) { return a.stepUs < b.stepUs; });
    const auto worst = std::max_element(sweep.runs.begin(), sweep.runs.end(),
                                        [](const RunSummary& a, const RunSummary& b) { return a.stepUs < b.stepUs; });
    const std::size_t index = static_cast<std::size_t>(best - sweep.runs.begin());
    if (worst->stepUs > best->stepUs) {
        out << "shortest step: " << fixed(best->stepUs, "%.1f") << " us at " << pointLabel(sweep.points[index]) << "\n";
    } else {
        // A host-bound step does not move with device work; say so rather than crown the first point.
        out << "step time: " << fixed(best->stepUs, "%.1f") << " us at every point\n";
    }
    for (const auto& op : sweep.shownOps) {
        std::size_t fastest = sweep.runs.size();
        for (std::size_t p = 0; p < sweep.runs.size(); ++p) {
            const OpTiming* t = findOpTiming(sweep.runs[p], op);
            if (t && (fastest == sweep.runs.size() || t->deviceUs < findOpTiming(sweep.runs[fastest], op)->deviceUs))
                fastest = p;
        }
        if (fastest == sweep.runs.size()) continue;
        out << "fastest " << op << ": " << fixed(findOpTiming(sweep.runs[fastest], op)->deviceUs, "%.2f") << " us at "
            << pointLabel(sweep.points[fastest]) << "\n";
    }
}

void writeSweepCsv(const SweepResult& sweep, std::ostream& out) {
    std::vector<std::string> header;
    for (const auto& axis : sweep.axes) header.push_back(axis.key);
    for (const char* h : {"chip", "step_us", "computing_us", "communication_not_overlapped_us", "free_us", "device_us"})
        header.push_back(h);
    for (const auto& op : sweep.shownOps)
        for (const char* suffix : {".device_us", ".block_dim", ".bound"}) header.push_back(op + suffix);
    for (std::size_t c = 0; c < header.size(); ++c) out << (c ? "," : "") << csvCell(header[c]);
    out << "\n";
    for (std::size_t p = 0; p < sweep.points.size(); ++p) {
        const std::vector<std::string> row = pointRow(sweep, p, true, "%.3f", "");
        for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << csvCell(row[c]);
        out << "\n";
    }
}

void writeSweepHtml(const SweepResult& sweep, const std::string& title, std::ostream& out) {
    HtmlPage page(title);
    page.paragraph(std::to_string(sweep.points.size()) + " points. Times are microseconds per recorded step.");
    // One line chart per varied key: x = its values; one line per combination of the other keys'
    // values (a single line when it is the only key).
    for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
        const VaryAxis& axis = sweep.axes[a];
        std::vector<std::string> groups;
        std::vector<std::string> groupOf(sweep.points.size());
        for (std::size_t p = 0; p < sweep.points.size(); ++p) {
            SweepPoint others = sweep.points[p];
            others.erase(others.begin() + static_cast<std::ptrdiff_t>(a));
            groupOf[p] = pointLabel(others);
            if (std::find(groups.begin(), groups.end(), groupOf[p]) == groups.end()) groups.push_back(groupOf[p]);
        }
        // Step and device time on one chart, the ops' kernel times (µs, not ms) on another.
        std::vector<ChartSeries> totals, ops;
        for (const auto& group : groups) {
            auto addSeries = [&](std::vector<ChartSeries>& to, const std::string& name, auto value) {
                ChartSeries s{name + (group.empty() ? "" : " (" + group + ")"), {}};
                for (std::size_t p = 0; p < sweep.points.size(); ++p)
                    if (groupOf[p] == group) s.values.push_back(value(sweep.runs[p]));
                to.push_back(std::move(s));
            };
            addSeries(totals, "step", [](const RunSummary& r) { return r.stepUs; });
            addSeries(totals, "device", [](const RunSummary& r) { return r.deviceUs; });
            for (const auto& op : sweep.shownOps)
                addSeries(ops, op, [&](const RunSummary& r) {
                    const OpTiming* t = findOpTiming(r, op);
                    return t ? t->deviceUs : 0.0;
                });
        }
        const std::string id = "sweep-" + std::to_string(a);
        page.heading("Sweep of " + axis.key);
        page.lineChart(id + "-ops", "Kernel time of the shown ops vs " + axis.key, axis.key, axis.values, ops,
                       "us per step");
        page.lineChart(id, "Step and device time vs " + axis.key, axis.key, axis.values, totals, "us per step");
    }
    page.heading("All points");
    std::vector<std::string> header;
    for (const auto& axis : sweep.axes) header.push_back(axis.key);
    for (const char* h : {"chip", "step us", "computing us", "comm (not overlapped) us", "free us", "device us"})
        header.push_back(h);
    for (const auto& op : sweep.shownOps)
        for (const char* suffix : {" us", " blocks", " bound"}) header.push_back(op + suffix);
    std::vector<std::vector<std::string>> rows;
    for (std::size_t p = 0; p < sweep.points.size(); ++p) rows.push_back(pointRow(sweep, p, true, "%.2f", "-"));
    page.table("sweep-points", header, rows);
    page.write(out);
}

int runSweepCommand(const SweepRequest& request, std::ostream& out, std::ostream& err) {
    try {
        const SweepResult sweep = runSweep(request, err);
        // The CSV is formatted before anything is written, so a failure leaves no partial file.
        std::ostringstream csv;
        writeSweepCsv(sweep, csv);
        if (!request.htmlPath.empty())
            writeHtmlFile(request.htmlPath, [&](std::ostream& html) {
                writeSweepHtml(sweep, "ascendsim sweep: " + request.base.workloadPath, html);
            });
        std::ofstream csvFile(request.csvPath);
        if (!csvFile || !(csvFile << csv.str()) || !csvFile.flush())
            throw std::runtime_error("cannot write '" + request.csvPath.string() + "': " + std::strerror(errno));
        writeSweepTable(sweep, out);
        out << "sweep table written to " << request.csvPath.string() << "\n";
        if (!request.htmlPath.empty()) out << "HTML report written to " << request.htmlPath << "\n";
        return 0;
    } catch (...) {
        return reportFailure("ascendsim sweep", err);
    }
}

}  // namespace ascendsim
