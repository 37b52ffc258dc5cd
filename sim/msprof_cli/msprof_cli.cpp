#include "sim/msprof_cli/msprof_cli.h"

#include <stdexcept>

#include "sim/engine/command_runner.h"
#include "sim/engine/exit_codes.h"
#include "sim/msprof_cli/msprof_export_only.h"

namespace ascendsim {

namespace {

const auto kOnOff = CLI::IsMember({"on", "off"});

}  // namespace

MsprofCli::MsprofCli(CLI::App& app, const SimulationOptions& base) : base_(base) {
    msprof_ = app.add_subcommand(
        "msprof", "The msprof command line: simulate --application (a workload YAML) and write a PROF_* "
                  "collection into --output, exported with --export=on; without --application, --export=on "
                  "--output=PROF_DIR exports an existing collection's raw data (docs/e2e-profiling.md)");
    msprof_->add_option("--application", application_,
                        "The profiled application: here a workload YAML file (msprof runs a program)");
    msprof_->add_option("--workload,-w", workload_, "Same as --application");
    msprof_->add_option("--output", output_, "Directory to write PROF_* into; without --application, the PROF_* directory (or its parent) to export")->required();
    msprof_->add_option("--aic-metrics", aicMetrics_,
                        "PipeUtilization (default), ArithmeticUtilization, Memory, MemoryL0, MemoryUB, "
                        "ResourceConflictRatio, L2Cache, MemoryAccess")
        ->capture_default_str();
    msprof_->add_option("--ai-core", aiCore_, "AI Core PMU counters: on|off")->check(kOnOff)->capture_default_str();
    msprof_->add_option("--task-time", taskTime_, "Task timing: on (= l1), l1, l0, off")
        ->check(CLI::IsMember({"on", "off", "l0", "l1"}))
        ->capture_default_str();
    msprof_->add_option("--export", exportOn_, "Export the collection (mindstudio_profiler_output/): on|off")
        ->check(kOnOff)
        ->capture_default_str();
    msprof_->add_option("--l2", l2_, "L2 cache counters: on|off")->check(kOnOff)->capture_default_str();
    msprof_->add_option("--runtime-api", runtimeApi_, "Runtime API data: on|off")->check(kOnOff)->capture_default_str();
    msprof_->add_option("--aicpu", aicpu_, "AI CPU data: on|off")->check(kOnOff)->capture_default_str();
    msprof_->add_option("--msproftx", msproftx_, "MsprofTx markers: on|off")->check(kOnOff)->capture_default_str();
    msprof_->add_option("--chip", own_.chipName, "Chip to simulate (default: the workload's)");
    msprof_->add_option("--steps", own_.steps, "Steps to run");
    msprof_->add_option("--set", own_.setOverrides, "Override a workload parameter (batch=8); repeatable");
    msprof_->add_option("--format-version", own_.formatVersion,
                        "Export era: 8.3 (default), 8.0, 2024, 2023 (timeline/ and summary/ per device)");
    msprof_->add_flag("--deterministic", own_.deterministic, "Fixed epoch, pid and hostname");
}

SimulationOptions MsprofCli::simulationOptions() const {
    SimulationOptions o = base_;
    if (!own_.chipName.empty()) o.chipName = own_.chipName;
    if (own_.steps) o.steps = own_.steps;
    o.setOverrides.insert(o.setOverrides.end(), own_.setOverrides.begin(), own_.setOverrides.end());
    if (own_.formatVersion) o.formatVersion = own_.formatVersion;
    o.deterministic = o.deterministic || own_.deterministic;
    if (!application_.empty() && !workload_.empty() && application_ != workload_)
        throw std::invalid_argument("--application and --workload name different workloads");
    o.workloadPath = application_.empty() ? workload_ : application_;
    if (o.workloadPath.empty())
        throw std::invalid_argument(
            "--application (or --workload) is required to collect; --export=on --output=PROF_DIR alone exports "
            "an existing collection");
    if (o.workloadPath.find(' ') != std::string::npos)
        throw std::invalid_argument("--application '" + o.workloadPath +
                                    "': give a workload YAML file (docs/workload-format.md), not a command line");
    o.outputParent = output_;
    o.outputGiven = true;
    o.msprofCommandLine = true;
    o.msprofExport = exportOn_ == "on";
    // The collection switches as msprof sets the profiler levels (formats.md §1.6: Level0 = task
    // time l0, Level1 = l1 with AscendCL and HCCL, Level2 = Level1 with runtime API and AI CPU).
    const bool level2 = runtimeApi_ == "on" || aicpu_ == "on";
    if (taskTime_ == "off") o.level = "Level_none";
    else if (taskTime_ == "l0") o.level = "Level0";
    else o.level = level2 ? "Level2" : "Level1";
    if ((taskTime_ == "off" || taskTime_ == "l0") && level2)
        throw std::invalid_argument("--runtime-api/--aicpu need --task-time=on or l1");
    o.aicMetrics = aiCore_ == "on" ? aicMetrics_ : std::string("AiCoreNone");
    o.l2Cache = l2_ == "on";
    o.msprofTx = msproftx_ == "on";
    return o;
}

std::optional<int> MsprofCli::runIfParsed(std::ostream& out, std::ostream& err) {
    if (!msprof_->parsed()) return std::nullopt;
    // msprof's second use: export a collection that exists (no application to run).
    if (application_.empty() && workload_.empty() && exportOn_ == "on")
        return exportExistingCollection(output_, own_.chipName, base_.configDir, out, err);
    SimulationOptions options;
    try {
        options = simulationOptions();
    } catch (const std::invalid_argument& e) {
        err << "ascendsim msprof: " << e.what() << "\n";
        return kExitBadInput;
    }
    return runSimulationCommand(options, out, err);
}

}  // namespace ascendsim
