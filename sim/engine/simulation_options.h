#pragma once
// Everything the command line can ask of one simulation run. The CLI fills it; the engine reads it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ascendsim {

struct SimulationOptions {
    std::string workloadPath;
    std::string chipName;                  // empty: the workload's chip, else Ascend910B1
    std::string configDir;                 // where <chip>.yaml files live
    std::string outputParent = ".";        // parent directory of the *_ascend_pt directories
    // --output was given: it also places an E2E collection, whose PROF_* otherwise goes to the
    // e2e_profile block's profiler_result_path. outputOption names the place in error messages.
    bool outputGiven = false;
    std::string outputOption = "--output";
    std::vector<std::string> setOverrides;  // "--set key=value" in command-line order
    std::vector<std::string> chipOverrides;  // "--chip-set key.path=value" (chip what-ifs)
    std::optional<std::uint32_t> steps;
    std::optional<std::string> level;       // "Level0", "Level1", "Level2", "Level_none"
    std::optional<std::string> aicMetrics;  // "PipeUtilization", ... or ACL_AICORE_* names
    std::optional<bool> l2Cache;
    std::optional<bool> msprofTx;           // MsprofTx markers (torch_npu msprof_tx, msprof --msproftx)
    std::optional<bool> dataSimplification;
    std::optional<bool> taskTimeCsv;        // ASCEND_PROFILER_OUTPUT/task_time.csv (default true)
    std::optional<std::string> exportType;  // "text", "db", "text,db" (any torch_npu spelling)
    std::optional<std::string> activities;  // "CPU", "NPU", "CPU,NPU" (torch_npu.profiler.ProfilerActivity.X too)
    std::optional<std::string> formatVersion;  // "8.3" (default), "8.0", "2024"
    // E2E profiling (docs/e2e-profiling.md): --e2e, --acl-prof FLAG=BOOL,..., --aicore-metrics-type N.
    bool e2e = false;
    std::optional<std::string> aclProf;
    std::optional<std::string> aiCoreMetricsType;
    // `ascendsim msprof` (sim/msprof_cli/): the msprof command line's collection of the whole run,
    // a PROF_* directory under outputParent, exported when msprofExport.
    bool msprofCommandLine = false;
    bool msprofExport = true;
    std::optional<std::int64_t> rank;       // profiler_info_{rank}.json and rank-named files
    std::optional<std::string> writeRanks;  // --write-ranks 0-7,64: the ranks that get directories
    // Multi-rank runs: host threads that write the rank directories (sim/engine/cluster/
    // rank_directory_writer.h); empty: the machine's hardware threads over the local processes.
    std::optional<std::uint32_t> writeThreads;
    std::string quirks;                     // --quirks: anomalies of real data (profiler/quirks/quirk_set.h)
    std::string chromeTracePath;            // export_chrome_trace equivalent
    std::string reportPath;                 // human-readable report ("-" = stdout)
    std::string htmlPath;                   // self-contained HTML report (--html)
    // Instruction timeline of one kernel launch (docs/core-trace.md): written to coreTracePath,
    // of the first launch of op coreTraceOp (default: the first AI-core kernel) in step
    // coreTraceStep (default: any step).
    std::string coreTracePath;
    std::optional<std::string> coreTraceOp;
    std::optional<std::uint32_t> coreTraceStep;

    // Determinism: with `deterministic`, the epoch, pid and hostname are fixed (overridable).
    bool deterministic = false;
    std::optional<std::uint64_t> epochNs;
    std::optional<std::uint32_t> pid;
    std::optional<std::string> hostname;
    std::optional<std::string> workerName;
    bool showProgress = false;
    // Host threads: 1 runs everything on the simulation thread; 2 also generates kernel programs
    // on a second thread ahead of the device (identical results). Empty: 1.
    std::optional<std::uint32_t> hostThreads;
    // Simulate every step even after the schedule's last recorded one (see stepsToSimulate in
    // simulation.cpp): for equivalence checks and before/after benchmarks.
    bool simulateUnobservedSteps = false;
    // Multi-rank runs whose ranks differ (sim/engine/cluster): simulate every fixed-point round
    // in full instead of replaying each kind of rank's first simulated timeline. The reference the
    // replay is checked against (tests), and slower by the number of rounds.
    bool simulateClusterRounds = false;
    // The collectives' transfer tasks share HBM with the kernels beside them (docs/fidelity.md
    // §118): true (default, `--hccl-traffic on`) or false (`off`: HBM to the kernels alone, the
    // behaviour before session 24).
    bool hcclTraffic = true;
};

}  // namespace ascendsim
