#pragma once
// The what-if subcommands' command line (`sweep`, `tune`) and the run option `--overrides FILE`,
// registered on the CLI's app so sim/cli/main.cpp only adds and dispatches them. The subcommands
// take the run options (-w, --chip, --set, --level, ...) of the main command (CLI11 fallthrough).
#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/engine/simulation_options.h"

namespace ascendsim {

class WhatIfCommands {
public:
    WhatIfCommands(CLI::App& app, SimulationOptions& options);

    // After parsing: applies --overrides to the options (exit 2 on a bad file), then runs a what-if
    // subcommand if one was given. Returns its exit code, or nothing when the caller goes on.
    std::optional<int> run(std::ostream& out, std::ostream& err);

private:
    SimulationOptions& options_;
    std::string overridesPath_;
    CLI::App* sweep_ = nullptr;
    std::vector<std::string> varies_;
    std::vector<std::string> sweepOps_;
    std::string csvPath_ = "sweep.csv";
    unsigned jobs_ = 0;
    CLI::App* tune_ = nullptr;
    std::vector<std::string> tuneOps_, tuneOpTypes_;
    bool tuneAll_ = false;
    std::string objective_ = "step";
    std::string overridesOut_ = "overrides.yaml";
};

}  // namespace ascendsim
