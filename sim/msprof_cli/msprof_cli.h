#pragma once
// `ascendsim msprof`: the msprof command line's spelling of a collection (issue 14 item 3),
//   ascendsim msprof --application=workloads/resnet50.yaml --output=DIR --aic-metrics=PipeUtilization
//                    --ai-core=on --task-time=on --export=on
// It simulates the workload (--application or --workload) and writes what msprof leaves in
// --output: a PROF_* directory with raw data and, with --export=on, its export
// (profiler/writers/msprof_cli/msprof_collection.h). Options map onto the profiler's settings as
// msprof's collection switches do (docs/e2e-profiling.md, "The msprof command line").
#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>

#include "sim/engine/simulation_options.h"

namespace ascendsim {

class MsprofCli {
public:
    // `base` (the top-level options, read after parsing) supplies what msprof has no option for,
    // such as --config-dir; it must outlive this object.
    MsprofCli(CLI::App& app, const SimulationOptions& base);
    // The exit code of `msprof` if it was the parsed subcommand.
    std::optional<int> runIfParsed(std::ostream& out, std::ostream& err);

    // The simulation options of the parsed switches; throws std::invalid_argument naming the
    // option when a value cannot be honoured.
    SimulationOptions simulationOptions() const;

private:
    CLI::App* msprof_ = nullptr;
    const SimulationOptions& base_;
    SimulationOptions own_;  // --chip, --steps, --set, --format-version, --deterministic
    std::string application_, workload_, output_;
    std::string aicMetrics_ = "PipeUtilization";
    std::string aiCore_ = "on", taskTime_ = "on", exportOn_ = "on", l2_ = "off", runtimeApi_ = "off",
                aicpu_ = "off", msproftx_ = "off";
};

}  // namespace ascendsim
