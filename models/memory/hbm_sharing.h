#pragma once
// How long one HBM request waits when many are in flight: processor sharing, not first come
// first served (docs/fidelity.md §11a).
//
// The HBM server (bandwidth_server.h) keeps the FCFS schedule of all requests: it fixes the
// chip's throughput (the backlog D at a request's arrival is the HBM time of the work queued
// ahead). A DRAM controller does not serve one request after another, though: it interleaves
// the bursts of every open request, so each of the n requests in flight drains at B / n and a
// request's latency grows with its own size. Real profiles show it: on the Qwen3 part a
// streaming kernel's MTE3 (UB -> GM) is busy (W / R) x (e_r / e_w) of the time its MTE2 is
// (Cast fp32 -> bf16 0.40, Add 0.32-0.35, Mul 0.55-0.84 against MTE2 0.94-1.0; msinsight
// ef63bc64 st/level2 rank 0), which is what fair sharing by bytes gives and FCFS does not (FCFS
// makes every request wait the whole backlog, so a half-size write waits as long as a read).
//
// Model: a request of own HBM time c arriving with backlog D behind n_q queued requests of mean
// HBM time c_q completes after c x (1 + D / c_q): it shares the server with the D / c_q requests
// ahead for its whole transfer. Averaged over requests this is c_q + D, the FCFS latency, so
// the throughput the FCFS server fixes is kept; only who waits how long changes.
#include <cstdint>
#include <deque>

namespace ascendsim {

class HbmSharing {
public:
    // A request arriving at `arrivalPs` with own HBM time `ownPs`, whose FCFS completion on the
    // HBM server is `fcfsDonePs` (serve() called just before). Returns its completion under
    // sharing. Arrivals must be non-decreasing (MemorySystem's contract).
    double complete(double arrivalPs, double ownPs, double fcfsDonePs);

private:
    struct Queued {
        double fcfsDonePs;
        double ownPs;
    };
    std::deque<Queued> queued_;  // FCFS order: completion times non-decreasing
    double queuedOwnPs_ = 0.0;   // sum of ownPs over queued_
};

}  // namespace ascendsim
