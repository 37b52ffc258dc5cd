#include "sim/whatif/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "profiler/report/html/html_file.h"
#include "profiler/report/html/html_page.h"
#include "profiler/report/report_format.h"
#include "sim/whatif/overrides_file.h"
#include "sim/engine/progress_meter.h"
#include "sim/whatif/summary_task.h"
#include "sim/whatif/worker_pool.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

namespace {

// Fractions of the core count tried: below, at and above one block per core (more blocks than
// cores run in waves; fewer leave cores idle but cut per-block overheads and L2 traffic).
constexpr double kCoreFractions[] = {0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 2.0};

std::string number(double v, const char* pattern = "%.2f") { return formatNumber(pattern, v); }

std::string gain(double before, double after) {
    return before > 0 ? number((before - after) / before * 100.0, "%+.1f%%") : "-";
}

std::uint32_t coresFor(const OpTiming& op, const RunSummary& s) {
    return op.core == "AI_VECTOR_CORE" ? s.vectorCoreCount : s.aiCoreCount;
}

std::string blockDimKey(const std::string& op) { return "op." + op + ".block_dim"; }

std::vector<const OpTiming*> selectOps(const TuneRequest& request, const RunSummary& baseline) {
    for (const auto& name : request.ops) {
        if (!findOpTiming(baseline, name))
            throw WorkloadError(SourceLocation{"<command line>", 0, 0}, "--ops " + name,
                                "no op named '" + name + "' launched a kernel in a recorded step");
    }
    std::vector<const OpTiming*> selected;
    for (const auto& op : baseline.ops) {
        if (op.core == "AI_CPU") continue;
        const bool byName = std::find(request.ops.begin(), request.ops.end(), op.op) != request.ops.end();
        const bool byType = std::find(request.opTypes.begin(), request.opTypes.end(), op.opType) != request.opTypes.end();
        if (request.all || byName || byType) selected.push_back(&op);
    }
    if (selected.empty())
        throw WorkloadError(SourceLocation{"<command line>", 0, 0}, "--op-types",
                            "no AI-core op of the workload matches the selection (use --ops, --op-types or --all)");
    return selected;
}

}  // namespace

std::pair<double, double> objectiveBeforeAfter(const TuneResult& r) {
    switch (r.objective) {
        case TuneObjective::Step: return {r.baseline.stepUs, r.confirmed.stepUs};
        case TuneObjective::Device: return {r.baseline.deviceUs, r.confirmed.deviceUs};
        case TuneObjective::Kernel: break;
    }
    double before = 0, after = 0;
    for (const auto& t : r.ops) {
        before += t.defaultUs;
        after += t.confirmedUs;
    }
    return {before, after};
}

std::vector<std::uint32_t> blockDimCandidates(std::uint32_t cores) {
    std::vector<std::uint32_t> candidates;
    for (double f : kCoreFractions)
        candidates.push_back(std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::lround(f * cores))));
    return candidates;
}

TuneResult runTune(const TuneRequest& request, std::ostream& progress) {
    const auto start = std::chrono::steady_clock::now();
    TuneResult result;
    result.objective = request.objective;
    const TaskOutcome baselineOutcome = simulateAndSummarize(request.base);
    result.baseline = summariesOrThrow({baselineOutcome}, {"baseline run"}).front();
    const std::vector<const OpTiming*> selected = selectOps(request, result.baseline);

    // Search: run k gives every selected op its k-th candidate.
    const std::size_t runs = std::size(kCoreFractions);
    std::vector<SimulationOptions> options(runs, request.base);
    std::vector<std::vector<std::uint32_t>> dims(selected.size());
    for (std::size_t i = 0; i < selected.size(); ++i) {
        dims[i] = blockDimCandidates(coresFor(*selected[i], result.baseline));
        for (std::size_t k = 0; k < runs; ++k)
            options[k].setOverrides.push_back(blockDimKey(selected[i]->op) + "=" + std::to_string(dims[i][k]));
    }
    ProgressMeter meter("ascendsim tune", runs, request.terminal, progress);
    const auto outcomes = runTasks(
        runs, request.jobs, [&](std::size_t k) { return simulateAndSummarize(options[k]); },
        [&](std::size_t k, const TaskOutcome&) { meter.finished("candidate " + std::to_string(k + 1)); });
    result.searchRuns = runs;
    std::vector<RunSummary> candidates(runs);
    std::vector<bool> measured(runs, false);
    for (std::size_t k = 0; k < runs; ++k) {
        if (outcomes[k].exitCode == 1) throw WhatIfFailure(1, outcomes[k].text);
        if (outcomes[k].exitCode != 0) {
            result.failedCandidates.push_back(outcomes[k].text);  // e.g. a block dim a kernel model rejects
            continue;
        }
        candidates[k] = deserializeRunSummary(outcomes[k].text);
        measured[k] = true;
    }
    result.searchSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // Choice: per op, the argmin of its measured device time, the default included; a candidate
    // that beats the default by less than the tune's resolution leaves the op alone.
    std::vector<std::string> chosen;
    for (std::size_t i = 0; i < selected.size(); ++i) {
        TunedOp t{selected[i]->op, selected[i]->opType, selected[i]->core, selected[i]->blockDim, selected[i]->deviceUs,
                  selected[i]->blockDim, selected[i]->deviceUs, 0, {}};
        for (std::size_t k = 0; k < runs; ++k) {
            const OpTiming* m = measured[k] ? findOpTiming(candidates[k], t.op) : nullptr;
            if (!m) continue;
            t.measured.emplace_back(m->blockDim, m->deviceUs);
            if (m->deviceUs < t.predictedUs && isMeasurableGain(t.defaultUs, m->deviceUs)) {
                t.predictedUs = m->deviceUs;
                t.chosenBlockDim = dims[i][k];
            }
        }
        if (t.chosenBlockDim != t.defaultBlockDim)
            chosen.push_back(blockDimKey(t.op) + "=" + std::to_string(t.chosenBlockDim));
        result.ops.push_back(std::move(t));
    }

    // Confirmation: the whole workload once more with the chosen block dims.
    SimulationOptions confirm = request.base;
    confirm.setOverrides.insert(confirm.setOverrides.end(), chosen.begin(), chosen.end());
    result.confirmed = summariesOrThrow({simulateAndSummarize(confirm)}, {"confirmation run"}).front();
    for (auto& t : result.ops) {
        const OpTiming* m = findOpTiming(result.confirmed, t.op);
        t.confirmedUs = m ? m->deviceUs : 0.0;
    }
    result.totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

void writeTuneTable(const TuneResult& r, std::ostream& out) {
    out << "ascendsim tune: " << r.ops.size() << " ops, " << r.searchRuns << " search runs + baseline + confirmation\n";
    out << "  op                                 type          blocks  default us  ->blocks  predicted us  confirmed us    gain\n";
    for (const auto& t : r.ops) {
        std::string op = t.op.size() > 34 ? t.op.substr(0, 34) : t.op;
        op.resize(35, ' ');
        std::string type = t.opType;
        type.resize(13, ' ');
        out << "  " << op << type << std::string(t.defaultBlockDim < 10 ? 7 : t.defaultBlockDim < 100 ? 6 : 5, ' ')
            << t.defaultBlockDim << "  " << number(t.defaultUs, "%10.2f") << "  " << number(t.chosenBlockDim, "%8.0f")
            << "  " << number(t.predictedUs, "%12.2f") << "  " << number(t.confirmedUs, "%12.2f") << "  "
            << gain(t.defaultUs, t.confirmedUs) << "\n";
    }
    out << "step:   " << number(r.baseline.stepUs) << " us -> " << number(r.confirmed.stepUs) << " us ("
        << gain(r.baseline.stepUs, r.confirmed.stepUs) << "), confirmed by a re-run\n";
    out << "device: " << number(r.baseline.deviceUs) << " us -> " << number(r.confirmed.deviceUs) << " us ("
        << gain(r.baseline.deviceUs, r.confirmed.deviceUs) << ") per step\n";
    const auto [before, after] = objectiveBeforeAfter(r);
    const char* name = r.objective == TuneObjective::Step ? "step time" : r.objective == TuneObjective::Device ? "device time" : "tuned ops' kernel time";
    if (after <= before) {
        out << "objective (" << name << ") confirmed: " << number(before) << " us -> " << number(after) << " us\n";
    } else {
        out << "objective (" << name << ") NOT confirmed: the re-run measured " << number(after) << " us against "
            << number(before) << " us before; the ops' contexts differ from the search runs (see docs/what-if.md)\n";
    }
    for (const auto& failure : r.failedCandidates) out << "note: a candidate run was rejected: " << failure << "\n";
    out << "search " << number(r.searchSeconds, "%.1f") << " s, total " << number(r.totalSeconds, "%.1f") << " s\n";
}

bool isMeasurableGain(double defaultUs, double candidateUs) {
    const double saved = defaultUs - candidateUs;
    return saved >= 0.005 * defaultUs && saved >= 0.010;
}

std::vector<std::size_t> tuneChartOps(const std::vector<TunedOp>& ops, std::size_t limit) {
    std::vector<std::size_t> changed, all;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        all.push_back(i);
        if (ops[i].chosenBlockDim != ops[i].defaultBlockDim) changed.push_back(i);
    }
    std::vector<std::size_t>& picked = changed.empty() ? all : changed;
    const auto key = [&](std::size_t i) {
        return changed.empty() ? ops[i].defaultUs : std::fabs(ops[i].defaultUs - ops[i].confirmedUs);
    };
    std::stable_sort(picked.begin(), picked.end(), [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
    if (picked.size() > limit) picked.resize(limit);
    return picked;
}

void writeTuneHtml(const TuneResult& r, const std::string& title, std::ostream& out) {
    HtmlPage page(title);
    page.paragraph("Step " + number(r.baseline.stepUs) + " us -> " + number(r.confirmed.stepUs) + " us (" +
                   gain(r.baseline.stepUs, r.confirmed.stepUs) + "); device time per step " +
                   number(r.baseline.deviceUs) + " us -> " + number(r.confirmed.deviceUs) + " us, confirmed by a re-run.");
    std::vector<std::vector<std::string>> rows;
    for (const auto& t : r.ops)
        rows.push_back({t.op, t.opType, t.core, std::to_string(t.defaultBlockDim), number(t.defaultUs),
                        std::to_string(t.chosenBlockDim), number(t.predictedUs), number(t.confirmedUs),
                        gain(t.defaultUs, t.confirmedUs)});
    // A bar per op is unreadable past a few dozen ops (ResNet-50 has 174): the chart shows the ops
    // whose time the tune changed most, and when nothing changed, the heaviest ops it left alone.
    const std::vector<std::size_t> charted = tuneChartOps(r.ops);
    std::vector<std::string> labels;
    ChartSeries before{"default", {}}, after{"tuned (confirmed)", {}};
    for (const std::size_t i : charted) {
        labels.push_back(r.ops[i].op);
        before.values.push_back(r.ops[i].defaultUs);
        after.values.push_back(r.ops[i].confirmedUs);
    }
    const bool anyChanged = !charted.empty() && r.ops[charted.front()].chosenBlockDim != r.ops[charted.front()].defaultBlockDim;
    page.heading(anyChanged ? "Ops the tune changed, largest time change first"
                            : "No op changed its block dim: the heaviest ops, default vs re-run");
    page.barChart("tune-ops", "Device time per step (us)", labels, {before, after}, "us", true);
    page.heading("Tuned ops");
    page.table("tuned-ops", {"op", "type", "core", "default blocks", "default us", "chosen blocks", "predicted us",
                             "confirmed us", "gain"},
               rows);
    page.write(out);
}

int runTuneCommand(const TuneRequest& request, std::ostream& out, std::ostream& err) {
    try {
        const TuneResult result = runTune(request, err);
        std::vector<std::pair<std::string, std::string>> entries;
        for (const auto& t : result.ops)
            if (t.chosenBlockDim != t.defaultBlockDim) entries.emplace_back(blockDimKey(t.op), std::to_string(t.chosenBlockDim));
        std::ostringstream file;
        writeOverridesFile(file,
                           {"written by ascendsim tune for " + request.base.workloadPath,
                            "apply with: ascendsim -w " + request.base.workloadPath + " --overrides " + request.overridesPath,
                            "step " + number(result.baseline.stepUs) + " us -> " + number(result.confirmed.stepUs) +
                                " us (confirmed by a re-run)"},
                           entries);
        if (!request.htmlPath.empty())
            writeHtmlFile(request.htmlPath, [&](std::ostream& html) { writeTuneHtml(result, "ascendsim tune", html); });
        std::ofstream overrides(request.overridesPath);
        if (!overrides || !(overrides << file.str()) || !overrides.flush())
            throw std::runtime_error("cannot write '" + request.overridesPath + "'");
        writeTuneTable(result, out);
        out << "overrides written to " << request.overridesPath << " (" << entries.size() << " ops changed)\n";
        if (!request.htmlPath.empty()) out << "HTML report written to " << request.htmlPath << "\n";
        return 0;
    } catch (...) {
        return reportFailure("ascendsim tune", err);
    }
}

}  // namespace ascendsim
