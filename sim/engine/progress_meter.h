#pragma once
// Progress of a what-if job on stderr: a bar with the ETA redrawn in place on a terminal, one plain
// line per finished point otherwise (CI logs, pipes). The ETA assumes the remaining points cost
// what the finished ones cost on average.
#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace ascendsim {

class ProgressMeter {
public:
    ProgressMeter(std::string what, std::size_t total, bool terminal, std::ostream& out);
    void finished(const std::string& label);  // one more point done

private:
    std::string what_;
    std::size_t total_;
    std::size_t done_ = 0;
    bool terminal_;
    std::ostream& out_;
    std::chrono::steady_clock::time_point start_;
};

// "1m05s", "42s"
std::string formatSeconds(double seconds);

}  // namespace ascendsim
