#include "sim/whatif/whatif_commands.h"

#include <unistd.h>

#include "sim/whatif/overrides_file.h"
#include "sim/whatif/sweep.h"
#include "sim/whatif/tuner.h"
#include "sim/whatif/worker_pool.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

WhatIfCommands::WhatIfCommands(CLI::App& app, SimulationOptions& options) : options_(options) {
    app.add_option("--overrides", overridesPath_,
                   "YAML file of --set keys and values (as `ascendsim tune -o` writes); --set beats it");
    sweep_ = app.add_subcommand("sweep", "Run the workload over a grid of --set/--chip-set values and tabulate "
                                         "step time and the varied ops' kernel times (docs/what-if.md)");
    sweep_->fallthrough();
    sweep_->add_option("--vary", varies_,
                       "KEY=V1,V2,... or KEY=A..B[:STEP]; KEY is a --set key (batch, op.NAME.block_dim), chip, or "
                       "chip.<--chip-set key> (chip.hbm.bandwidth_gbps); repeat for a grid")
        ->required();
    sweep_->add_option("--ops", sweepOps_, "Also show these ops' kernel times (workload op names)");
    sweep_->add_option("--jobs,-j", jobs_, "Worker processes (default: the machine's cores)");
    sweep_->add_option("--csv", csvPath_, "Where to write the sweep table as CSV")->capture_default_str();

    tune_ = app.add_subcommand("tune", "Search the block dim of the selected ops, write the winners as an overrides "
                                       "file and confirm the gain with a re-run (docs/what-if.md)");
    tune_->fallthrough();
    tune_->add_option("--ops", tuneOps_, "Ops to tune (workload op names)");
    tune_->add_option("--op-types", tuneOpTypes_, "Op types to tune (Conv2D,MatMul)")->delimiter(',');
    tune_->add_flag("--all", tuneAll_, "Tune every op that runs on AI cores");
    tune_->add_option("--objective", objective_, "What the confirmation reports as the gain: step, device or kernel")
        ->check(CLI::IsMember({"step", "device", "kernel"}))
        ->capture_default_str();
    tune_->add_option("-o,--write-overrides", overridesOut_, "Where to write the overrides file")->capture_default_str();
    tune_->add_option("--jobs,-j", jobs_, "Worker processes (default: the machine's cores)");
}

std::optional<int> WhatIfCommands::run(std::ostream& out, std::ostream& err) {
    if (!overridesPath_.empty()) {
        try {
            std::vector<std::string> sets = readOverridesFile(overridesPath_);
            sets.insert(sets.end(), options_.setOverrides.begin(), options_.setOverrides.end());
            options_.setOverrides = std::move(sets);
        } catch (const WorkloadError& e) {
            err << "ascendsim: " << e.what() << "\n";
            return 2;
        }
    }
    if (sweep_->parsed()) {
        if (options_.workloadPath.empty()) {
            err << "ascendsim sweep: --workload is required (try --help)\n";
            return 2;
        }
        SweepRequest request;
        request.base = options_;
        request.varies = varies_;
        request.ops = sweepOps_;
        request.jobs = jobs_ ? jobs_ : defaultJobs();
        request.csvPath = csvPath_;
        request.htmlPath = options_.htmlPath;
        request.terminal = isatty(STDERR_FILENO) != 0;
        return runSweepCommand(request, out, err);
    }
    if (tune_->parsed()) {
        if (options_.workloadPath.empty()) {
            err << "ascendsim tune: --workload is required (try --help)\n";
            return 2;
        }
        TuneRequest request;
        request.base = options_;
        request.ops = tuneOps_;
        request.opTypes = tuneOpTypes_;
        request.all = tuneAll_ || (tuneOps_.empty() && tuneOpTypes_.empty());
        request.objective = objective_ == "device" ? TuneObjective::Device
                            : objective_ == "kernel" ? TuneObjective::Kernel
                                                     : TuneObjective::Step;
        request.overridesPath = overridesOut_;
        request.htmlPath = options_.htmlPath;
        request.jobs = jobs_ ? jobs_ : defaultJobs();
        request.terminal = isatty(STDERR_FILENO) != 0;
        return runTuneCommand(request, out, err);
    }
    return std::nullopt;
}

}  // namespace ascendsim
