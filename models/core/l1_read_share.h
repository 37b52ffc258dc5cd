#pragma once
// MTE1's share of a core's L1 port, as a GM→L1 transfer (MTE2) sees it (docs/fidelity.md §45):
// the other half of the turns MTE1 and MTE2 take on L1 (§38, AiCore::l1PortStallCycles). An MTE1
// move out of L1 holds the port for its bytes at L1's read rate (the fastest L1-sourced path's
// peak: L1→L0A, 261 B/cycle on the 910B, hardware.md §1.3), and a GM→L1 transfer loses that share
// of the cycles its bytes hold the port. A transfer's end is fixed when it is issued, before the
// MTE1 moves it will overlap are issued (they wait on the mmads the transfer feeds), so the share
// is the one MTE1 took over the window since the previous GM→L1 transfer started: in a GEMM's
// steady state the steps repeat, and the previous window is the next one's best estimate.
#include <algorithm>
#include <cstdint>

namespace ascendsim {

class L1ReadShare {
public:
    // An MTE1 move out of L1 holds the port for `portCycles`.
    void read(std::uint64_t portCycles) { heldSinceLoad_ += portCycles; }
    // A GM→L1 transfer starts at `now`: returns the share of L1's cycles MTE1 held since the
    // previous one started (0 for a core's first transfer), in [0, 1], and opens the next window.
    double loadStarts(std::uint64_t now) {
        double share = 0.0;
        if (loadSeen_ && now > lastLoad_)
            share = std::min(1.0, static_cast<double>(heldSinceLoad_) / static_cast<double>(now - lastLoad_));
        loadSeen_ = true;
        lastLoad_ = now;
        heldSinceLoad_ = 0;
        return share;
    }
    void reset() {
        loadSeen_ = false;
        lastLoad_ = heldSinceLoad_ = 0;
    }

private:
    bool loadSeen_ = false;
    std::uint64_t lastLoad_ = 0;
    std::uint64_t heldSinceLoad_ = 0;
};

}  // namespace ascendsim
