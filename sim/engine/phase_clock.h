#pragma once
// Wall and CPU time of one phase of a run (simulating, writing), for the `--log-level info`
// lines the cluster benchmark reads (docs/performance.md "Clusters"). CPU time is the whole
// process's user + system time, so it covers every thread of the phase.
#include <chrono>
#include <string>

namespace ascendsim {

class PhaseClock {
  public:
    PhaseClock();
    // "12.3 s wall, 20.1 s CPU (19.0 user + 1.1 sys)" since construction.
    std::string elapsed() const;

  private:
    std::chrono::steady_clock::time_point wallStart_;
    double userStart_ = 0.0;
    double systemStart_ = 0.0;
};

}  // namespace ascendsim
