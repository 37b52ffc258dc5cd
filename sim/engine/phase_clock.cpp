#include "sim/engine/phase_clock.h"

#include <sys/resource.h>

#include <cstdio>

namespace ascendsim {

namespace {

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

void processCpu(double& user, double& system) {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    user = seconds(usage.ru_utime);
    system = seconds(usage.ru_stime);
}

}  // namespace

PhaseClock::PhaseClock() : wallStart_(std::chrono::steady_clock::now()) { processCpu(userStart_, systemStart_); }

std::string PhaseClock::elapsed() const {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart_).count();
    double user = 0.0, system = 0.0;
    processCpu(user, system);
    user -= userStart_;
    system -= systemStart_;
    char text[96];
    std::snprintf(text, sizeof text, "%.1f s wall, %.1f s CPU (%.1f user + %.1f sys)", wall, user + system, user,
                  system);
    return text;
}

}  // namespace ascendsim
