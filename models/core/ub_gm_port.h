#pragma once
// A core's GM port at its UB end (docs/fidelity.md "One GM port per core's UB, taken in turns").
// The loads into UB (MTE2, GM→UB) and the stores out of it (MTE3, UB→GM) of one core take turns on
// it: a transfer holds it for its bytes at its own direction's peak rate (the flat end of the
// path's measured curve, hardware.md §1.3), and a transfer of the other direction issued meanwhile
// waits until it is free. A pipe runs one transfer at a time and a transfer's port time never
// exceeds its curve, so a load-only or store-only stream never waits and stays on its measured
// curve; loads and stores in flight together move at most 1 / (1/peak_load + 1/peak_store) per
// byte each way (83 B/cycle in + out on the 910B for equal bytes, against 113 + 66 side by side).
// Holding it costs one max() per GM↔UB move; other cores have their own.
#include <algorithm>
#include <cstdint>

namespace ascendsim {

class UbGmPort {
public:
    // A transfer issued at cycle `now` that holds the port for `cycles`: returns the cycle it
    // leaves the port (after the transfer holding it, if any).
    std::uint64_t pass(std::uint64_t now, std::uint64_t cycles) {
        freeCycle_ = std::max(now, freeCycle_) + cycles;
        return freeCycle_;
    }
    void reset() { freeCycle_ = 0; }

private:
    std::uint64_t freeCycle_ = 0;
};

}  // namespace ascendsim
