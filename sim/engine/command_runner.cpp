#include "sim/engine/command_runner.h"

#include <spdlog/spdlog.h>

#include <fstream>
#include <iomanip>
#include <sstream>

#include "profiler/assembly/output_assembly.h"
#include "profiler/report/html/compare_html.h"
#include "profiler/report/html/html_file.h"
#include "profiler/report/html/run_report_html.h"
#include "profiler/report/performance_report.h"
#include "profiler/report/profile_comparison.h"
#include "profiler/writers/trace_view.h"
#include "sim/engine/core_trace_writer.h"
#include "sim/config/chip_config_loader.h"
#include "sim/engine/rank_records.h"
#include "sim/engine/simulation.h"
#include "sim/microbench/microbench_runner.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

namespace {

double gib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }
double mib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace

int runChipsCommand(const std::string& configDir, std::ostream& out) {
    try {
        out << std::left << std::setw(18) << "chip" << std::setw(9) << "cores" << std::setw(12) << "AIC/AIV"
            << std::setw(10) << "MHz" << std::setw(10) << "L2 MiB" << std::setw(10) << "HBM GiB"
            << "HBM GB/s\n";
        for (const auto& c : listChips(configDir)) {
            out << std::left << std::setw(18) << c.name << std::setw(9) << organisationName(c.organisation)
                << std::setw(12) << (std::to_string(c.aiCoreCount) + "/" + std::to_string(c.vectorCoreCount))
                << std::setw(10) << c.aiCoreFreqMhz << std::setw(10) << mib(c.l2Bytes) << std::setw(10)
                << gib(c.hbmBytes) << c.hbmBandwidthGBps << "\n";
        }
        return 0;
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        return 1;
    }
}

int runMicrobenchCommand(const std::string& chipName, const std::string& configDir, std::ostream& out) {
    try {
        printMicrobenchReport(chipName, configDir, out);
        return 0;
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        return 1;
    }
}

int runCompareCommand(const std::string& baseDir, const std::string& variantDir, std::size_t topOpTypes,
                      std::ostream& out, std::ostream& err, const std::string& htmlPath) {
    try {
        // Base first, so an error names BASE when both are wrong (argument order is unspecified).
        const ProfileSummary base = loadProfileSummary(baseDir);
        const ProfileSummary variant = loadProfileSummary(variantDir);
        std::ostringstream text;
        writeProfileComparison(base, variant, topOpTypes, text);
        if (!htmlPath.empty()) {
            try {
                writeHtmlFile(htmlPath, [&](std::ostream& html) { writeComparisonHtml(base, variant, topOpTypes, html); });
            } catch (const std::exception& e) {
                err << "ascendsim compare: error: " << e.what() << "\n";
                return 1;
            }
        }
        out << text.str();
        if (!htmlPath.empty()) out << "HTML report written to " << htmlPath << "\n";
        return 0;
    } catch (const std::exception& e) {
        err << "ascendsim compare: " << e.what() << "\n";
        return 2;
    }
}

int runSimulationCommand(const SimulationOptions& options, std::ostream& out, std::ostream& err) {
    try {
        QuirkSet quirks;
        try {
            quirks = parseQuirks(options.quirks);
        } catch (const std::invalid_argument& e) {
            err << "ascendsim: " << e.what() << "\n";
            return 2;
        }
        SimulationResult result = runSimulation(options);
        OutputOptions output;
        output.quirks = quirks;
        output.parentDirectory = options.outputParent;
        output.workerName = options.workerName.value_or("");
        output.deterministic = options.deterministic;
        output.rank = options.rank;
        OutputResult written;
        if (result.ranks > 1) {
            // One *_ascend_pt directory per rank, as each torch.distributed process writes its own.
            if (options.rank && (*options.rank < 0 || *options.rank >= result.ranks)) {
                throw WorkloadError({"<command line>", 0, 0}, "--rank",
                                    "rank " + std::to_string(*options.rank) + " is not in 0.." +
                                        std::to_string(result.ranks - 1) +
                                        " (the workload's ranks)");
            }
            output.rank.reset();
            for (std::uint32_t rank = 0; rank < result.ranks; ++rank) {
                if (options.rank && *options.rank != rank) continue;
                const OutputResult one = writeProfilerOutput(recordOfRank(result, rank),
                                                             result.workload.profiler, output);
                written.directories.insert(written.directories.end(), one.directories.begin(),
                                           one.directories.end());
            }
        } else {
            written = writeProfilerOutput(result.record, result.workload.profiler, output);
        }
        if (!options.chromeTracePath.empty())
            writeChromeTrace(options.chromeTracePath, result.record, result.workload.profiler);
        if (result.coreTrace) writeCoreTraceFile(options.coreTracePath, *result.coreTrace);
        if (!options.htmlPath.empty()) {
            writeHtmlFile(options.htmlPath, [&](std::ostream& html) {
                writeRunReportHtml(result.record, "ascendsim report: " + result.workload.name, html);
            });
        }

        ReportContext context;
        context.stepsSimulated = result.stepsSimulated;
        context.wallSeconds = result.wallSeconds;
        context.chipEdits = options.chipOverrides;
        if (options.reportPath.empty() || options.reportPath == "-") {
            writePerformanceReport(result.record, context, out);
        } else {
            std::ofstream report(options.reportPath);
            if (!report) throw std::runtime_error("cannot write report file '" + options.reportPath + "'");
            writePerformanceReport(result.record, context, report);
        }
        if (result.coreTrace) {
            writeCoreTraceSummary(*result.coreTrace, out);
            out << "core trace written to " << options.coreTracePath
                << " (open it in https://ui.perfetto.dev or chrome://tracing)\n";
        }
        if (!options.htmlPath.empty()) out << "HTML report written to " << options.htmlPath << "\n";
        for (const auto& dir : written.directories) out << "profiling data written to " << dir.string() << "\n";
        if (written.directories.empty()) {
            // torch_npu likewise writes nothing when on_trace_ready never fires; say so instead of
            // leaving the user to wonder where the output went.
            err << "ascendsim: warning: the profiler schedule records none of the " << result.stepsSimulated
                << " simulated steps, so no *_ascend_pt directory was written (raise --steps or change the "
                   "workload's profiler schedule)\n";
        }
        return 0;
    } catch (const WorkloadError& e) {
        err << "ascendsim: " << e.what() << "\n";
        return 2;
    } catch (const ConfigError& e) {
        err << "ascendsim: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        err << "ascendsim: error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace ascendsim
