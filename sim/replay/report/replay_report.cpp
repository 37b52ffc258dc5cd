#include "sim/replay/report/replay_report.h"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iomanip>
#include <set>
#include <sstream>
#include <system_error>

#include "profiler/format/csv_writer.h"
#include "profiler/format/number_format.h"

namespace ascendsim {

namespace {

namespace fs = std::filesystem;

std::string percent(double share) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << share * 100.0 << " %";
    return text.str();
}

std::string ratioText(double value) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(3) << value;
    return text.str();
}

// Every pipe ratio column the profile reports, in a stable order.
std::vector<std::string> pipeColumns(const std::vector<ReplayedKernel>& kernels) {
    std::set<std::string> columns;
    for (const auto& k : kernels)
        for (const auto& [pipe, value] : k.realPipes) columns.insert(pipe);
    return {columns.begin(), columns.end()};
}

std::vector<std::string> families(const std::vector<ReplayedKernel>& kernels) {
    std::vector<std::string> names;
    for (const auto& k : kernels)
        if (std::find(names.begin(), names.end(), k.family) == names.end()) names.push_back(k.family);
    return names;
}

struct FamilyLine {
    std::string family;
    std::size_t distinct = 0, notReplayed = 0;
    double realUs = 0.0;
    FidelityStats stats;
};

std::vector<FamilyLine> familyLines(const ReplayReport& report) {
    std::vector<FamilyLine> lines;
    FamilyLine all{"all", report.kernels.size(), 0, 0.0, fidelityStats(fidelityInputs(report.kernels))};
    for (const auto& k : report.kernels) {
        all.realUs += k.realTotalUs;
        all.notReplayed += k.simulated ? 0 : 1;
    }
    lines.push_back(all);
    for (const auto& family : families(report.kernels)) {
        FamilyLine line{family, 0, 0, 0.0, fidelityStats(fidelityInputs(report.kernels, family))};
        for (const auto& k : report.kernels) {
            if (k.family != family) continue;
            ++line.distinct;
            line.realUs += k.realTotalUs;
            line.notReplayed += k.simulated ? 0 : 1;
        }
        lines.push_back(line);
    }
    std::stable_sort(lines.begin() + 1, lines.end(), [](const FamilyLine& a, const FamilyLine& b) { return a.realUs > b.realUs; });
    return lines;
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::system_error(errno, std::generic_category(), "cannot write " + path.string());
    out << text;
    out.close();
    if (!out) throw std::system_error(errno, std::generic_category(), "cannot write " + path.string());
}

}  // namespace

ReplayCoverage replayCoverage(const std::vector<ReplayedKernel>& kernels) {
    ReplayCoverage coverage;
    for (const auto& k : kernels) {
        coverage.computeUs += k.realTotalUs;
        if (k.simulated) coverage.replayedUs += k.realTotalUs;
    }
    return coverage;
}

namespace {

// The L2 state a group was replayed with (producer and timeline states): which inputs and copy
// targets the replay preloaded, by their index in the row's tensor cells; "none" when cold. A
// kernel the state splits (held after one kernel, cold after another) is one row per state, and
// this cell tells them apart.
std::string residentCell(const ReplayedKernel& k) {
    if (k.residentInputs.empty() && k.residentOutputs.empty()) return "none";
    const auto list = [](const char* side, const std::vector<std::size_t>& indices) {
        std::string text = side;
        for (std::size_t index : indices) text += ' ' + std::to_string(index);
        return text;
    };
    std::string cell;
    if (!k.residentInputs.empty()) cell = list("inputs", k.residentInputs);
    if (!k.residentOutputs.empty()) cell += (cell.empty() ? "" : "; ") + list("outputs", k.residentOutputs);
    return cell;
}

// Replayed kernels whose model runs a core side the real row records as idle: their ratios there have
// nothing to be compared with (dropIdleSideRatios), so the summary says how many there are.
std::size_t kernelsRunningAnIdleSide(const std::vector<ReplayedKernel>& kernels) {
    std::size_t count = 0;
    for (const auto& k : kernels) {
        if (!k.simulated) continue;
        bool runs = false;
        for (const auto& [pipe, value] : k.simulated->pipeRatios) runs = runs || sideIsIdle(k.sample, pipeColumnSide(pipe));
        count += runs ? 1 : 0;
    }
    return count;
}

}  // namespace

std::string renderReplayKernelsCsv(const ReplayReport& report) {
    CsvTable table;
    table.header = {"Name", "Type", "Family", "Accelerator Core", "Block Dim", "Mix Block Dim", "Input Shapes",
                    "Input Data Types", "Input Formats", "Output Shapes", "Output Data Types", "Output Formats",
                    "Occurrences", "Real(us)", "Simulated(us)", "Sim/Real", "Status"};
    const bool preloads = preloadsResidents(report.l2);
    if (preloads) table.header.emplace_back("L2 Resident");
    const auto pipes = pipeColumns(report.kernels);
    for (const auto& pipe : pipes) {
        table.header.push_back("real " + pipe);
        table.header.push_back("sim " + pipe);
    }
    for (const auto& k : report.kernels) {
        const RealKernel& s = k.sample;
        CsvRow row{s.name, s.type, k.family, s.acceleratorCore, std::to_string(s.blockDim), std::to_string(s.mixBlockDim),
                   s.inputShapes, s.inputDtypes, s.inputFormats, s.outputShapes, s.outputDtypes, s.outputFormats,
                   std::to_string(k.occurrences), fixed3(k.realUs)};
        if (k.simulated) {
            row.push_back(fixed3(k.simulated->durationUs));
            row.push_back(k.realUs > 0.0 ? ratioText(k.simulated->durationUs / k.realUs) : "N/A");
            row.emplace_back("replayed");
        } else {
            row.insert(row.end(), {"N/A", "N/A", "not replayed: " + k.reason});
        }
        if (preloads) row.push_back(residentCell(k));
        for (const auto& pipe : pipes) {
            const auto real = k.realPipes.find(pipe);
            row.push_back(real == k.realPipes.end() ? "N/A" : ratioText(real->second));
            const auto sim = k.simulated ? k.simulated->pipeRatios.find(pipe) : std::map<std::string, double>::const_iterator{};
            row.push_back(k.simulated && sim != k.simulated->pipeRatios.end() ? ratioText(sim->second) : "N/A");
        }
        table.rows.push_back(std::move(row));
    }
    return renderCsv(table, CsvDialect::TorchNpu);
}

std::string renderReplayFamiliesCsv(const ReplayReport& report) {
    const auto pipes = pipeColumns(report.kernels);
    CsvTable table;
    table.header = {"Family", "Distinct Kernels", "Replayed", "Not Replayed", "Real Time(us)", "Median Abs Error",
                    "Geomean Sim/Real", "Within 20%"};
    for (const auto& pipe : pipes) table.header.push_back("mean abs error " + pipe);
    for (const auto& line : familyLines(report)) {
        const bool any = line.stats.kernels > 0;
        CsvRow row{line.family, std::to_string(line.distinct), std::to_string(line.stats.kernels),
                   std::to_string(line.notReplayed), fixed3(line.realUs),
                   any ? ratioText(line.stats.medianAbsError) : "N/A", any ? ratioText(line.stats.geomeanRatio) : "N/A",
                   any ? ratioText(line.stats.withinBandShare) : "N/A"};
        for (const auto& pipe : pipes) {
            const auto it = line.stats.meanAbsPipeError.find(pipe);
            row.push_back(it == line.stats.meanAbsPipeError.end() ? "N/A" : ratioText(it->second));
        }
        table.rows.push_back(std::move(row));
    }
    return renderCsv(table, CsvDialect::TorchNpu);
}

std::string renderReplaySummary(const ReplayReport& report) {
    std::ostringstream out;
    const ReplayCoverage coverage = replayCoverage(report.kernels);
    std::size_t replayed = 0;
    for (const auto& k : report.kernels) replayed += k.simulated ? 1 : 0;
    out << "ascendsim replay: " << report.source.string() << "\n"
        << "  export " << report.exportType << ", era " << formatVersionName(report.era)
        << (report.hasShapes ? "" : ", Level0 (no op types or shapes)") << "\n"
        << "  chip " << report.chipName << ": " << report.chipReason << "\n"
        << "  L2 " << l2StateName(report.l2) << " at every kernel start\n";
    if (!report.residencyCheck.empty()) {
        out << "  L2 state against the export's l2_cache.csv (median victim rate of the rows whose inputs it holds):";
        const char* separator = " ";
        for (const ResidencyGroup& group : report.residencyCheck) {
            out << separator << group.held << " " << group.rows << " rows " << fixed3(group.medianVictimRate);
            separator = "; ";
        }
        out << "\n";
    }
    out << "  compute kernels: " << report.computeRows << " rows, " << report.kernels.size() << " distinct; "
        << "communication (excluded): " << report.communicationTasks << " tasks, " << fixed3(report.communicationUs)
        << " us\n"
        << "  coverage: " << replayed << " of " << report.kernels.size() << " distinct kernels replayed = "
        << percent(coverage.share()) << " of real compute-kernel time (" << fixed3(coverage.replayedUs) << " of "
        << fixed3(coverage.computeUs) << " us)\n\n";

    out << "  " << std::left << std::setw(24) << "family" << std::right << std::setw(9) << "kernels" << std::setw(12)
        << "median err" << std::setw(10) << "geomean" << std::setw(10) << "in ±20%" << "\n";
    for (const auto& line : familyLines(report)) {
        if (line.stats.kernels == 0) continue;
        out << "  " << std::left << std::setw(24) << line.family << std::right << std::setw(9) << line.stats.kernels
            << std::setw(12) << percent(line.stats.medianAbsError) << std::setw(10)
            << ratioText(line.stats.geomeanRatio) << std::setw(11) << percent(line.stats.withinBandShare) << "\n";
    }
    const FidelityStats all = fidelityStats(fidelityInputs(report.kernels));
    if (!all.meanAbsPipeError.empty()) {
        out << "\n  pipe ratios, mean abs error (simulated - real):\n";
        for (const auto& [pipe, error] : all.meanAbsPipeError)
            out << "    " << std::left << std::setw(22) << pipe << std::right << ratioText(error) << "  ("
                << all.pipeSamples.at(pipe) << " kernels)\n";
    }
    if (const std::size_t idle = kernelsRunningAnIdleSide(report.kernels); idle > 0)
        out << "    not compared: " << idle << " kernels run a core side the chip did not (its total_cycles 0)\n";

    struct Missing {
        std::size_t distinct = 0, rows = 0;
        double us = 0.0;
    };
    std::map<std::pair<std::string, std::string>, Missing> missing;
    for (const auto& k : report.kernels) {
        if (k.simulated) continue;
        Missing& m = missing[{k.sample.type, k.reason}];
        ++m.distinct;
        m.rows += k.occurrences;
        m.us += k.realTotalUs;
    }
    out << "\n  not replayed (" << report.kernels.size() - replayed << " distinct kernels):\n";
    if (missing.empty()) out << "    none\n";
    for (const auto& [key, m] : missing) {
        out << "    " << key.first << ": " << m.distinct << " distinct, " << m.rows << " rows, " << fixed3(m.us)
            << " us: " << key.second << "\n";
    }
    return out.str();
}

void writeReplayReport(const ReplayReport& report, const fs::path& dir) {
    const std::vector<std::pair<std::string, std::string>> files = {
        {"replay_kernels.csv", renderReplayKernelsCsv(report)},
        {"replay_families.csv", renderReplayFamiliesCsv(report)},
        {"replay_summary.txt", renderReplaySummary(report)}};
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::system_error(ec, "cannot create " + dir.string());
    std::vector<fs::path> written;
    try {
        for (const auto& [name, text] : files) {
            writeFile(dir / name, text);
            written.push_back(dir / name);
        }
    } catch (...) {
        for (const auto& path : written) fs::remove(path, ec);
        throw;
    }
}

}  // namespace ascendsim
