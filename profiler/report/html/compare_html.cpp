#include "profiler/report/html/compare_html.h"

#include <algorithm>
#include <set>

#include "profiler/report/html/html_page.h"
#include "profiler/report/report_format.h"

namespace ascendsim {

namespace {

std::string number(double v, const char* pattern = "%.3f") { return formatNumber(pattern, v); }

std::vector<std::string> row(const std::string& label, double base, double variant) {
    return {label, number(base), number(variant), number(variant - base, "%+.3f"), percentChange(base, variant)};
}

const std::vector<std::string> kHeader = {"", "base", "variant", "delta", "change"};

}  // namespace

void writeComparisonHtml(const ProfileSummary& base, const ProfileSummary& variant, std::size_t top, std::ostream& out) {
    HtmlPage page("ascendsim compare");
    page.paragraph("BASE " + base.outputDir.string() + " (" + std::to_string(base.kernelCount) + " kernels, " +
                   std::to_string(base.kernelSteps) + " steps); VARIANT " + variant.outputDir.string() + " (" +
                   std::to_string(variant.kernelCount) + " kernels, " + std::to_string(variant.kernelSteps) +
                   " steps). Times are microseconds per step.");
    if (base.stepRows > 0 && variant.stepRows > 0) {
        const auto perStep = [](const ProfileSummary& s, double v) { return v / static_cast<double>(s.stepRows); };
        page.heading("Step time split (step_trace_time.csv)");
        page.barChart("step-split", "Step time per step (us)", {"Computing", "Communication (not overlapped)", "Free"},
                      {{"base",
                        {perStep(base, base.computingUs), perStep(base, base.communicationNotOverlappedUs),
                         perStep(base, base.freeUs)}},
                       {"variant",
                        {perStep(variant, variant.computingUs), perStep(variant, variant.communicationNotOverlappedUs),
                         perStep(variant, variant.freeUs)}}},
                      "us per step");
    }
    const auto changes = kernelChanges(base, variant);
    const std::size_t shown = std::min(top, changes.size());
    std::vector<std::string> labels;
    ChartSeries delta{"variant - base (us)", {}};
    for (std::size_t i = 0; i < shown; ++i) {
        labels.push_back(changes[i].name);
        delta.values.push_back(changes[i].variantUs - changes[i].baseUs);
    }
    page.heading("Top kernel changes");
    page.barChart("top-changes", "Biggest per-kernel changes (matched by name and launch order)", labels, {delta},
                  "us per step", true);

    std::vector<std::vector<std::string>> opRows;
    std::set<std::string> types;
    for (const auto& [t, v] : base.opTypes) types.insert(t);
    for (const auto& [t, v] : variant.opTypes) types.insert(t);
    for (const auto& t : types) {
        const auto us = [&](const ProfileSummary& s) {
            const auto found = s.opTypes.find(t);
            return found == s.opTypes.end() ? 0.0 : found->second.deviceUs / static_cast<double>(s.kernelSteps);
        };
        opRows.push_back(row(t, us(base), us(variant)));
    }
    page.heading("Device time by op type (kernel_details.csv)");
    auto opHeader = kHeader;
    opHeader[0] = "op type";
    page.table("op-types", opHeader, opRows);

    const auto before = weightedMetrics(base), after = weightedMetrics(variant);
    std::set<std::string> metrics;
    for (const auto& [m, v] : before) metrics.insert(m);
    for (const auto& [m, v] : after) metrics.insert(m);
    std::vector<std::vector<std::string>> metricRows;
    const auto valueOf = [](const std::map<std::string, double>& m, const std::string& k) {
        const auto found = m.find(k);
        return found == m.end() ? 0.0 : found->second;
    };
    for (const auto& m : metrics) metricRows.push_back(row(m, valueOf(before, m), valueOf(after, m)));
    if (base.l2HitRate || variant.l2HitRate)
        metricRows.push_back(row("L2 hit rate", base.l2HitRate.value_or(0), variant.l2HitRate.value_or(0)));
    if (!metricRows.empty()) {
        page.heading("Pipe ratios, bandwidths (GB/s) and L2 hit rate, duration-weighted");
        auto metricHeader = kHeader;
        metricHeader[0] = "metric";
        page.table("metrics", metricHeader, metricRows);
    }

    std::vector<std::vector<std::string>> kernelRows;
    for (const auto& c : changes) {
        auto r = row(c.name, c.baseUs, c.variantUs);
        r.insert(r.begin() + 1, {c.type, c.baseBlockDim, c.variantBlockDim});
        kernelRows.push_back(std::move(r));
    }
    page.heading("All kernels, biggest change first");
    page.table("kernels", {"kernel", "type", "block dim base", "block dim variant", "base us", "variant us", "delta", "change"},
               kernelRows);
    page.write(out);
}

}  // namespace ascendsim
