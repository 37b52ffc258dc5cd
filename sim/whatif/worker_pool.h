#pragma once
// Runs independent simulations on several cores. SystemC keeps one simulation context per
// process (not per thread), so parallel runs need processes: each task is forked, runs in its own
// copy of the parent, and sends its result back as text through a pipe. Results come back indexed
// by task, so what the caller prints does not depend on which worker finished first.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ascendsim {

struct TaskOutcome {
    int exitCode = 0;   // 0: `text` is the result; else `text` is the error message
    std::string text;
};

// Calls `task(i)` for i in [0, count) with at most `jobs` at a time (1: in this process, one after
// another; more: forked workers). `onFinished(i, outcome)` is called in the parent, in completion
// order, as each task ends (progress reporting). Returns the outcomes by index.
std::vector<TaskOutcome> runTasks(std::size_t count, unsigned jobs, const std::function<TaskOutcome(std::size_t)>& task,
                                  const std::function<void(std::size_t, const TaskOutcome&)>& onFinished);

// Default degree of parallelism: the machine's cores (at least 1).
unsigned defaultJobs();

}  // namespace ascendsim
