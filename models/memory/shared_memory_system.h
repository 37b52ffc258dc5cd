#pragma once
// The chip's memory side as one L2Cache in front of HBM, each a BandwidthServer shared by all
// cores (DESIGN.md decision 4, hardware.md §2.8).
//
// Per access (lines = the L2 lines its bursts touch; the gaps between bursts are not accessed):
// - every byte passes the L2 server (chip L2 bandwidth, ≈5× HBM per hardware.md §1.2/§2.8);
// - HBM bytes cost 1 / hbm.read_efficiency (fills) or 1 / hbm.write_efficiency (write-backs) of
//   their nominal time (DRAM protocol overheads, chip_config.h HbmConfig); a fill while no
//   write-back is queued at HBM costs 1 / hbm.read_only_efficiency (no bus turnaround);
// - a read miss fills its whole line from HBM; a write miss allocates without a fill. With
//   l2.partial_line_fill a line the write covers only in part stays partial (partial_lines.h):
//   the first read of it fills it from HBM as a miss would, without evicting, and (read_or_evict)
//   a partial line evicted before any read costs the evicting access a line of HBM read beside its
//   write-back. A dirty victim is written back to HBM. Fills and write-backs pass the
//   HBM server. With eager write-back (l2.writeBackQueueBytes > 0) a write pays a line of HBM write for each line it makes dirty
//   (a write to a line already dirty pays none, evicting a dirty line pays nothing more; under the
//   replay's timeline a write into a free way pays setFreeWayWriteBackShare's share of one); the
//   write then waits only for the HBM queue beyond that many bytes;
// - a write that evicts a line the L2 holds (a dirty one, eager or not, or a clean one: the stream
//   has filled the L2, §117) is not posted: it completes when the HBM
//   server's FCFS schedule has served everything queued ahead of it and its own bytes (less the
//   write queue's bytes with eager write-back), not when processor sharing (hbm_sharing.h) would
//   finish it (write back-pressure, docs/fidelity.md §60); so is a write whose every line hits and
//   that dirties clean ones (an in-place update of lines the kernel just read, §128e);
// - a read that hits waits until the posted writes' write-backs (eager write-back, writes that
//   evict no held line) queued at HBM are within the write queue's bytes of done: the L2 takes
//   requests in order, and hits queue behind lines whose write-backs have no room (§120);
// - a read's missed lines are in flight at most hbm.outstandingReadLinesPerCore at a time, each
//   for the HBM read latency (Little's law): the misses cannot arrive sooner than
//   misses / outstanding × latency after the start (one MTE queue per core issues its transfers
//   one after the other, so this is the core's cold-read rate);
// - the access completes when both servers (and the in-flight limit) are done, plus the HBM read
//   latency if any line missed on a read, else the L2 hit latency. The device adds this to its uncontended curve
//   cost by taking the later of the two, so latencies shorter than the measured per-transfer
//   fixed cost stay hidden on an idle chip;
// - a read that finds other reads of one of its lines ahead of it waits for its turn
//   (l2.sameLineReadCycles per read ahead, line_read_queue.h) on top of all that.
//
// PMU events added to the caller's counters (units of pmu_event.h):
// - L2Read / L2Write: the access's bytes in 256 B units, rounded up per access;
// - L2WriteHit / L2WriteMissAllocate, L2R{0,1}ReadHit / L2R{0,1}ReadMissAllocate: per line.
//   r0/r1 are taken as two read ports interleaved by line: even line index → r0, odd → r1
//   (hardware.md §3.6 says their meaning is undocumented; this is an assumption);
// - MainMemRead / MainMemWrite: HBM traffic this access caused (fills, write-backs), 8 B units.
// It does not touch the simulator-side Bytes* events; the device counts those per path.
#include <cstdint>
#include <vector>

#include "models/memory/bandwidth_server.h"
#include "models/memory/concurrent_hbm_traffic.h"
#include "models/memory/hbm_sharing.h"
#include "models/memory/l2_cache.h"
#include "models/memory/line_read_queue.h"
#include "models/memory/partial_lines.h"
#include "models/memory/memory_system.h"
#include "models/memory/traffic_sampler.h"

namespace ascendsim {

// The share of hbm.bandwidth_gbps a read-only stream's line fills get: hbm.read_only_efficiency, or
// hbm.read_efficiency when the chip sets none (0).
inline double hbmReadOnlyEfficiency(const HbmConfig& hbm) {
    return hbm.readOnlyEfficiency > 0.0 ? hbm.readOnlyEfficiency : hbm.readEfficiency;
}

class SharedMemorySystem : public MemorySystem {
public:
    // Reads chip.l2, chip.hbm and chip.aiCoreFreqMhz (cycles in the config are AI core cycles).
    explicit SharedMemorySystem(const ChipConfig& chip);

    std::uint64_t access(const GmAccess& access, PmuCounters& counters) override { return serve(access, counters).donePs; }
    // requestsSentPs: the servers and the in-flight limit are done with the access (everything but
    // the read latency and the turn behind other reads of its lines).
    GmServed serve(const GmAccess& request, PmuCounters& counters) override;

    // The replay's L2 state from the profile's timeline (docs/fidelity.md §103): the L2 outside the
    // lines this simulation touches holds what the real kernels before left there, of which
    // `dirtyShare` (0..1) is dirty. A miss into a way no simulated line used yet evicts one of those
    // lines: it costs `dirtyShare` of a line of HBM write, as a dirty victim does. Write-back is then
    // lazy whatever l2.write_back_queue_bytes says (dirty lines pay when evicted): the eager
    // write-back stands for an L2 full of dirty lines, which this replaces with the timeline's
    // own; the write queue still buffers a write that evicts.
    void setBackgroundVictims(double dirtyShare);
    // The replay's L2 state under the eager write-back (docs/fidelity.md §178): a write miss into a
    // way no simulated line used yet — whose real occupant is one of the lines the timeline says L2
    // holds — pays `share` (0..1) of a line of HBM write instead of a whole one. The eager charge
    // stands for the dirty victim a new dirty line pushes out of an L2 full of them (§16); a
    // write-back needs a dirty line, so it can cost no more than the dirty lines L2 holds: `share`
    // is the timeline's bound (l2_timeline.h dirtyVictimBound). Writes into lines the simulation
    // holds (its own) keep the whole charge.
    void setFreeWayWriteBackShare(double share);
    // HBM traffic running beside the simulated requests (concurrent_hbm_traffic.h, §108): the HBM
    // server's FCFS schedule (the chip's throughput) charges a request S / (C - r) of its HBM time
    // (at least 1), r = what the background holds at its start, S one stream's rate, C
    // hbm.concurrent_capacity_gbps (default S: 1 / (1 - r / S), §114); processor sharing then
    // spreads the backlog this builds (a lone request is not slowed, a stream past the rest is).
    void setConcurrentTraffic(ConcurrentHbmTraffic traffic) { concurrent_ = std::move(traffic); }
    // More background windows (the engine's collectives as their stream places them, §118); only
    // requests served after the call see them.
    void addConcurrentTraffic(const std::vector<ConcurrentHbmWindow>& windows) { concurrent_.add(windows); }

    const L2Cache& l2() const { return l2_; }
    const BandwidthServer& l2Server() const { return l2Server_; }
    const BandwidthServer& hbmServer() const { return hbmServer_; }
    std::uint64_t hbmBytesRead() const { return hbmBytesRead_; }
    std::uint64_t hbmBytesWritten() const { return hbmBytesWritten_; }
    // HBM and L2 read traffic by time, for the sampled hardware counters (profile_memory).
    const TrafficSampler& traffic() const { return traffic_; }

  private:
    L2Cache l2_;
    BandwidthServer l2Server_;
    BandwidthServer hbmServer_;
    HbmSharing hbmSharing_;
    double l2HitLatencyPs_;
    double hbmReadLatencyPs_;
    std::uint32_t outstandingReadLines_;  // 0 = no per-core in-flight limit
    PartialLineFill partialLineFill_;
    PartialLines partialLines_;  // l2.partial_line_fill: lines held with a write's bytes only
    std::vector<std::uint64_t> dirtyVictims_;  // the current access's, while partial lines are kept
    double readEfficiency_;
    double readOnlyEfficiency_;
    double writeEfficiency_;
    // FCFS completion of the newest write-back on the HBM server: a fill arriving before it
    // shares the bus with writes (read/write turnaround) and pays readEfficiency_.
    double lastWriteBackDonePs_ = 0.0;
    // FCFS completion of the newest posted write's write-back (a write that evicts no held line
    // and is no in-place update, eager write-back): a read hit waits until it is within the write queue of it (§120).
    double lastPostedWriteBackDonePs_ = 0.0;
    // Eager write-back (chip l2.writeBackQueueBytes > 0): how far, in ps of HBM write time, the
    // queued write-backs may run ahead of a write before it waits. 0 = lazy write-back.
    double writeBackQueuePs_;
    bool eagerWriteBack_;
    double backgroundDirtyShare_ = -1.0;  // < 0: no timeline state (the eager or lazy policy alone)
    double backgroundWriteBackCarry_ = 0.0;  // the fraction of a byte not yet charged
    double freeWayWriteBackShare_ = 1.0;     // setFreeWayWriteBackShare; 1 = the whole eager charge
    double freeWayWriteBackCarry_ = 0.0;     // the fraction of a byte not yet charged
    LineReadQueue lineReads_;
    ConcurrentHbmTraffic concurrent_;
    double hbmEffectiveBytesPerPs_;  // nominal × read efficiency: what mixed traffic gets of HBM
    double hbmConcurrentCapacityBytesPerPs_;  // hbm.concurrent_capacity_gbps (default the above)
    std::uint64_t hbmBytesRead_ = 0;
    std::uint64_t hbmBytesWritten_ = 0;
    TrafficSampler traffic_;
};

}  // namespace ascendsim
