#include "sim/engine/command_runner.h"

#include <cerrno>
#include <set>
#include <iomanip>
#include <sstream>

#include <spdlog/spdlog.h>

#include "profiler/assembly/output_assembly.h"
#include "sim/engine/cluster/rank_selection.h"
#include "profiler/report/html/compare_html.h"
#include "profiler/report/html/html_file.h"
#include "profiler/report/html/run_report_html.h"
#include "profiler/format/file_output.h"
#include "profiler/report/performance_report.h"
#include "profiler/report/profile_comparison.h"
#include "profiler/writers/timeline/trace_view.h"
#include "sim/engine/device/core_trace_writer.h"
#include "sim/engine/exit_codes.h"
#include "sim/engine/output_transaction.h"
#include "sim/config/chip_config_loader.h"
#include "sim/engine/cluster/cluster_run.h"
#include "sim/engine/cluster/rank_directory_writer.h"
#include "sim/engine/phase_clock.h"
#include "sim/engine/simulation.h"
#include "sim/microbench/microbench_runner.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

namespace {

double gib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }
double mib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

// Standard output may be a full disk or a closed pipe: a lost report is a failure, not exit 0.
void writeToStream(std::ostream& out, const std::string& text) {
    errno = 0;
    out << text;
    out.flush();
    if (!out) {
        if (errno == 0) errno = EIO;
        throwErrno("cannot write the output");
    }
}

}  // namespace

int runChipsCommand(const std::string& configDir, std::ostream& out, std::ostream& err) {
    try {
        std::ostringstream table;
        table << std::left << std::setw(18) << "chip" << std::setw(9) << "cores" << std::setw(12) << "AIC/AIV"
              << std::setw(10) << "MHz" << std::setw(10) << "L2 MiB" << std::setw(10) << "HBM GiB"
              << "HBM GB/s\n";
        for (const auto& c : listChips(configDir)) {
            table << std::left << std::setw(18) << c.name << std::setw(9) << organisationName(c.organisation)
                  << std::setw(12) << (std::to_string(c.aiCoreCount) + "/" + std::to_string(c.vectorCoreCount))
                  << std::setw(10) << c.aiCoreFreqMhz << std::setw(10) << mib(c.l2Bytes) << std::setw(10)
                  << gib(c.hbmBytes) << c.hbmBandwidthGBps << "\n";
        }
        writeToStream(out, table.str());
        return kExitSuccess;
    } catch (...) {
        return reportFailure(std::current_exception(), "chips", err);
    }
}

int runMicrobenchCommand(const std::string& chipName, const std::string& configDir, std::ostream& out,
                         std::ostream& err) {
    try {
        std::ostringstream report;
        printMicrobenchReport(chipName, configDir, report);
        writeToStream(out, report.str());
        return kExitSuccess;
    } catch (...) {
        return reportFailure(std::current_exception(), "microbench", err);
    }
}

int runCompareCommand(const std::string& baseDir, const std::vector<std::string>& variantDirs, std::size_t topOpTypes,
                      std::ostream& out, std::ostream& err, const std::string& htmlPath) {
    try {
        // Base first, so an error names BASE when both are wrong (argument order is unspecified).
        const LabelledProfile base{baseDir, loadProfileSummary(baseDir)};
        std::vector<LabelledProfile> variants;
        for (const auto& dir : variantDirs) variants.push_back({dir, loadProfileSummary(dir)});
        std::ostringstream report;
        for (std::size_t i = 0; i < variants.size(); ++i) {
            if (variants.size() > 1)
                report << (i ? "\n" : "") << "=== VARIANT " << i + 1 << " of " << variants.size() << ": "
                       << variants[i].label << "\n";
            writeProfileComparison(base.summary, variants[i].summary, topOpTypes, report);
        }
        if (!htmlPath.empty()) {
            writeHtmlFile(htmlPath, [&](std::ostream& html) { writeComparisonHtml(base, variants, topOpTypes, html); });
            report << "HTML report written to " << htmlPath << "\n";
        }
        writeToStream(out, report.str());
        return kExitSuccess;
    } catch (...) {
        // The readers throw plain runtime errors for a malformed or missing result directory.
        return reportFailure(std::current_exception(), "compare", err, true);
    }
}

int runSimulationCommand(const SimulationOptions& options, std::ostream& out, std::ostream& err) {
    SingleProcessExchange single;
    return runSimulationCommand(options, out, err, single);
}

int runSimulationCommand(const SimulationOptions& options, std::ostream& out, std::ostream& err,
                         RankExchange& exchange) {
    try {
        QuirkSet quirks;
        try {
            quirks = parseQuirks(options.quirks);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        // Every output path is checked, and the output folder created, before simulating.
        OutputTransaction transaction(withE2eResultFolder(options));
        // The phases' times per process, for bench/cluster_bench.sh (docs/performance.md "Clusters").
        const std::string process = exchange.processCount() > 1 ? "process " + std::to_string(exchange.processIndex()) +
                                                                      " of " + std::to_string(exchange.processCount()) + ": "
                                                                : "";
        const PhaseClock simulating;
        ClusterResult cluster = runCluster(options, exchange);
        if (cluster.classOfRank.size() > 1)
            spdlog::info("cluster: {}simulated in {}{}", process, simulating.elapsed(),
                         exchange.processCount() > 1
                             ? fmt::format(", of which {:.1f} s wall waiting for the other processes",
                                           exchange.waitedSeconds())
                             : std::string());
        const bool leader = exchange.processIndex() == 0;
        // Its first own rank: process 0 holds rank 0, whose record the report shows.
        const SimulationResult& result = cluster.of(cluster.ownedRanks.front());
        OutputOptions output;
        output.quirks = quirks;
        output.parentDirectory = transaction.stagingDirectory();
        output.workerName = options.workerName.value_or("");
        output.deterministic = options.deterministic;
        output.rank = options.rank;
        output.msprofCommandLine = options.msprofCommandLine;
        output.msprofExport = options.msprofExport;
        OutputResult written;
        if (result.ranks > 1) {
            // One *_ascend_pt directory per rank, as each torch.distributed process writes its own;
            // the transaction commits all of them or none.
            if (options.rank && (*options.rank < 0 || *options.rank >= result.ranks)) {
                throw WorkloadError({"<command line>", 0, 0}, "--rank",
                                    "rank " + std::to_string(*options.rank) + " is not in 0.." +
                                        std::to_string(result.ranks - 1) +
                                        " (the workload's ranks)");
            }
            output.rank.reset();
            std::set<std::uint32_t> selected;
            if (options.writeRanks) {
                try {
                    selected = parseRankSelection(*options.writeRanks, result.ranks);
                } catch (const std::invalid_argument& e) {
                    throw WorkloadError({"<command line>", 0, 0}, "--write-ranks", e.what());
                }
            }
            std::vector<std::uint32_t> ranks;
            for (const std::uint32_t rank : cluster.ownedRanks) {
                if (options.rank && *options.rank != rank) continue;
                if (options.writeRanks && !selected.count(rank)) continue;
                ranks.push_back(rank);
            }
            const std::uint32_t threads =
                options.writeThreads.value_or(defaultWriteThreads(exchange.processCount()));
            const PhaseClock writing;
            written = writeRankDirectories(cluster, ranks, result.workload.profiler, output, threads);
            spdlog::info("cluster: {}wrote {} rank directories in {} on {} threads", process, ranks.size(),
                         writing.elapsed(), threads);
        } else {
            written = writeProfilerOutput(result.record, result.workload.profiler, output);
        }
        if (leader && !options.chromeTracePath.empty())
            writeChromeTrace(transaction.stageFile(options.chromeTracePath), result.record,
                             result.workload.profiler);
        if (leader && result.coreTrace)
            writeCoreTraceFile(transaction.stageFile(options.coreTracePath).string(), *result.coreTrace);
        if (leader && !options.htmlPath.empty()) {
            writeHtmlFile(transaction.stageFile(options.htmlPath).string(), [&](std::ostream& html) {
                writeRunReportHtml(result.record, "ascendsim report: " + result.workload.name, html);
            });
        }

        ReportContext context;
        context.stepsSimulated = result.stepsSimulated;
        context.wallSeconds = result.wallSeconds;
        context.chipEdits = options.chipOverrides;
        std::ostringstream report;
        writePerformanceReport(result.record, context, report);
        const bool reportToStdout = leader && (options.reportPath.empty() || options.reportPath == "-");
        if (leader && !reportToStdout) writeFileBytes(transaction.stageFile(options.reportPath), report.str());
        transaction.commit();

        std::ostringstream text;
        if (reportToStdout) text << report.str();
        if (leader && result.coreTrace) {
            writeCoreTraceSummary(*result.coreTrace, text);
            text << "core trace written to " << options.coreTracePath
                 << " (open it in https://ui.perfetto.dev or chrome://tracing)\n";
        }
        if (leader && !options.htmlPath.empty()) text << "HTML report written to " << options.htmlPath << "\n";
        for (const auto& dir : written.directories)
            text << "profiling data written to " << transaction.finalPathOf(dir).string() << "\n";
        writeToStream(out, text.str());
        if (written.directories.empty() && leader) {
            // torch_npu likewise writes nothing when on_trace_ready never fires; say so instead of
            // leaving the user to wonder where the output went.
            err << "ascendsim: warning: the profiler schedule records none of the " << result.stepsSimulated
                << " simulated steps, so no *_ascend_pt directory was written (raise --steps or change the "
                   "workload's profiler schedule)\n";
        }
        return kExitSuccess;
    } catch (...) {
        return reportFailure(std::current_exception(), "", err);
    }
}

}  // namespace ascendsim
