#pragma once
// Progress of a long job of N equal items (matrix runs, sweep points): on a terminal one line
// redrawn in place with a bar and an ETA; elsewhere (CI logs, pipes) one plain line per item.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace ascendsim {

class ProgressMeter {
public:
    // `out` is where progress goes (stderr in the CLI); `terminal` chooses the redrawn bar.
    ProgressMeter(std::string label, std::size_t total, std::FILE* out, bool terminal);

    // One more item finished; `what` names it (shown on plain lines).
    void advance(const std::string& what);
    // Ends the redrawn line (no-op for plain lines).
    void finish();

private:
    std::string label_;
    std::size_t total_;
    std::size_t done_ = 0;
    std::FILE* out_;
    bool terminal_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace ascendsim
