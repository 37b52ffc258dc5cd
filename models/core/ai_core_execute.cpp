// The execution pipes of an AiCore (see ai_core.h for the model).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/core/ai_core.h"
#include "models/core/pmu_accounting.h"

namespace ascendsim {

namespace {

PmuEvent busyEventOf(Pipe pipe) {
    switch (pipe) {
        case Pipe::Vector: return PmuEvent::VecBusy;
        case Pipe::Cube: return PmuEvent::MacBusy;
        case Pipe::Mte1: return PmuEvent::Mte1Busy;
        case Pipe::Mte2: return PmuEvent::Mte2Busy;
        case Pipe::Mte3: return PmuEvent::Mte3Busy;
        case Pipe::FixPipe: return PmuEvent::FixpipeBusy;
        default: return PmuEvent::ScalarBusy;
    }
}

PmuEvent waitEventOf(Pipe pipe) {
    switch (pipe) {
        case Pipe::Vector: return PmuEvent::WaitFlagVector;
        case Pipe::Cube: return PmuEvent::WaitFlagCube;
        case Pipe::Mte1: return PmuEvent::WaitFlagMte1;
        case Pipe::Mte2: return PmuEvent::WaitFlagMte2;
        case Pipe::Mte3: return PmuEvent::WaitFlagMte3;
        case Pipe::FixPipe: return PmuEvent::WaitFlagFixpipe;
        default: return PmuEvent::WaitFlagScalar;
    }
}

// FixPipe waiting for the cube is the unit-flag handshake of a store already issued (Ascend C's
// matmul stores with MatmulConfig enUnitFlag, on by default): the store instruction is in flight
// while it waits for the mmad results it drains, so the hardware counts the wait as FIX busy. The
// real Qwen3 GEMMs show FIX busy 0.56 beside MAC 0.78 in one kernel (docs/fidelity.md §34). A
// kernel that syncs M -> FIX with a plain event (Flag::unitFlag false) issues its store after the
// wait: the wait is idle (§115).
bool waitIsInFlight(Pipe pipe, const Flag& flag) {
    return pipe == Pipe::FixPipe && flag.src == Pipe::Cube && flag.unitFlag;
}

// The syncs by which a pipe hands its results on (not the waits, which receive them).
bool handsResultsOn(Opcode op) { return op == Opcode::SetFlag || op == Opcode::Barrier || op == Opcode::CrossCoreSet; }

// A PipeBarrier<PIPE_V> holds the vector pipe until its results are in UB, but the PMU does not
// count that wait as vector busy, while a hand-off's wait (SetFlag, cross-core set) is. The real
// rows say so (docs/fidelity.md §81): the kernels with chains of barriers (Qwen3's RmsNormGrad,
// AlexNet's fp32 MaxPoolWithArgmaxV1, the int64 word programs) need the waits in their time but
// show a vector time below the model's with the waits counted in; a one-instruction kernel's vector
// time holds its one hand-off's latency (§40).
bool vectorBarrierWaitIsIdle(Pipe pipe, Opcode op) { return pipe == Pipe::Vector && op == Opcode::Barrier; }

}  // namespace

void AiCore::throwFlagOutOfRange(const Flag& flag) const {
    throw std::runtime_error(siteOf(programIndex_).describe() + ": flag event id " +
                             std::to_string(int{flag.eventId}) + " out of range");
}

void AiCore::setFlag(const Flag& flag, std::uint64_t cycle) {
    const std::size_t slot = flagSlot(flag);
    if (flags_.full(slot)) {
        throw std::runtime_error(siteOf(programIndex_).describe() + ": flag " + std::string(pipeName(flag.src)) +
                                 "->" + std::string(pipeName(flag.dst)) + " id " + std::to_string(int{flag.eventId}) +
                                 " set repeatedly without a wait_flag");
    }
    flags_.set(slot, cycle);
}

// A pipe may execute an instruction before simulated time reaches its start cycle when nothing
// it does depends on other cores or on work not yet simulated: GM moves must reach the shared
// MemorySystem in time order, and a vector instruction must see every MTE transfer to UB that may
// overlap it (port conflicts), so it waits for real time unless no queued MTE2/MTE3 transfer can
// start before it ends.
// Inlined into runPipe, which asks it of every queue head whose start is ahead (25 M times in the
// main job: the calls cost 0.3 G host instructions, docs/performance.md "Session 27").
[[gnu::always_inline]] inline bool AiCore::mayRunAhead(Pipe pipe, const Instruction& instr) const {
    switch (instr.opcode) {
        case Opcode::DataMove: {
            const DataMove& m = std::get<DataMove>(instr.operands);
            if (m.src == MemSpace::GM || m.dst == MemSpace::GM) return false;
            // MTE1's reads of L1 see the GM→L1 transfer in flight (l1PortStallCycles).
            if (pipe == Pipe::Mte1 && m.src == MemSpace::L1) return transfersWaitFor(Pipe::Mte1, {Pipe::Mte2});
            return pipe != Pipe::Vector || transfersWaitFor(Pipe::Vector, {Pipe::Mte2, Pipe::Mte3});
        }
        case Opcode::Vector:
            return transfersWaitFor(Pipe::Vector, {Pipe::Mte2, Pipe::Mte3});
        default:
            return true;
    }
}

// True when none of the transfer pipes `mtes` can start a transfer before `pipe`'s next
// instruction ends (MTE2/MTE3 for the vector pipe's UB, MTE2 for MTE1's L1): each queue is empty
// or waits at its head for a flag that only `pipe` sets (SetFlag executes in its source pipe) and
// that is not set yet, so the transfer starts after a later instruction of `pipe`. Transfers
// already running are recorded windows.
[[gnu::always_inline]] inline bool AiCore::transfersWaitFor(Pipe pipe, std::initializer_list<Pipe> mtes) const {
    for (Pipe mte : mtes) {
        const PipeState& ps = pipes_[pipeIndex(mte)];
        if (ps.queue.empty()) continue;
        const Instruction& head = queuedInstruction(ps.queue.front());
        if (head.opcode != Opcode::WaitFlag) return false;
        const Flag& flag = std::get<Flag>(head.operands);
        if (flag.src != pipe || flags_.isSet(flagSlot(flag))) return false;
    }
    return true;
}

bool AiCore::runPipe(Pipe pipe, std::uint64_t now) {
    PipeState& ps = pipes_[pipeIndex(pipe)];
    bool progress = false;
    while (!ps.queue.empty()) {
        const QueuedInstruction& q = ps.queue.front();
        const Instruction& instr = queuedInstruction(q);
        std::uint64_t start = std::max(ps.busyUntil, q.readyCycle);
        if (start > now && !mayRunAhead(pipe, instr)) break;
        if (instr.opcode == Opcode::WaitFlag) {
            if (!ps.waiting) {
                ps.waiting = true;
                ps.waitSince = start;
            }
            const Flag& waited = std::get<Flag>(instr.operands);
            const std::size_t flag = flagSlot(waited);
            if (!flags_.isSet(flag)) break;
            const std::uint64_t release = std::max(start, flags_.oldestSetCycle(flag) + res_.chip.flagLatencyCycles);
            flags_.consume(flag);
            counters_[waitIsInFlight(pipe, waited) ? busyEventOf(pipe) : waitEventOf(pipe)] += release - ps.waitSince;
            if (block_.trace != nullptr)
                traceSpan(TraceSpanKind::WaitFlag, pipe, q.programIndex, ps.waitSince, release, instr);
            ps.waiting = false;
            ps.busyUntil = release;
        } else {
            start = std::max(start, now);  // never before the present: GM moves run at real time
            execute(pipe, instr, q.programIndex, start);
            if (block_.trace != nullptr)  // a barrier's wait drawn as the wait it is, not as busy
                traceSpan(vectorBarrierWaitIsIdle(pipe, instr.opcode) ? TraceSpanKind::WaitFlag : TraceSpanKind::Execute,
                          pipe, q.programIndex, start, ps.busyUntil, instr);
        }
        ps.lastStart = start;
        ps.queue.pop();
        ++instructionsExecuted_;
        progress = true;
    }
    return progress;
}

void AiCore::execute(Pipe pipe, const Instruction& instr, std::uint64_t programIndex, std::uint64_t now) {
    PipeState& ps = pipes_[pipeIndex(pipe)];
    // A sync the vector pipe executes hands its results on: it waits until the last vector
    // instruction's results are in UB (VectorTiming::resultLatencyCycles), in flight, so busy at a
    // hand-off; at a PipeBarrier<PIPE_V> the wait is no pipe's busy (vectorBarrierWaitIsIdle).
    // MTE2's SetFlag does not hold the pipe for its loads in flight: the flag is set when their
    // data is in (§64) and the pipe issues on. MTE3's SetFlag hands on the UB its stores read, free
    // once they are posted (§79): it is set as it executes, while their writes are still in flight.
    const bool setWhenDataIn = pipe == Pipe::Mte2 && instr.opcode == Opcode::SetFlag;
    const bool setWhenPosted = pipe == Pipe::Mte3 && instr.opcode == Opcode::SetFlag;
    std::uint64_t duration = !setWhenDataIn && !setWhenPosted && ps.resultsReady > now && handsResultsOn(instr.opcode)
                                 ? ps.resultsReady - now
                                 : 0;
    try {
        switch (instr.opcode) {
            case Opcode::DataMove: {
                const DataMove& move = std::get<DataMove>(instr.operands);
                std::uint64_t issued = now;
                const std::uint64_t dataIn = executeDataMove(pipe, move, now, issued);
                // A load or store in flight: its data arrives after the pipe has moved on. A load's
                // busy runs to its data; a store's to its posting, and on to its write's completion
                // only where a sync waits for that (a barrier, a cross-core set, the block's end: §79).
                if (issued < dataIn) ps.resultsReady = std::max(ps.resultsReady, dataIn);
                countPipeBusy(pipe, now, pipe == Pipe::Mte3 ? issued : dataIn);
                ps.busyUntil = issued;
                return;
            }
            case Opcode::Img2Col: {
                const Img2ColLoad& load = std::get<Img2ColLoad>(instr.operands);
                duration = res_.transfer.cycles(load);
                countImg2Col(load, counters_);
                break;
            }
            case Opcode::Mmad: {
                const Mmad& mmad = std::get<Mmad>(instr.operands);
                duration = res_.cube.cycles(mmad);
                countMmad(mmad, duration, res_.cube.fractals(mmad), counters_);
                break;
            }
            case Opcode::Vector:
            {
                const VectorInstr& vector = std::get<VectorInstr>(instr.operands);
                duration = pipe == Pipe::Vector
                               ? executeVector(vector, queuedPatterns_[ps.queue.frontPosition()], now)
                               : executeVector(vector, ubAccessPatternOf(vector), now);
                ps.resultsReady = std::max(ps.resultsReady, now + duration + res_.chip.vector.resultLatencyCycles);
            }
                break;
            case Opcode::SetFlag:
                setFlag(std::get<Flag>(instr.operands), std::max(now + duration, setWhenDataIn ? ps.resultsReady : 0));
                break;
            case Opcode::CrossCoreSet:
                crossCoreSet(std::get<CrossCoreFlag>(instr.operands), now + duration);
                break;
            default:  // Barrier(pipe): the pipe is in order, its earlier work has completed
                break;
        }
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(siteOf(programIndex).describe() + ": " + e.what());
    }
    ps.busyUntil = now + duration;
    if (!vectorBarrierWaitIsIdle(pipe, instr.opcode)) countPipeBusy(pipe, now, now + duration);
}

// Busy cycles of [from, to) not counted yet: MTE2's loads in flight overlap (§64), MTE3's stores in
// flight count to their posting and a wait for their writes after it (§79); every other pipe's
// instructions follow one another, so this is their duration.
void AiCore::countPipeBusy(Pipe pipe, std::uint64_t from, std::uint64_t to) {
    PipeState& ps = pipes_[pipeIndex(pipe)];
    const std::uint64_t counted = std::max(from, ps.busyCountedUntil);
    if (to <= counted) return;
    counters_[busyEventOf(pipe)] += to - counted;
    if (pipe == Pipe::Mte1) counters_[PmuEvent::Mte1BusyExtra] += to - counted;
    ps.busyCountedUntil = to;
}

// The cycles a GM move kept in flight holds its pipe at least, 0 for a move that holds it to its
// completion. On a chip with pipes.mte2_load_issue_cycles MTE2 keeps its GM loads in flight: the
// pipe issues the next load once this one is issued and its requests are sent, and its data (and
// the flag set after it) arrives at the load's completion (docs/fidelity.md §64). With
// pipes.mte3_store_issue_cycles MTE3 does the same with its stores to GM (§79).
std::uint64_t AiCore::inFlightIssueCycles(Pipe pipe, const DataMove& move) const {
    if (pipe == Pipe::Mte2 && move.src == MemSpace::GM) return res_.chip.mte2LoadIssueCycles;
    if (pipe == Pipe::Mte3 && move.dst == MemSpace::GM) return res_.chip.mte3StoreIssueCycles;
    return 0;
}

namespace {
// The GM address of a move for timing. An indexed move's real row depends on data the timing model
// does not have (instruction.h): it reads (or, with indexDestination, writes) a pseudo-random row
// in [0, indexedRows) hashed from the core, the UB slot of the index and the issue cycle, so the
// rows are deterministic, spread over the table and differ from tile to tile (an approximation of
// the embedding-lookup address stream; a scatter's rows as spread as a gather's, docs/fidelity.md
// §99: IndexPutV2's and EmbeddingDenseGradV2's writes all met row 0's L2 lines before).
std::uint64_t timingGmAddr(const DataMove& move, std::uint32_t coreId, std::uint64_t cycle) {
    const bool isWrite = move.dst == MemSpace::GM;
    const std::uint64_t base = isWrite ? move.dstAddr : move.srcAddr;
    if (!move.indexed() || move.indexedRows == 0 || move.indexDestination != isWrite) return base;
    std::uint64_t h = (std::uint64_t{coreId} << 48) ^ (move.indexAddr << 20) ^ cycle;
    h ^= h >> 33;  // splitmix64 finaliser: cheap, well mixed
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return base + (h % move.indexedRows) * move.indexedRowBytes;
}

// The GM side of a move: its bursts as they lie in GM (a converting write's bursts hold
// destination-type elements), so the L2 sees only the bytes the bursts touch, not the gaps.
GmAccess gmAccessOf(const DataMove& move, std::uint32_t coreId, std::uint64_t startPs,
                    std::uint64_t cycle) {
    const bool isWrite = move.dst == MemSpace::GM;
    const std::uint64_t burstBytes =
        isWrite && move.srcType != move.dstType
            ? move.burstBytes / bytesOf(move.srcType) * bytesOf(move.dstType)
            : move.burstBytes;
    GmAccess access{startPs, coreId, timingGmAddr(move, coreId, cycle),
                    burstBytes * move.burstCount, isWrite};
    const std::uint64_t gapBytes = isWrite ? move.dstGapBytes : move.srcGapBytes;
    if (move.gmNz.present() || move.gm5hd.present()) {  // the bursts in the stored layout (gm_layout.h, gm_nc1hwc0.h)
        const GmBursts stored =
            move.gmNz.present()
                ? fractalNzBursts(move.gmNz, access.address, move.burstCount, burstBytes, burstBytes + gapBytes)
                : nc1hwc0Bursts(move.gm5hd, access.address, move.burstCount, burstBytes, burstBytes + gapBytes);
        access.address = stored.address;
        access.bytes = stored.burstBytes * stored.count;
        access.burstCount = stored.count;
        access.burstStrideBytes = stored.strideBytes;
        return access;
    }
    // A store that goes burst by burst writes each burst alone, back to back or not (§94).
    access.burstsApart = isWrite && paddedBursts(move) > 0;
    if (gapBytes != 0 || access.burstsApart) {
        access.burstCount = move.burstCount;
        access.burstStrideBytes = burstBytes + gapBytes;
    }
    return access;
}
}  // namespace

// Cycles a move's bytes take at its path's peak rate (hardware.md §1.3: the MSKPP tables' flat end,
// GM→UB 113.3, UB→GM 66.0 B/cycle on the 910B): a UB move's time on the core's GM port, a load in
// flight's hold on MTE2 (§64). 0 without a peak.
std::uint64_t AiCore::peakRateCycles(const DataMove& move) const {
    const PathTiming* path = res_.chip.findPath(move.src, move.dst);
    if (path == nullptr || !(path->peakBytesPerCycle > 0.0)) return 0;
    return static_cast<std::uint64_t>(std::ceil(static_cast<double>(move.totalBytes()) / path->peakBytesPerCycle));
}

// MTE1's reads out of L1 and MTE2's GM→L1 writes take turns on L1 (docs/fidelity.md §38): the
// transfer's bytes hold L1 for their time at the GM→L1 peak (MSKPP's flat end, 167.6 B/cycle on
// the 910B, hardware.md §1.3), as a UB transfer holds the UB's GM port (ub_gm_port.h), so an MTE1
// move loses the share of the cycles it overlaps the GM→L1 transfer in flight that the transfer
// takes (its rate ÷ that peak), as the vector pipe loses UB cycles to MTE transfers. The Qwen3
// GEMMs keep MTE1 busy 0.83–0.87 of MAC with 128×256 blocks and 0.71 with 256×128 where the
// measured L1→L0 rates alone give 0.61 and 0.49. 0 on a core without a GM→L1 path.
std::uint64_t AiCore::l1PortStallCycles(std::uint64_t now, std::uint64_t cycles) const {
    const std::uint64_t from = std::max(now, l1LoadStart_);
    const std::uint64_t to = std::min(now + cycles, l1LoadEnd_);
    if (to <= from) return 0;
    const PathTiming* port = res_.chip.findPath(MemSpace::GM, MemSpace::L1);
    if (port == nullptr || !(port->peakBytesPerCycle > 0.0)) return 0;
    return static_cast<std::uint64_t>(static_cast<double>(to - from) * l1LoadBytesPerCycle_ / port->peakBytesPerCycle +
                                      0.5);
}

// Cycles an MTE1 move out of L1 holds L1's port (l1_read_share.h): its bytes at L1's read rate, the
// fastest L1-sourced path's peak (L1→L0A 261 B/cycle on the 910B, MSKPP, hardware.md §1.3).
std::uint64_t AiCore::l1ReadPortCycles(const DataMove& move) const {
    double readPeak = 0.0;
    for (const PathTiming& path : res_.chip.paths)
        if (path.src == MemSpace::L1) readPeak = std::max(readPeak, path.peakBytesPerCycle);
    if (!(readPeak > 0.0)) return 0;
    return static_cast<std::uint64_t>(std::ceil(static_cast<double>(move.totalBytes()) / readPeak));
}

// The GM→L1 transfer's side of the turns on L1 (docs/fidelity.md §45): the cycles its bytes hold
// L1 at the GM→L1 peak (the part of its curve §38 charges MTE1 for) stretch by the share of L1
// MTE1's reads took (l1_read_share.h); its fixed cost does not. The Qwen3 GEMMs' 128 KiB ND2NZ
// chunks move at ~94 B/cycle inside the kernel against the curve's 114 with MTE1 busy 0.68; the
// FlashAttention's 32 KiB ones, MTE1 busy 0.28, stay on the curve.
std::uint64_t AiCore::l1LoadTurnCycles(const DataMove& move, std::uint64_t curveCycles, std::uint64_t now) {
    const double share = l1ReadShare_.loadStarts(now);
    const PathTiming* port = res_.chip.findPath(MemSpace::GM, MemSpace::L1);
    if (!(share > 0.0) || port == nullptr || !(port->peakBytesPerCycle > 0.0)) return 0;
    const double portCycles = std::min(static_cast<double>(curveCycles),
                                       static_cast<double>(move.totalBytes()) / port->peakBytesPerCycle);
    return static_cast<std::uint64_t>(portCycles * share + 0.5);
}

// GM-touching moves complete at the later of the uncontended curve cost and the time the shared
// L2/HBM have served them (models/memory).
std::uint64_t AiCore::executeDataMove(Pipe pipe, const DataMove& move, std::uint64_t now, std::uint64_t& issued) {
    const std::uint64_t curveCycles = res_.transfer.cycles(move);
    const std::uint64_t inFlightIssue = inFlightIssueCycles(pipe, move);
    // In flight, the pipe is held while the move's bytes pass at the path's peak (its GM port, its
    // L1 turn) and until its requests are sent; the curve's fixed part is the read's latency.
    std::uint64_t issueEnd = now;
    std::uint64_t end = now + curveCycles;
    bool missInFlight = false;
    if (move.src == MemSpace::L1 && pipe == Pipe::Mte1) {
        end += l1PortStallCycles(now, curveCycles);
        l1ReadShare_.read(l1ReadPortCycles(move));
    }
    if (move.src == MemSpace::GM && move.dst == MemSpace::L1) end += l1LoadTurnCycles(move, curveCycles, now);
    const bool ubEnd = move.src == MemSpace::UB || move.dst == MemSpace::UB;
    if (ubEnd && pipe != Pipe::Vector && (move.src == MemSpace::GM || move.dst == MemSpace::GM)) {
        // The core's loads into UB and stores out of it take turns on its GM port (ub_gm_port.h):
        // the bytes hold it for their time at the path's peak from the transfer's issue (or from
        // when it frees); the rest of the curve, the transfer's fixed cost, follows without it.
        // Alone, a transfer never waits and ends on its curve.
        const std::uint64_t portCycles = std::min(curveCycles, peakRateCycles(move));
        const std::uint64_t portFree = ubGmPort_.pass(now, portCycles);
        end = std::max(end, portFree + (curveCycles - portCycles));
        issueEnd = std::max(issueEnd, portFree);
    }
    if (move.src == MemSpace::GM || move.dst == MemSpace::GM) {
        const GmAccess access = gmAccessOf(move, globalCoreId_, clock_.psOfCycle(now), now);
        const GmServed served = res_.memory.serve(access, counters_);
        end = std::max(end, clock_.cycleAtOrAfter(served.donePs));
        issueEnd = std::max(issueEnd, clock_.cycleAtOrAfter(served.requestsSentPs));
        // A load that missed L2 lets MTE2 issue on while its fill is on its way (§123): the pipe
        // is held to its completion less that part of the miss's wait, not before its requests
        // are sent; its data arrives at `end`. Not an indexed load: a row a run-time index picks
        // (GatherV2's) starts lines no load before it has in flight, and the chip waits each one out
        // (docs/fidelity.md §177: 510 cycles a random 2 KiB row on the Qwen3 part, a whole miss).
        // The key is 0 on most chips: test it before converting the latency.
        if (res_.chip.mte2MissWaitInFlightCycles > 0 && served.missLatencyPs > 0 && pipe == Pipe::Mte2 &&
            move.src == MemSpace::GM && inFlightIssue == 0 && !move.indexed()) {
            const std::uint64_t missWait = std::min<std::uint64_t>(clock_.cycleAtOrAfter(served.missLatencyPs),
                                                                   res_.chip.mte2MissWaitInFlightCycles);
            issued = std::max(issueEnd, end > now + missWait ? end - missWait : now);
            missInFlight = true;
        }
    }
    if (inFlightIssue > 0) {
        issueEnd = std::max(issueEnd, now + inFlightIssue);
        issueEnd = std::max(issueEnd, now + peakRateCycles(move));
        issued = std::min(issueEnd, end);
    } else if (!missInFlight) {
        issued = end;
    }
    countDataMove(move, pipe == Pipe::Vector, counters_);
    if (move.src == MemSpace::GM && move.dst == MemSpace::L1 && end > now) {
        l1LoadStart_ = now;
        l1LoadEnd_ = end;
        l1LoadBytesPerCycle_ = static_cast<double>(move.totalBytes()) / static_cast<double>(end - now);
    }
    if ((move.src == MemSpace::UB || move.dst == MemSpace::UB) && pipe != Pipe::Vector) {
        const std::size_t slot = pipe == Pipe::Mte2 ? 0 : 1;
        mteUbStart_[slot] = now;
        mteUbEnd_[slot] = end;
        mteUbBytesPerCycle_[slot] =
            end > now ? static_cast<double>(move.totalBytes()) / static_cast<double>(end - now) : 0.0;
    }
    // A store is posted at `end` (MTE3 issues on); its write is done once acknowledged (§91).
    return end + (pipe == Pipe::Vector ? 0 : res_.transfer.writeAckCycles(move));
}

// Vector time = class cost + UB bank conflicts + UB port sharing with in-flight MTE transfers.
// Port sharing [I]: an MTE transfer moving r bytes/cycle through a UB that serves
// bankGroups × rowBytes per cycle takes that fraction of the UB's cycles, and the vector pipe
// loses the same fraction of the cycles its instruction overlaps the transfer.
std::uint64_t AiCore::executeVector(const VectorInstr& instr, const UbAccessPattern& pattern, std::uint64_t now) {
    const std::uint64_t compute = res_.vector.cycles(instr);
    const UbBankConflicts banks = ubBanks_.cachedConflicts(pattern);
    const std::uint64_t withBanks = compute + banks.totalStallCycles();
    const double ubBytesPerCycle = static_cast<double>(res_.chip.ub.bankGroups) * res_.chip.ub.rowBytes;
    std::uint64_t portStall = 0;
    for (std::size_t slot = 0; slot < mteUbEnd_.size(); ++slot) {
        const std::uint64_t from = std::max(now, mteUbStart_[slot]);
        const std::uint64_t to = std::min(now + withBanks, mteUbEnd_[slot]);
        if (to <= from) continue;
        portStall += static_cast<std::uint64_t>(static_cast<double>(to - from) * mteUbBytesPerCycle_[slot] /
                                                    ubBytesPerCycle +
                                                0.5);
    }
    counters_[PmuEvent::VecBankGroupConflict] += banks.bankGroupStallCycles;
    counters_[PmuEvent::VecBankConflict] += banks.bankStallCycles;
    counters_[PmuEvent::VecResourceConflict] += portStall;
    countVector(instr, pattern, compute, counters_);
    return withBanks + portStall;
}

}  // namespace ascendsim
