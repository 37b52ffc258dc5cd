#pragma once
// The one exit-code contract of every ascendsim command (README "Exit codes", --help,
// docs/reliability.md):
//   0   success
//   2   bad input or usage: the command line (parser errors included), a workload, a chip
//       config, a result directory given to `compare`
//   1   runtime failure: I/O or resources, with the system's reason (strerror)
//   130 interrupted by SIGINT, 143 by SIGTERM (temporary output removed)
// Every error is one line on stderr.
#include <exception>
#include <ostream>
#include <stdexcept>
#include <string_view>

namespace ascendsim {

enum ExitCode : int {
    kExitSuccess = 0,
    kExitRuntimeFailure = 1,
    kExitBadInput = 2,
    kExitSignalBase = 128,  // + the signal number
};

// A command-line value that cannot work (an output path in a missing folder, a worker name
// with '/'): bad usage, exit 2.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Writes the error as one line "ascendsim[ command]: ..." on `err` and returns its exit code.
// Workload, config and usage errors are bad input; system errors, out of memory and anything
// else are runtime failures, unless `otherErrorsAreBadInput` (the readers of `compare` throw
// plain runtime errors for malformed files).
int reportFailure(std::exception_ptr error, std::string_view command, std::ostream& err,
                  bool otherErrorsAreBadInput = false);

}  // namespace ascendsim
