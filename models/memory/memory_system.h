#pragma once
// The chip's shared memory side: one set-associative L2 in front of HBM, both with finite
// bandwidth shared by all cores (DESIGN.md decision 4). Analytic, no SystemC process: cores call
// it at the simulated time a transfer starts, in non-decreasing time order, and get back when the
// shared resources have served it.
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/pmu/pmu_event.h"

namespace ascendsim {

// One transfer's GM side: `burstCount` bursts of bytes / burstCount bytes each, burst i starting
// at address + i × burstStrideBytes (a DataMove with gaps between its rows). One burst is one
// contiguous byte range; only the bytes the bursts cover are accessed, not the gaps.
struct GmAccess {
    std::uint64_t startPs = 0;   // simulated time the transfer starts (picoseconds)
    std::uint32_t coreId = 0;    // global core index (AICs first, then AIVs)
    std::uint64_t address = 0;   // GM byte address of the first burst
    std::uint64_t bytes = 0;     // all bursts together
    bool isWrite = false;
    std::uint32_t burstCount = 1;
    std::uint64_t burstStrideBytes = 0;  // start to start; ignored when burstCount is 1
    // The move goes burst by burst (transfer_timing.h paddedBursts): each burst reaches L2 as a
    // write of its own, so back-to-back bursts do not make a line they share whole (§94).
    bool burstsApart = false;

    std::uint64_t burstBytes() const { return burstCount <= 1 ? bytes : bytes / burstCount; }
    bool contiguous() const { return burstCount <= 1 || burstStrideBytes == burstBytes(); }
};

// When an access's requests have all left the core and when its last byte is served. A core
// that keeps several reads in flight issues its next one at requestsSentPs (docs/fidelity.md §64).
struct GmServed {
    std::uint64_t requestsSentPs = 0;
    std::uint64_t donePs = 0;
    // Of donePs, the latency a read that missed L2 waits beyond a hit's (hbm.read_latency_cycles
    // less l2.hit_latency_cycles): 0 for a hit and for a write.
    std::uint64_t missLatencyPs = 0;
};

class MemorySystem {
public:
    virtual ~MemorySystem() = default;
    // Serves `access` through L2 (and HBM for misses and write-backs). Adds L2 hit/miss, L2
    // read/write and main-memory events to `counters`. Returns the time (ps) the last byte has
    // been served; the caller completes its transfer at max(that, start + uncontended time).
    virtual std::uint64_t access(const GmAccess& access, PmuCounters& counters) = 0;
    // access() with the time its requests are sent: without a model of requests in flight, when
    // it is served (the core waits it out).
    virtual GmServed serve(const GmAccess& request, PmuCounters& counters) {
        const std::uint64_t done = access(request, counters);
        return {done, done};
    }
};

}  // namespace ascendsim
