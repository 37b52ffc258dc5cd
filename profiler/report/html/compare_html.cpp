#include "profiler/report/html/compare_html.h"

#include <algorithm>
#include <set>

#include "profiler/report/html/html_page.h"
#include "profiler/report/report_format.h"

namespace ascendsim {

namespace {

std::string number(double v, const char* pattern = "%.3f") { return formatNumber(pattern, v); }

// One variant keeps the classic base/variant/delta/change columns; with several, each variant
// gets its value and its change against BASE.
std::vector<std::string> header(const std::string& first, std::size_t variants) {
    if (variants == 1) return {first, "base", "variant", "delta", "change"};
    std::vector<std::string> h = {first, "base"};
    for (std::size_t v = 1; v <= variants; ++v) {
        h.push_back("variant " + std::to_string(v));
        h.push_back("change " + std::to_string(v));
    }
    return h;
}

std::vector<std::string> row(const std::string& label, double base, const std::vector<double>& variants) {
    if (variants.size() == 1)
        return {label, number(base), number(variants[0]), number(variants[0] - base, "%+.3f"),
                percentChange(base, variants[0])};
    std::vector<std::string> r = {label, number(base)};
    for (const double v : variants) {
        r.push_back(number(v));
        r.push_back(percentChange(base, v));
    }
    return r;
}

void stepSplitChart(HtmlPage& page, const LabelledProfile& base, const std::vector<LabelledProfile>& variants) {
    if (base.summary.stepRows == 0) return;
    for (const auto& v : variants)
        if (v.summary.stepRows == 0) return;
    const auto series = [&](const LabelledProfile& p, const std::string& name) {
        const ProfileSummary& s = p.summary;
        const double steps = static_cast<double>(s.stepRows);
        return ChartSeries{name, {s.computingUs / steps, s.communicationNotOverlappedUs / steps, s.freeUs / steps}};
    };
    std::vector<ChartSeries> bars = {series(base, "base")};
    for (std::size_t i = 0; i < variants.size(); ++i)
        bars.push_back(series(variants[i], variants.size() == 1
                                               ? "variant"
                                               : "variant " + std::to_string(i + 1) + " (" + variants[i].label + ")"));
    page.heading("Step time split (step_trace_time.csv)");
    page.barChart("step-split", "Step time per step (us)", {"Computing", "Communication (not overlapped)", "Free"},
                  bars, "us per step");
}

void topChangesChart(HtmlPage& page, const std::vector<KernelChange>& changes, std::size_t top, const std::string& id,
                     const std::string& heading) {
    const std::size_t shown = std::min(top, changes.size());
    std::vector<std::string> labels;
    ChartSeries delta{"variant - base (us)", {}};
    for (std::size_t i = 0; i < shown; ++i) {
        labels.push_back(changes[i].name);
        delta.values.push_back(changes[i].variantUs - changes[i].baseUs);
    }
    page.heading(heading);
    page.barChart(id, "Biggest per-kernel changes (matched by name and launch order)", labels, {delta}, "us per step",
                  true);
}

void kernelTable(HtmlPage& page, const std::vector<KernelChange>& changes, const std::string& id,
                 const std::string& heading) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& c : changes) {
        auto r = row(c.name, c.baseUs, {c.variantUs});
        r.insert(r.begin() + 1, {c.type, c.baseBlockDim, c.variantBlockDim});
        rows.push_back(std::move(r));
    }
    page.heading(heading);
    page.table(id, {"kernel", "type", "block dim base", "block dim variant", "base us", "variant us", "delta", "change"},
               rows);
}

}  // namespace

void writeComparisonHtml(const LabelledProfile& base, const std::vector<LabelledProfile>& variants, std::size_t top,
                         std::ostream& out) {
    HtmlPage page("ascendsim compare");
    const auto describe = [](const std::string& role, const LabelledProfile& p) {
        return role + " " + p.summary.outputDir.string() + " (" + std::to_string(p.summary.kernelCount) +
               " kernels, " + std::to_string(p.summary.kernelSteps) + " steps)";
    };
    std::string intro = describe("BASE", base);
    for (std::size_t i = 0; i < variants.size(); ++i)
        intro += "; " + describe(variants.size() == 1 ? "VARIANT" : "VARIANT " + std::to_string(i + 1), variants[i]);
    page.paragraph(intro + ". Times are microseconds per step.");
    stepSplitChart(page, base, variants);

    std::vector<std::vector<KernelChange>> changes;
    for (const auto& v : variants) changes.push_back(kernelChanges(base.summary, v.summary));
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const bool one = variants.size() == 1;
        topChangesChart(page, changes[i], top, one ? "top-changes" : "top-changes-" + std::to_string(i + 1),
                        one ? "Top kernel changes"
                            : "Top kernel changes, variant " + std::to_string(i + 1) + " (" + variants[i].label + ")");
    }

    std::set<std::string> types;
    for (const auto& [t, v] : base.summary.opTypes) types.insert(t);
    for (const auto& variant : variants)
        for (const auto& [t, v] : variant.summary.opTypes) types.insert(t);
    std::vector<std::vector<std::string>> opRows;
    for (const auto& t : types) {
        std::vector<double> values;
        for (const auto& v : variants) values.push_back(opTypeUsPerStep(v.summary, t));
        opRows.push_back(row(t, opTypeUsPerStep(base.summary, t), values));
    }
    page.heading("Device time by op type (kernel_details.csv)");
    page.table("op-types", header("op type", variants.size()), opRows);

    const auto before = weightedMetrics(base.summary);
    std::vector<std::map<std::string, double>> after;
    std::set<std::string> metrics;
    for (const auto& [m, v] : before) metrics.insert(m);
    for (const auto& variant : variants) {
        after.push_back(weightedMetrics(variant.summary));
        for (const auto& [m, v] : after.back()) metrics.insert(m);
    }
    std::vector<std::vector<std::string>> metricRows;
    for (const auto& m : metrics) {
        std::vector<double> values;
        for (const auto& a : after) values.push_back(metricOrZero(a, m));
        metricRows.push_back(row(m, metricOrZero(before, m), values));
    }
    bool anyL2 = base.summary.l2HitRate.has_value();
    for (const auto& v : variants) anyL2 = anyL2 || v.summary.l2HitRate.has_value();
    if (anyL2) {
        std::vector<double> values;
        for (const auto& v : variants) values.push_back(v.summary.l2HitRate.value_or(0));
        metricRows.push_back(row("L2 hit rate", base.summary.l2HitRate.value_or(0), values));
    }
    if (!metricRows.empty()) {
        page.heading("Pipe ratios, bandwidths (GB/s) and L2 hit rate, duration-weighted");
        page.table("metrics", header("metric", variants.size()), metricRows);
    }

    for (std::size_t i = 0; i < variants.size(); ++i) {
        const bool one = variants.size() == 1;
        kernelTable(page, changes[i], one ? "kernels" : "kernels-" + std::to_string(i + 1),
                    one ? "All kernels, biggest change first"
                        : "All kernels of variant " + std::to_string(i + 1) + ", biggest change first");
    }
    page.write(out);
}

}  // namespace ascendsim
