#pragma once
// A shared resource of finite bandwidth (L2 or HBM) as a single first-come-first-served server:
// a request of B bytes arriving at t starts when the server is free and occupies it for
// B / bandwidth. Requesters that keep it busy together each get their share of the bandwidth.
// Times are picoseconds, kept as double internally so per-request rounding does not accumulate.
#include <cstdint>

namespace ascendsim {

class BandwidthServer {
public:
    // bytesPerPs > 0.
    explicit BandwidthServer(double bytesPerPs);

    // Reserves the server for `bytes` no earlier than `arrivalPs`; returns when they are served.
    double serve(double arrivalPs, double bytes);

    double nextFreePs() const { return nextFreePs_; }
    double busyPs() const { return busyPs_; }
    double bytesPerPs() const { return bytesPerPs_; }

private:
    double bytesPerPs_;
    double nextFreePs_ = 0.0;
    double busyPs_ = 0.0;
};

}  // namespace ascendsim
