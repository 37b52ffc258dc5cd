#pragma once
// The `replay` and `calibrate` subcommands' options, registered on the CLI app in one call so
// sim/cli/main.cpp stays a list of commands.
#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>

#include "sim/replay/run/calibration.h"
#include "sim/replay/replay_command.h"

namespace ascendsim {

class ReplayCli {
public:
    // `configDir` is read when a command runs (main may change it after registration).
    ReplayCli(CLI::App& app, const std::string& configDir);
    // The exit code of the subcommand that was parsed, if one was.
    std::optional<int> runIfParsed(std::ostream& out, std::ostream& err, bool showProgress);

private:
    const std::string& configDir_;
    CLI::App* replay_ = nullptr;
    ReplayOptions replayOptions_;
    CLI::App* calibrate_ = nullptr;
    CalibrateOptions calibrateOptions_;
};

}  // namespace ascendsim
