#pragma once
// HBM traffic of something the simulation does not run itself — an HCCL collective's SDMA copies
// and inline reductions beside a compute kernel (docs/fidelity.md §108) — as piecewise-constant
// rates over time. The memory system (SharedMemorySystem::setConcurrentTraffic) takes its share of
// HBM away from the simulated requests: while a background of rate r runs, the simulated stream,
// which alone drains at its own limit S (nominal × read efficiency), drains at min(S, C - r), C the
// HBM's capacity for concurrent streams (hbm.concurrent_capacity_gbps, default S: §114).
//
// The rates are the rates the background achieved while it shared HBM with the real kernel (bytes
// over the task's measured time), so they already are its share, not its demand: giving the kernel
// the rest is what the real controller did. A request is charged the share at its start; requests
// are short (a few hundred ns) beside the windows (tens of µs).
//
// The engine's own collectives (docs/fidelity.md §118) give their simulated transfer tasks the same
// way, one op at a time as the communication stream places them (add): a run holds thousands of
// windows, so the rate by time is kept as a step function (segments_) looked up by binary search.
#include <cstdint>
#include <vector>

namespace ascendsim {

// HBM bytes this chip moves per byte an HCCL transfer task carries (§108c): a Memcpy reads its
// source and writes its destination (2), a Reduce_Inline also reads the destination it adds into
// (3). Over a peer link a task moves its bytes into or out of this chip once and the peer's mirror
// task does the other direction at the same time (HCCL's mesh and ring phases are symmetric: every
// rank runs the same phase on every plane), so the link type does not change the count.
inline double hcclTransferHbmBytesPerByte(bool reduces) { return reduces ? 3.0 : 2.0; }

struct ConcurrentHbmWindow {
    double startPs = 0.0;  // simulated time, on the memory system's clock
    double endPs = 0.0;
    double hbmBytesPerPs = 0.0;  // HBM bytes (reads + writes) the background moves per ps
};

class ConcurrentHbmTraffic {
public:
    ConcurrentHbmTraffic() = default;
    // Windows may overlap (rates add). Throws std::invalid_argument for a negative rate or an
    // empty or reversed window.
    explicit ConcurrentHbmTraffic(std::vector<ConcurrentHbmWindow> windows);

    // More windows, checked as the constructor checks them (a run's collectives, one op at a time).
    void add(const std::vector<ConcurrentHbmWindow>& windows);

    bool empty() const { return windows_.empty(); }
    // The background's HBM bytes per ps at `atPs` (0 outside every window).
    double bytesPerPsAt(double atPs) const;
    // How much longer the HBM takes for a request starting at `atPs` of a stream that alone drains
    // at `streamBytesPerPs`, when concurrent streams together get `capacityBytesPerPs` (>= the
    // stream's): S / (C - r), at least 1 (a background that fits beside the stream costs it
    // nothing), the background's share r / C kept below kMaxShare. 1 outside every window.
    // With C = S this is 1 / (1 - r / S).
    double slowdownAt(double atPs, double streamBytesPerPs, double capacityBytesPerPs) const;
    const std::vector<ConcurrentHbmWindow>& windows() const { return windows_; }

    // The most of HBM the background may hold: a measured rate at or above the HBM's (a copy that
    // ran alone at full speed, the real kernel stalled) would leave the simulated one nothing and
    // never finish; DRAM controllers do not starve a requester (they age requests), so one of two
    // streams gets at least a share. Not fitted: only a guard, no measured row reaches it (§108).
    static constexpr double kMaxShare = 0.9;

private:
    // From startPs until the next segment's start the background moves bytesPerPs; before the first
    // segment nothing. Each segment's rate is the sum of the windows covering it, added in window
    // order (not a running sum of starts and ends: a background that ended is exactly 0 again).
    struct Segment {
        double startPs = 0.0;
        double bytesPerPs = 0.0;
    };
    std::vector<ConcurrentHbmWindow> windows_;
    std::vector<Segment> segments_;
    void rebuildSegments();
};

}  // namespace ascendsim
