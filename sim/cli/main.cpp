// ascendsim command line: parses arguments and calls the engine; nothing else lives here.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>
#include <systemc>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "sim/config/chip_config_loader.h"
#include "sim/engine/command_runner.h"
#include "sim/engine/exit_codes.h"
#include "sim/engine/simulation_options.h"
#include "sim/engine/version.h"
#include "sim/matrix/matrix_cli.h"
#include "sim/mpi/mpi_rank_exchange.h"
#include "sim/msprof_cli/msprof_cli.h"
#include "sim/replay/replay_cli.h"
#include "sim/whatif/whatif_commands.h"

namespace {

void addRunOptions(CLI::App& app, ascendsim::SimulationOptions& o, std::string& logLevel) {
    app.add_option("--workload,-w", o.workloadPath, "Workload YAML file (see docs/workload-format.md)");
    app.add_option("--chip", o.chipName,
                   "Chip to simulate: Ascend910B1..B4, Ascend910_9391, Ascend310P3, Ascend910, or a chip "
                   "YAML file (default: the workload's chip, else Ascend910B1)");
    app.add_option("--chip-set", o.chipOverrides,
                   "What-if edit of the chip config, key path as in configs/*.yaml "
                   "(l2.size_bytes=402653184, hbm.bandwidth_gbps=3200); repeatable");
    app.add_option("--config-dir", o.configDir, "Directory of chip YAML files")->capture_default_str();
    app.add_option("--output,-o", o.outputParent,
                   "Parent directory for the {worker}_{timestamp}_ascend_pt result directories (an E2E "
                   "collection's PROF_*; default there: its profiler_result_path)")
        ->capture_default_str();
    app.add_option("--set", o.setOverrides,
                   "Override a workload parameter (batch=8) or an op's block_dim "
                   "(op.NAME.block_dim=N); repeatable");
    app.add_option("--steps", o.steps, "Number of training/inference steps to run")
        ->check(CLI::Range(std::uint32_t{1}, std::uint32_t{INT32_MAX}));
    app.add_option("--level", o.level,
                   "Profiler level: Level_none, Level0, Level1, Level2 (also ProfilerLevel.Level1, "
                   "torch_npu.profiler.ProfilerLevel.Level1)");
    app.add_option("--activities", o.activities,
                   "Profiler activities: CPU, NPU or CPU,NPU (also torch_npu.profiler.ProfilerActivity.NPU)");
    app.add_option("--quirks", o.quirks,
                   "Reproduce anomalies of real data, comma-separated (docs/ci.md): cut-ranks, "
                   "spreadsheet-timestamps, lf-endings, no-op-statistic, empty-communication, "
                   "interrupted-step, clock-skew, missing-info-json");
    app.add_option("--aic-metrics", o.aicMetrics,
                   "AI Core metrics group: PipeUtilization, ArithmeticUtilization, Memory, "
                   "MemoryL0, MemoryUB, ResourceConflictRatio, L2Cache, MemoryAccess, AiCoreNone; also "
                   "torch_npu.profiler.AiCMetrics.X, the ACL_AICORE_* names, or aiCoreMetricsType 0-6, 8, 0xFF");
    app.add_option("--l2-cache", o.l2Cache, "Collect l2_cache.csv (true/false)");
    app.add_option("--msprof-tx", o.msprofTx,
                   "Record the workload's mstx markers as MsprofTx data (true/false; the profiler's msprof_tx)");
    app.add_option("--data-simplification", o.dataSimplification,
                   "Delete intermediate CANN output as torch_npu does (true/false)");
    app.add_option("--task-time-csv", o.taskTimeCsv,
                   "Write ASCEND_PROFILER_OUTPUT/task_time.csv at Level0/1/2 as formats.md lists it "
                   "(true/false, default true; false gives the real samples' file set)");
    app.add_option("--export-type", o.exportType,
                   "text, db, or text,db (also torch_npu.profiler.ExportType.Text/Db)");
    app.add_option("--format-version", o.formatVersion,
                   "Output format era: 8.3 (CANN 8.3/torch_npu 2.7, default), 8.0, 2024, 2023 (CANN 6/7)");
    // E2E profiling (torch_npu.npu.profile with profileConfig; docs/e2e-profiling.md).
    app.add_flag("--e2e", o.e2e, "E2E profiling (use_e2e_profiler=True): the 2023 era's PROF_* collection");
    app.add_option("--acl-prof", o.aclProf, "profileConfig flags: ACL_PROF_TASK_TIME=false,ACL_PROF_L2CACHE=true,...");
    app.add_option("--aicore-metrics-type", o.aiCoreMetricsType, "profileConfig aiCoreMetricsType: 0-5 or 0xFF");
    app.add_option("--rank", o.rank, "Rank id: writes profiler_info_{rank}.json as under torch.distributed")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{INT32_MAX}));
    app.add_option("--write-ranks", o.writeRanks,
                   "Multi-rank runs: write only these ranks' directories (0-7,64,511); all ranks are simulated");
    app.add_option("--write-threads", o.writeThreads,
                   "Multi-rank runs: host threads writing the rank directories (same bytes; default: the "
                   "machine's hardware threads shared among the mpirun processes on it)")
        ->check(CLI::Range(1, 64));
    app.add_flag("--simulate-cluster-rounds", o.simulateClusterRounds,
                 "Multi-rank runs whose ranks differ (pipeline stages, slow ranks): simulate the device in every "
                 "round of the ranks' arrival times instead of replaying each rank kind's first simulation "
                 "(slower; the reference the replay is checked against)");
    app.add_option("--hccl-traffic", o.hcclTraffic,
                   "Multi-rank runs: the collectives' transfer tasks (Memcpy / Reduce_Inline) share HBM with the "
                   "kernels beside them: on (default) or off (docs/fidelity.md §118)")
        ->check(CLI::IsMember({"on", "off"}));
    app.add_option("--chrome-trace", o.chromeTracePath,
                   "Also write the trace (export_chrome_trace equivalent) to this file");
    app.add_option("--core-trace", o.coreTracePath,
                   "Write one kernel launch's instruction timeline (pipes of every core it ran on) as a "
                   "Chrome trace-event JSON file; see docs/core-trace.md");
    app.add_option("--core-trace-op", o.coreTraceOp,
                   "Op whose first launch --core-trace records (workload op name, e.g. layer1.0.conv2; "
                   "default: the first AI-core kernel)");
    app.add_option("--core-trace-step", o.coreTraceStep, "Step whose launch --core-trace records (from 0)")
        ->check(CLI::Range(std::uint32_t{0}, std::uint32_t{INT32_MAX}));
    app.add_option("--report", o.reportPath, "Write a human-readable performance report ('-' = stdout)");
    app.add_option("--html", o.htmlPath,
                   "Also write a self-contained HTML report (charts, roofline, sortable tables; opens offline) "
                   "of the run, sweep, tune or compare");
    app.add_flag("--deterministic", o.deterministic,
                 "Fixed epoch, pid and hostname so two runs give byte-identical output");
    // Epoch + simulated time is a signed 64-bit nanosecond count in the writers: 2^62 ns (year
    // 2116) leaves room for any run.
    app.add_option("--epoch-ns", o.epochNs, "Wall-clock epoch (ns) of simulated time 0")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 62));
    app.add_option("--pid", o.pid, "Process id written into names and traces")
        ->check(CLI::Range(std::uint32_t{0}, std::uint32_t{INT32_MAX}));
    app.add_option("--hostname", o.hostname, "Host name written into names and traces");
    app.add_option("--worker-name", o.workerName, "Worker name prefix of the result directory");
    app.add_option("--threads", o.hostThreads,
                   "Host threads: 1 = all on one thread, 2 = generate kernel programs on a second thread "
                   "(same results; default 1)")
        ->check(CLI::Range(1, 2));
    app.add_option("--log-level", logLevel, "trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->capture_default_str();
}

constexpr const char* kExitCodeHelp =
    "Exit codes (every command): 0 success; 2 bad input or usage (command line, workload, chip "
    "config, compare's directories); 1 runtime failure (I/O, resources; the message gives the "
    "system's reason); 130/143 interrupted by SIGINT/SIGTERM (temporary output removed). Errors "
    "go to stderr.";

// CLI11's own codes (104, 105, 109, ...) become the contract's 2; --help and --version stay 0.
int exitCodeOfParse(const CLI::App& app, const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    app.exit(e, std::cerr, std::cerr);
    return ascendsim::kExitBadInput;
}

}  // namespace

// SystemC prints its banner on stdout whenever a simulation context starts; stdout belongs to our
// own output, so the banner is switched off before SystemC's entry point runs.
int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
    ascendsim::SimulationOptions options;
    options.configDir = ascendsim::defaultConfigDir(std::string(ASCENDSIM_SOURCE_DIR) + "/configs");
    std::string logLevel = "warn";
    std::string microbenchChip = "Ascend910B1";

    CLI::App app{"ascendsim: a cycle-approximate Ascend NPU simulator with a torch_npu-compatible profiler"};
    app.set_version_flag("--version,-V", std::string("ascendsim ") + std::string(ascendsim::simulatorVersion()));
    addRunOptions(app, options, logLevel);
    auto* chips = app.add_subcommand("chips", "List the chip configurations");
    auto* microbench = app.add_subcommand("microbench", "Run the calibration microbenchmarks: model vs measured");
    microbench->add_option("--chip", microbenchChip, "Chip to calibrate")->capture_default_str();
    std::string compareBase;
    std::vector<std::string> compareVariants;
    std::size_t compareTop = 20;
    auto* compare = app.add_subcommand(
        "compare", "What-if report: step time, device time per op type and per kernel of a result directory against one or "
        "more others");
    compare->add_option("BASE", compareBase, "Result directory (*_ascend_pt, ours or real)")->required();
    compare->add_option("VARIANT", compareVariants, "Result directories to compare with BASE (one or more)")
        ->required()
        ->expected(1, -1);
    compare->add_option("--top", compareTop, "Op types to list, biggest change first")->capture_default_str();
    ascendsim::ReplayCli replayCli(app, options.configDir);
    compare->fallthrough();
    ascendsim::WhatIfCommands whatIf(app, options);
    ascendsim::MatrixCli matrixCli(app);
    ascendsim::MsprofCli msprofCli(app, options);
    app.require_subcommand(0, 1);

    app.footer(kExitCodeHelp);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return exitCodeOfParse(app, e);
    }
    spdlog::set_level(spdlog::level::from_str(logLevel));
    options.outputGiven = app.count("--output") > 0;
    options.showProgress = isatty(STDERR_FILENO) != 0;

    if (const auto code = replayCli.runIfParsed(std::cout, std::cerr, options.showProgress)) return *code;
    if (const auto exitCode = whatIf.run(std::cout, std::cerr)) return *exitCode;
    if (const auto code = matrixCli.runIfParsed(std::cout, std::cerr, options.showProgress)) return *code;
    if (const auto code = msprofCli.runIfParsed(std::cout, std::cerr)) return *code;
    if (chips->parsed()) return ascendsim::runChipsCommand(options.configDir, std::cout, std::cerr);
    if (compare->parsed())
        return ascendsim::runCompareCommand(compareBase, compareVariants, compareTop, std::cout, std::cerr,
                                            options.htmlPath);
    if (microbench->parsed())
        return ascendsim::runMicrobenchCommand(microbenchChip, options.configDir, std::cout, std::cerr);
    if (options.workloadPath.empty()) {
        std::cerr << "ascendsim: --workload is required (try --help)\n";
        return ascendsim::kExitBadInput;
    }
    // Under `mpirun -np N` the processes share the run's distinct ranks (sim/mpi).
    std::unique_ptr<ascendsim::RankExchange> exchange;
    try {
        exchange = ascendsim::makeProcessExchange();
    } catch (const std::exception& e) {
        std::cerr << "ascendsim: " << e.what() << "\n";
        return ascendsim::kExitRuntimeFailure;
    }
    return ascendsim::runSimulationCommand(options, std::cout, std::cerr, *exchange);
}
