#pragma once
// Starting this program again as a child process with other arguments, its stdout discarded and
// its stderr kept in a file, and waiting for any child to end.
#include <string>
#include <sys/types.h>
#include <vector>

namespace ascendsim {

// The running program's own path (/proc/self/exe). Throws std::runtime_error with the errno text.
std::string currentProgramPath();

// Starts `program` with `arguments`; stdout goes to /dev/null, stderr to `stderrPath`. Throws
// std::runtime_error with the errno text when the process cannot be started.
pid_t startChild(const std::string& program, const std::vector<std::string>& arguments, const std::string& stderrPath);

struct ChildExit {
    pid_t pid = -1;
    int exitCode = 0;  // the exit status, or 128 + signal number when a signal ended it
};

// Waits for any child to end (EINTR retried).
ChildExit waitForAnyChild();

}  // namespace ascendsim
