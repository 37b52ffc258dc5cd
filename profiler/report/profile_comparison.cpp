#include "profiler/report/profile_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <vector>

#include "profiler/format/csv_reader.h"
#include "profiler/report/report_format.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOutputFolder = "ASCEND_PROFILER_OUTPUT";

std::size_t requiredColumn(const CsvTable& table, const char* name, const fs::path& file) {
    const auto column = csvColumn(table, name);
    if (!column) throw std::runtime_error(file.string() + ": no column '" + name + "'");
    return *column;
}

// CSV numbers may carry the trailing TAB of absolute times; "N/A" and empty cells count as 0.
double numberOrZero(const std::string& cell) {
    try {
        return std::stod(cell);
    } catch (const std::exception&) {
        return 0.0;
    }
}

void readKernels(const fs::path& file, ProfileSummary& summary) {
    const CsvTable table = readCsvFile(file);
    const std::size_t name = requiredColumn(table, "Name", file);
    const std::size_t type = requiredColumn(table, "Type", file);
    const std::size_t duration = requiredColumn(table, "Duration(us)", file);
    const auto step = csvColumn(table, "Step Id");
    const auto blockDim = csvColumn(table, "Block Dim");
    std::vector<std::pair<std::string, std::size_t>> metricColumns;  // pipe ratios and bandwidths
    for (std::size_t c = 0; c < table.header.size(); ++c) {
        const std::string& h = table.header[c];
        if (h.ends_with("_ratio") || h.find("_bw") != std::string::npos) metricColumns.emplace_back(h, c);
    }
    std::vector<std::size_t> hitColumns, missColumns;
    for (std::size_t c = 0; c < table.header.size(); ++c) {
        if (table.header[c].ends_with("_cache_hit")) hitColumns.push_back(c);
        if (table.header[c].ends_with("_cache_miss_allocate")) missColumns.push_back(c);
    }
    double hits = 0, misses = 0;
    std::set<std::string> steps;
    for (const CsvRow& row : table.rows) {
        if (row.size() != table.header.size()) continue;
        const std::string& key = row[type] == "N/A" || row[type].empty() ? row[name] : row[type];
        const double us = numberOrZero(row[duration]);
        OpTypeTime& entry = summary.opTypes[key];
        ++entry.kernels;
        entry.deviceUs += us;
        summary.kernelUs += us;
        ++summary.kernelCount;
        if (step) steps.insert(row[*step]);
        KernelRow kernel{step ? row[*step] : "", row[name], row[type], us, blockDim ? row[*blockDim] : "", {}};
        for (const auto& [metric, column] : metricColumns) {
            // N/A (a side that did not run) is absent, not 0, so it does not dilute the mean.
            try {
                kernel.metrics[metric] = std::stod(row[column]);
            } catch (const std::exception&) {
            }
        }
        summary.kernels.push_back(std::move(kernel));
        for (std::size_t c : hitColumns) hits += numberOrZero(row[c]);
        for (std::size_t c : missColumns) misses += numberOrZero(row[c]);
    }
    if (hits + misses > 0) summary.l2HitRate = hits / (hits + misses);
    summary.kernelSteps = std::max<std::size_t>(1, steps.size());
}

void readStepTrace(const fs::path& file, ProfileSummary& summary) {
    const CsvTable table = readCsvFile(file);
    const std::size_t computing = requiredColumn(table, "Computing", file);
    const std::size_t notOverlapped = requiredColumn(table, "Communication(Not Overlapped)", file);
    const std::size_t free = requiredColumn(table, "Free", file);
    for (const CsvRow& row : table.rows) {
        if (row.size() != table.header.size()) continue;
        ++summary.stepRows;
        summary.computingUs += numberOrZero(row[computing]);
        summary.communicationNotOverlappedUs += numberOrZero(row[notOverlapped]);
        summary.freeUs += numberOrZero(row[free]);
    }
}

void readL2Cache(const fs::path& file, ProfileSummary& summary) {
    const CsvTable table = readCsvFile(file);
    const auto hitRate = csvColumn(table, "Hit Rate");
    if (!hitRate) return;
    double sum = 0;
    std::size_t count = 0;
    for (const CsvRow& row : table.rows) {
        if (row.size() != table.header.size()) continue;
        try {
            sum += std::stod(row[*hitRate]);
            ++count;
        } catch (const std::exception&) {
        }
    }
    if (count > 0) summary.l2HitRate = sum / static_cast<double>(count);  // the file wins over the counters
}

std::string format(const char* pattern, double value) { return formatNumber(pattern, value); }

std::string change(double base, double variant) { return percentChange(base, variant); }

std::string padLeft(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string padRight(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// Labels wider than the default column (kernel names with a block-dim change) widen it for the
// whole table, so the numbers stay in columns.
constexpr std::size_t kLabelColumn = 34;

void writeRow(std::ostream& out, const std::string& label, double base, double variant,
              std::size_t labelColumn = kLabelColumn) {
    out << "  " << padRight(label, labelColumn) << padLeft(format("%.3f", base), 14) << padLeft(format("%.3f", variant), 14)
        << padLeft(format("%+.3f", variant - base), 14) << padLeft(change(base, variant), 10) << "\n";
}

void writeStepSplit(const ProfileSummary& base, const ProfileSummary& variant, std::ostream& out) {
    if (base.stepRows == 0 || variant.stepRows == 0) {
        out << "\nStep time: step_trace_time.csv missing in " << (base.stepRows == 0 ? "BASE" : "VARIANT")
            << " (Level_none or no NPU activity)\n";
        return;
    }
    const auto perStep = [](const ProfileSummary& s, double total) { return total / static_cast<double>(s.stepRows); };
    out << "\nStep time per step (us), step_trace_time.csv (" << base.stepRows << " vs " << variant.stepRows
        << " steps):\n";
    writeRow(out, "Computing", perStep(base, base.computingUs), perStep(variant, variant.computingUs));
    writeRow(out, "Communication(Not Overlapped)", perStep(base, base.communicationNotOverlappedUs),
             perStep(variant, variant.communicationNotOverlappedUs));
    writeRow(out, "Free", perStep(base, base.freeUs), perStep(variant, variant.freeUs));
    const auto stepUs = [&](const ProfileSummary& s) {
        return perStep(s, s.computingUs + s.communicationNotOverlappedUs + s.freeUs);
    };
    writeRow(out, "Step (sum of the above)", stepUs(base), stepUs(variant));
}

void writeOpTypes(const ProfileSummary& base, const ProfileSummary& variant, std::size_t top, std::ostream& out) {
    struct Line {
        std::string opType;
        double baseUs = 0.0, variantUs = 0.0;
    };
    std::map<std::string, Line> lines;
    for (const auto& [type, time] : base.opTypes) lines[type].baseUs = opTypeUsPerStep(base, type);
    for (const auto& [type, time] : variant.opTypes) lines[type].variantUs = opTypeUsPerStep(variant, type);
    std::vector<Line> ordered;
    for (auto& [type, line] : lines) {
        line.opType = type;
        ordered.push_back(line);
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const Line& a, const Line& b) {
        return std::fabs(a.variantUs - a.baseUs) > std::fabs(b.variantUs - b.baseUs);
    });
    out << "\nDevice time per step by op type (us), kernel_details.csv, biggest change first:\n";
    out << "  " << padRight("op type", kLabelColumn) << padLeft("base", 14) << padLeft("variant", 14) << padLeft("delta", 14)
        << padLeft("change", 10) << "\n";
    const std::size_t shown = std::min(top, ordered.size());
    for (std::size_t i = 0; i < shown; ++i) writeRow(out, ordered[i].opType, ordered[i].baseUs, ordered[i].variantUs);
    if (shown < ordered.size()) out << "  ... " << ordered.size() - shown << " more op types\n";
    writeRow(out, "all kernels", base.kernelUs / static_cast<double>(base.kernelSteps),
             variant.kernelUs / static_cast<double>(variant.kernelSteps));
}

void writeMetrics(const ProfileSummary& base, const ProfileSummary& variant, std::ostream& out) {
    const auto before = weightedMetrics(base), after = weightedMetrics(variant);
    std::set<std::string> names;
    for (const auto& [name, value] : before) names.insert(name);
    for (const auto& [name, value] : after) names.insert(name);
    if (names.empty() && !base.l2HitRate && !variant.l2HitRate) return;
    out << "\nPipe ratios and bandwidths (GB/s), kernel_details.csv, duration-weighted over the kernels reporting them:\n";
    for (const auto& name : names) writeRow(out, name, metricOrZero(before, name), metricOrZero(after, name));
    if (base.l2HitRate || variant.l2HitRate)
        writeRow(out, "L2 hit rate", base.l2HitRate.value_or(0.0), variant.l2HitRate.value_or(0.0));
}

void writeKernels(const ProfileSummary& base, const ProfileSummary& variant, std::size_t top, std::ostream& out) {
    const auto changes = kernelChanges(base, variant);
    out << "\nTop kernel changes per step (us), matched by name and launch order in the step:\n";
    const std::size_t shown = std::min(top, changes.size());
    std::vector<std::string> labels;
    std::size_t labelColumn = kLabelColumn;
    for (std::size_t i = 0; i < shown; ++i) {
        const KernelChange& c = changes[i];
        std::string label = c.name;
        if (c.baseBlockDim != c.variantBlockDim)
            label += " [" + (c.baseBlockDim.empty() ? "-" : c.baseBlockDim) + "->" +
                     (c.variantBlockDim.empty() ? "-" : c.variantBlockDim) + "]";
        labelColumn = std::max(labelColumn, label.size() + 1);
        labels.push_back(std::move(label));
    }
    out << "  " << padRight("kernel [block dim base->variant]", labelColumn) << padLeft("base", 14)
        << padLeft("variant", 14) << padLeft("delta", 14) << padLeft("change", 10) << "\n";
    for (std::size_t i = 0; i < shown; ++i) writeRow(out, labels[i], changes[i].baseUs, changes[i].variantUs, labelColumn);
    if (shown < changes.size()) out << "  ... " << changes.size() - shown << " more kernels\n";
}

}  // namespace

double metricOrZero(const std::map<std::string, double>& metrics, const std::string& name) {
    const auto found = metrics.find(name);
    return found == metrics.end() ? 0.0 : found->second;
}

double opTypeUsPerStep(const ProfileSummary& summary, const std::string& type) {
    const auto found = summary.opTypes.find(type);
    return found == summary.opTypes.end() ? 0.0
                                          : found->second.deviceUs / static_cast<double>(summary.kernelSteps);
}

fs::path findProfilerOutputFolder(const fs::path& resultDir) {
    if (!fs::is_directory(resultDir)) throw std::runtime_error(resultDir.string() + ": not a directory");
    if (resultDir.filename() == kOutputFolder) return resultDir;
    if (fs::is_directory(resultDir / kOutputFolder)) return resultDir / kOutputFolder;
    std::vector<fs::path> results;
    for (const auto& entry : fs::directory_iterator(resultDir)) {
        if (entry.is_directory() && entry.path().filename().string().ends_with("_ascend_pt")) {
            results.push_back(entry.path());
        }
    }
    if (results.size() == 1 && fs::is_directory(results.front() / kOutputFolder)) {
        return results.front() / kOutputFolder;
    }
    throw std::runtime_error(resultDir.string() + ": no " + kOutputFolder + " folder (found " +
                             std::to_string(results.size()) + " *_ascend_pt directories; name one)");
}

ProfileSummary loadProfileSummary(const fs::path& resultDir) {
    ProfileSummary summary;
    summary.outputDir = findProfilerOutputFolder(resultDir);
    const fs::path kernels = summary.outputDir / "kernel_details.csv";
    if (!fs::is_regular_file(kernels)) {
        throw std::runtime_error(summary.outputDir.string() + ": no kernel_details.csv (Level_none or no NPU activity)");
    }
    readKernels(kernels, summary);
    const fs::path steps = summary.outputDir / "step_trace_time.csv";
    if (fs::is_regular_file(steps)) readStepTrace(steps, summary);
    const fs::path l2 = summary.outputDir / "l2_cache.csv";
    if (fs::is_regular_file(l2)) readL2Cache(l2, summary);
    return summary;
}

void writeProfileComparison(const ProfileSummary& base, const ProfileSummary& variant, std::size_t topOpTypes,
                            std::ostream& out) {
    out << "ascendsim compare\n";
    out << "  BASE    " << base.outputDir.string() << " (" << base.kernelCount << " kernels, " << base.kernelSteps
        << " steps)\n";
    out << "  VARIANT " << variant.outputDir.string() << " (" << variant.kernelCount << " kernels, "
        << variant.kernelSteps << " steps)\n";
    writeStepSplit(base, variant, out);
    writeOpTypes(base, variant, topOpTypes, out);
    writeMetrics(base, variant, out);
    writeKernels(base, variant, topOpTypes, out);
}

}  // namespace ascendsim
