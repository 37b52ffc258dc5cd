#include "models/memory/shared_memory_system.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>


namespace ascendsim {

namespace {

constexpr std::uint64_t kL2BytesPerCount = 256;       // pmu_event.h l2_read / l2_write
constexpr std::uint64_t kMainMemBytesPerCount = 8;    // pmu_event.h main_mem_read / write
constexpr double kPsPerUs = 1e6;

double psPerCycle(const ChipConfig& chip) {
    if (!(chip.aiCoreFreqMhz > 0.0)) throw std::invalid_argument("AI core frequency must be > 0");
    return kPsPerUs / chip.aiCoreFreqMhz;
}

// GB/s (1e9 B/s) → bytes per picosecond.
double bytesPerPsFromGBps(double gbps) { return gbps * 1e9 / 1e12; }

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

SharedMemorySystem::SharedMemorySystem(const ChipConfig& chip)
    : l2_(chip.l2.sizeBytes, chip.l2.lineBytes, chip.l2.ways),
      l2Server_(chip.l2.bandwidthBytesPerCycle / psPerCycle(chip)),
      hbmServer_(bytesPerPsFromGBps(chip.hbm.bandwidthGBps)),
      l2HitLatencyPs_(chip.l2.hitLatencyCycles * psPerCycle(chip)),
      hbmReadLatencyPs_(chip.hbm.readLatencyCycles * psPerCycle(chip)),
      outstandingReadLines_(chip.hbm.outstandingReadLinesPerCore),
      partialLineFill_(chip.l2.partialLineFill),
      readEfficiency_(chip.hbm.readEfficiency),
      readOnlyEfficiency_(hbmReadOnlyEfficiency(chip.hbm)),
      writeEfficiency_(chip.hbm.writeEfficiency),
      writeBackQueuePs_(static_cast<double>(chip.l2.writeBackQueueBytes) /
                        (bytesPerPsFromGBps(chip.hbm.bandwidthGBps) * chip.hbm.writeEfficiency)),
      eagerWriteBack_(chip.l2.writeBackQueueBytes > 0),
      lineReads_(chip.l2.sameLineReadCycles * psPerCycle(chip), chip.l2.lineBytes),
      hbmEffectiveBytesPerPs_(bytesPerPsFromGBps(chip.hbm.bandwidthGBps) * chip.hbm.readEfficiency),
      hbmConcurrentCapacityBytesPerPs_(chip.hbm.concurrentCapacityGBps > 0.0
                                           ? bytesPerPsFromGBps(chip.hbm.concurrentCapacityGBps)
                                           : hbmEffectiveBytesPerPs_) {
    if (!(readEfficiency_ > 0.0 && readEfficiency_ <= 1.0 && writeEfficiency_ > 0.0 && writeEfficiency_ <= 1.0 &&
          readOnlyEfficiency_ <= 1.0))
        throw std::invalid_argument("HBM read/write efficiency must be in (0, 1]");
}

void SharedMemorySystem::setBackgroundVictims(double dirtyShare) {
    if (!(dirtyShare >= 0.0 && dirtyShare <= 1.0)) throw std::invalid_argument("background dirty share must be in [0, 1]");
    backgroundDirtyShare_ = dirtyShare;
    eagerWriteBack_ = false;
}

void SharedMemorySystem::setFreeWayWriteBackShare(double share) {
    if (!(share >= 0.0 && share <= 1.0)) throw std::invalid_argument("free-way write-back share must be in [0, 1]");
    freeWayWriteBackShare_ = share;
}

GmServed SharedMemorySystem::serve(const GmAccess& request, PmuCounters& counters) {
    if (request.bytes == 0 || request.burstBytes() == 0) return {request.startPs, request.startPs};
    const std::uint64_t lineBytes = l2_.lineBytes();
    const L2Bursts bursts{request.address, request.burstBytes(), std::max(request.burstCount, 1u),
                          request.burstStrideBytes};
    // Partial lines this read finds held: filled from HBM before it is served (partial_lines.h).
    const bool keepsPartialLines = partialLineFill_ != PartialLineFill::None;
    std::uint64_t partialReadFills = 0;
    if (keepsPartialLines) {
        if (request.isWrite) partialLines_.noteWrite(bursts, request.burstsApart, l2_);
        else partialReadFills = partialLines_.fillOnRead(bursts, l2_);
    }
    L2RangeOutcome lines;
    if (keepsPartialLines) {
        dirtyVictims_.clear();
        lines.dirtyVictims = &dirtyVictims_;
    }
    // A read's turn behind other reads of the same lines (line_read_queue.h), taken on each line
    // as the L2 walk looks it up (the queue is independent of the L2's and the partial lines'
    // state, so taking the turns here rather than first changes nothing).
    double lineWaitPs = 0.0;
    if (!request.isWrite && lineReads_.enabled()) {
        LineTurns turns = lineReads_.turnsAt(static_cast<double>(request.startPs));
        l2_.readBursts(bursts, lines, turns);
        lineWaitPs = turns.waitPs();
    } else {
        l2_.accessBursts(bursts, request.isWrite, lines);
    }
    // Partial lines this access evicted: completed from HBM on their way out (read_or_evict).
    const std::uint64_t partialEvictFills = keepsPartialLines ? partialLines_.evicted(dirtyVictims_) : 0;
    const std::uint64_t evictFills = partialLineFill_ == PartialLineFill::OnReadOrEvict ? partialEvictFills : 0;
    const std::uint64_t missLines = lines.totalMisses();
    const std::uint64_t writeBacks = lines.dirtyEvictions;
    if (request.isWrite) {
        counters[PmuEvent::L2WriteHit] += lines.hits[0] + lines.hits[1];
        counters[PmuEvent::L2WriteMissAllocate] += missLines;
    } else {
        counters[PmuEvent::L2R0ReadHit] += lines.hits[0];
        counters[PmuEvent::L2R0ReadMissAllocate] += lines.misses[0];
        counters[PmuEvent::L2R1ReadHit] += lines.hits[1];
        counters[PmuEvent::L2R1ReadMissAllocate] += lines.misses[1];
    }

    // The lines a read waits for; a victim's completion is the write-back's, which no one waits on
    // but the HBM queue (a write that evicts dirty lines waits for it below).
    const std::uint64_t filledLines = request.isWrite ? 0 : missLines + partialReadFills;
    const std::uint64_t fillBytes = (filledLines + evictFills) * lineBytes;
    // Eager write-back stands for an L2 full of dirty lines in steady state, whose write-backs
    // are paid as lines become dirty rather than when they are evicted: a write that makes a
    // line dirty (a miss, or a hit on a clean line) costs a line of HBM write now; a write to a
    // line that is already dirty joins it at no HBM cost, and evicting a dirty line costs nothing
    // more. Real kernels whose target lines are dirty in L2 (a copy into a tensor just written,
    // stores over a workspace) write faster than HBM takes (docs/fidelity.md §16).
    // Lazy: dirty victims pay when evicted.
    // Background victims (setBackgroundVictims): the dirty share of the lines this access's misses
    // pushed out of the L2 the timeline filled, in whole bytes (the remainder carried on).
    std::uint64_t backgroundWriteBackBytes = 0;
    if (backgroundDirtyShare_ > 0.0 && lines.emptyWaysFilled > 0) {
        const double bytes = static_cast<double>(lines.emptyWaysFilled * lineBytes) * backgroundDirtyShare_ +
                             backgroundWriteBackCarry_;
        backgroundWriteBackBytes = static_cast<std::uint64_t>(bytes);
        backgroundWriteBackCarry_ = bytes - static_cast<double>(backgroundWriteBackBytes);
    }
    // Eager, under the replay's timeline: the lines the write took from free ways pay the bound's
    // share of a line (setFreeWayWriteBackShare), in whole bytes (the remainder carried on).
    std::uint64_t eagerBytes = request.isWrite ? lines.linesDirtied * lineBytes : 0;
    if (eagerWriteBack_ && request.isWrite && freeWayWriteBackShare_ < 1.0 && lines.emptyWaysFilled > 0) {
        const std::uint64_t freeWayBytes = std::min(lines.emptyWaysFilled, lines.linesDirtied) * lineBytes;
        const double charged = static_cast<double>(freeWayBytes) * freeWayWriteBackShare_ + freeWayWriteBackCarry_;
        const auto whole = static_cast<std::uint64_t>(charged);
        freeWayWriteBackCarry_ = charged - static_cast<double>(whole);
        eagerBytes = eagerBytes - freeWayBytes + whole;
    }
    const std::uint64_t writeBackBytes = eagerWriteBack_ ? eagerBytes : writeBacks * lineBytes + backgroundWriteBackBytes;
    counters[request.isWrite ? PmuEvent::L2Write : PmuEvent::L2Read] +=
        ceilDiv(request.bytes, kL2BytesPerCount);
    counters[PmuEvent::MainMemRead] += fillBytes / kMainMemBytesPerCount;
    counters[PmuEvent::MainMemWrite] += writeBackBytes / kMainMemBytesPerCount;
    hbmBytesRead_ += fillBytes;
    hbmBytesWritten_ += writeBackBytes;
    traffic_.addAccess(request.startPs, request.isWrite, request.bytes, lines, fillBytes, writeBackBytes);

    const double start = static_cast<double>(request.startPs);
    const double l2Done = l2Server_.serve(start, static_cast<double>(request.bytes));
    // The HBM server runs at the nominal rate; a byte costs 1/efficiency of its nominal time.
    // Reads interleaved with queued writes pay the bus turnaround; a read-only stream does not.
    const bool mixed = writeBackBytes > 0 || evictFills > 0 || lastWriteBackDonePs_ > start;
    const double hbmCostBytes = static_cast<double>(fillBytes) / (mixed ? readEfficiency_ : readOnlyEfficiency_) +
                                static_cast<double>(writeBackBytes) / writeEfficiency_;
    // A background's copies (§108) hold their share of HBM's capacity for concurrent streams
    // (§114): the FCFS schedule serves the simulated requests at the rest of it, or at their own
    // limit if less, so they queue only when they ask for more than that; the request's own
    // transfer, alone at HBM, is not slower.
    const double concurrentSlowdown =
        concurrent_.empty() ? 1.0
                            : concurrent_.slowdownAt(start, hbmEffectiveBytesPerPs_,
                                                     hbmConcurrentCapacityBytesPerPs_);
    const double hbmFcfsDone = hbmServer_.serve(start, hbmCostBytes * concurrentSlowdown);
    if (writeBackBytes > 0) lastWriteBackDonePs_ = hbmFcfsDone;
    // Who waits how long: the request shares HBM with the queued ones (hbm_sharing.h).
    const double hbmDone = hbmCostBytes > 0.0
                               ? hbmSharing_.complete(start, hbmCostBytes / hbmServer_.bytesPerPs(), hbmFcfsDone)
                               : start;
    // A read waits for its missed lines and the partial lines it fills.
    const bool waitsForFill = !request.isWrite && filledLines > 0;
    // An eager write-back is buffered: the write waits only for the part of the HBM queue beyond
    // what the buffer holds.
    const double bufferPs = (eagerWriteBack_ || backgroundDirtyShare_ >= 0.0) && request.isWrite ? writeBackQueuePs_ : 0.0;
    // A write that evicts dirty lines is not posted: its lines take its data only once their
    // victims' write-backs are in the write queue, which takes them in turn behind everything
    // queued at HBM (DRAM controllers serve reads first), so the writer waits for the FCFS
    // completion less what the queue holds, not for its processor-shared completion. This is an
    // L2 full of dirty lines (a kernel writing past the L2's capacity): real MTE3 busy is FCFS-like
    // on such streams and processor-shared on those that fit (docs/fidelity.md §60).
    // A write that evicts any line the L2 holds, clean ones too, is such a stream as well: the
    // streams past the L2 that read more than they write (fp32 → bf16 Casts) evict mostly their own
    // clean reads, and the chip keeps their MTE3 busy FCFS-like (§117: Qwen3 Cast [77791232] 0.56,
    // [151936,1024] 0.67, the 910A's Cast [4096,9216] 0.89) where dirty victims alone left them
    // processor-shared (0.42, 0.49, 0.48). A write into free ways (a stream that fits) still shares.
    const bool evictsHeldLines = request.isWrite && hbmCostBytes > 0.0 && missLines > lines.emptyWaysFilled;
    const bool evictsDirtyLines = request.isWrite && (writeBacks > 0 || backgroundWriteBackBytes > 0);
    // A write whose every line hits and that dirties clean ones is an in-place update of lines the
    // kernel has just read (ApplyAdamWV2's var / m / v, an x.mul_()): its write-back, charged at
    // the write by the eager rule above, stands for the dirty victim its own reads' misses evict,
    // which those reads wait for on the chip; the write takes that FCFS turn as §60's evicting
    // writes do (docs/fidelity.md §128e: the Qwen3 ApplyAdamWV2 rows keep MTE3 busy 0.57-0.90 with
    // MTE2 0.95-0.99, the model had them at 0.48-0.50 processor-shared). Not posted either.
    const bool dirtiesHitCleanLines = request.isWrite && hbmCostBytes > 0.0 && missLines == 0 && lines.linesDirtied > 0;
    const bool waitsFcfsTurn = evictsDirtyLines || evictsHeldLines || dirtiesHitCleanLines;
    // A read that hits waits while the L2 owes HBM more posted write-backs than the write queue
    // holds: the L2 takes requests in order, and a line whose write-back has no room in the queue
    // holds the hits behind it (docs/fidelity.md §120). A kernel whose inputs L2 holds and whose
    // stores dirty new lines so reads its inputs at the rate HBM drains its stores' write-backs,
    // and its stores return at L2 speed: the chip's MTE2 / MTE3 show it (Qwen3 Slice, Add,
    // TensorMove on held inputs), the kernel's time does not change. A write that is not posted
    // (it evicts held lines, above) waits at its core, not in that queue.
    const bool readHit = !request.isWrite && fillBytes == 0;
    const double hbmWait =
        readHit ? lastPostedWriteBackDonePs_ - writeBackQueuePs_
                : (waitsFcfsTurn ? std::max(hbmDone, hbmFcfsDone) : hbmDone) - bufferPs;
    if (writeBackBytes > 0 && request.isWrite && !waitsFcfsTurn)
        lastPostedWriteBackDonePs_ = hbmFcfsDone;
    // The core's own in-flight limit: its missed lines return `outstanding` per read latency.
    const double inFlightDone =
        waitsForFill && outstandingReadLines_ > 0
            ? start + static_cast<double>(filledLines) / outstandingReadLines_ * hbmReadLatencyPs_
            : start;
    const double sent = std::max({l2Done, hbmWait, inFlightDone});
    const double done = sent + (waitsForFill ? hbmReadLatencyPs_ : l2HitLatencyPs_) + lineWaitPs;
    // Chip validation keeps bandwidths physical; past 2^64 ps the cast would be undefined.
    if (!(done < 1.8e19)) throw std::overflow_error("memory access ends past 2^64 ps");
    const double missLatencyPs = waitsForFill ? std::max(0.0, hbmReadLatencyPs_ - l2HitLatencyPs_) : 0.0;
    return {static_cast<std::uint64_t>(std::ceil(sent)), static_cast<std::uint64_t>(std::ceil(done)),
            static_cast<std::uint64_t>(missLatencyPs)};
}

}  // namespace ascendsim
