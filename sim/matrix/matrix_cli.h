#pragma once
// The `matrix` subcommand's options, registered on the CLI app in one call so sim/cli/main.cpp
// stays a list of commands.
#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>

#include "sim/matrix/matrix_runner.h"

namespace ascendsim {

class MatrixCli {
public:
    explicit MatrixCli(CLI::App& app);
    // The exit code of `matrix` if it was the parsed subcommand.
    std::optional<int> runIfParsed(std::ostream& out, std::ostream& err, bool terminal);

private:
    CLI::App* matrix_ = nullptr;
    MatrixOptions options_;
    std::string levels_ = "Level0,Level1,Level2";
    std::string metrics_ = "PipeUtilization";
    std::string eras_ = "8.3";
    std::string exports_ = "text";
    std::string ranks_;
};

}  // namespace ascendsim
