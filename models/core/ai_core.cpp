#include "models/core/ai_core.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <systemc>

#include "models/chip/launch_argument_records.h"
#include "models/systemc/stepped_process.h"

namespace ascendsim {

namespace {

std::string processName(CoreKind kind, std::uint32_t coreId) {
    const char* prefix = kind == CoreKind::Cube ? "aic_" : kind == CoreKind::Vector ? "aiv_" : "aicore_";
    return prefix + std::to_string(coreId);
}

bool kindHasPipe(CoreKind kind, Pipe pipe) {
    switch (kind) {
        case CoreKind::Cube:
            return pipe != Pipe::Vector;
        case CoreKind::Vector:
            return pipe == Pipe::Scalar || pipe == Pipe::Vector || pipe == Pipe::Mte2 || pipe == Pipe::Mte3;
        case CoreKind::Coupled:
            return true;
    }
    return false;
}

}  // namespace

AiCore::AiCore(const CoreResources& resources, CoreKind kind, std::uint32_t coreId, std::uint32_t globalCoreId,
               CoreHost& host)
    : res_(resources),
      kind_(kind),
      coreId_(coreId),
      globalCoreId_(globalCoreId),
      host_(host),
      clock_(kind == CoreKind::Vector && resources.chip.vectorCoreFreqMhz > 0 ? resources.chip.vectorCoreFreqMhz
                                                                             : resources.chip.aiCoreFreqMhz),
      checks_(resources.chip, kind),
      icache_(resources.chip.icache),
      ubBanks_(resources.chip.ub) {
    for (std::size_t p = 0; p < kPipeCount; ++p) {
        const Pipe pipe = static_cast<Pipe>(p);
        pipes_[p].present = kindHasPipe(kind, pipe);
        if (pipes_[p].present && pipe != Pipe::Scalar) pipes_[p].queue.reset(resources.chip.queueDepth[p]);
    }
    queuedPatterns_.resize(pipes_[pipeIndex(Pipe::Vector)].queue.capacity());
    process_ = new SteppedProcess<AiCore>(processName(kind, coreId).c_str(), *this, resources.errors);
}

AiCore::~AiCore() = default;

void AiCore::startBlock(BlockAssignment assignment, std::uint64_t startPs) {
    block_ = std::move(assignment);
    active_ = true;
    counters_ = PmuCounters{};
    blockStartCycle_ = clock_.cycleAtOrAfter(startPs);
    blockEndCycle_ = blockStartCycle_;
    chunk_.clear();
    chunkBaseIndex_ = 0;
    chunkPos_ = 0;
    programIndex_ = 0;
    fetchedIndex_ = ~std::uint64_t{0};
    programEnded_ = block_.program == nullptr;
    overheadIndex_ = ~std::uint64_t{0};
    // The prologue (arguments and tiling data, block offsets) is scalar work before the first issue.
    issueCycle_ = blockStartCycle_ + res_.chip.blockStartCycles + res_.chip.blockPrologueScalarCycles;
    counters_[PmuEvent::ScalarBusy] += res_.chip.blockPrologueScalarCycles;
    argumentReadPending_ = res_.chip.blockArgumentReadBytes > 0;
    // The block runs through its kernel's code first. A line another kernel evicted (or never
    // fetched on this core) is filled through the one port that serves the kernel's code, which
    // the kernel's blocks starting together share: each fill takes a missPenaltyCycles turn per
    // block fetching at the same time, at least the fill's latency (docs/fidelity.md "Cold
    // instruction fetch", §57).
    const std::uint32_t codeMisses = icache_.fetchImage(block_.codeId, block_.codeBytes);
    counters_[PmuEvent::IcacheReq] += icache_.imageLines();
    counters_[PmuEvent::IcacheMiss] += codeMisses;
    if (codeMisses > 0) {
        const std::uint32_t coresOnChip = kind_ == CoreKind::Vector ? res_.chip.vectorCoreCount : res_.chip.aiCoreCount;
        const std::uint64_t fetching = std::clamp<std::uint32_t>(block_.coresOfKind, 1, coresOnChip);
        issueCycle_ += codeMisses * icacheFillStallCycles(res_.chip.icache, fetching);
        if (!block_.codeHeldInL2) issueCycle_ += codeFillFromHbmCycles(res_.chip);
    }
    issueBlock_ = IssueBlock::None;
    for (PipeState& p : pipes_) {
        p.queue.clear();
        p.busyUntil = blockStartCycle_;
        p.resultsReady = blockStartCycle_;
        p.busyCountedUntil = blockStartCycle_;
        p.lastStart = blockStartCycle_;
        p.waiting = false;
    }
    flags_.reset();
    for (auto& perFlag : crossCore_)
        for (auto& semaphore : perFlag) semaphore.clear();
    allCoresSets_.fill(0);
    allCoresWaits_.fill(0);
    allCoresOwnSetCycle_.fill(0);
    mteUbStart_.fill(0);
    mteUbEnd_.fill(0);
    ubGmPort_.reset();
    l1LoadStart_ = l1LoadEnd_ = 0;
    l1LoadBytesPerCycle_ = 0.0;
    l1ReadShare_.reset();
    scheduleWake(blockStartCycle_);
}

void AiCore::step() {
    if (!active_) return;
    ++activations_;
    const std::uint64_t nowPs = sc_core::sc_time_stamp().value();
    const std::uint64_t now = clock_.cycleAtOrAfter(nowPs);
    if (clock_.psOfCycle(now) != nowPs) {  // woken between two of our cycles: act on the next edge
        scheduleWake(now);
        return;
    }
    if (argumentReadPending_) readLaunchArguments(now);
    bool progress = true;
    while (progress) {
        progress = runIssue(now);
        for (std::size_t p = 1; p < kPipeCount; ++p)
            if (pipes_[p].present && !pipes_[p].queue.empty()) progress |= runPipe(static_cast<Pipe>(p), now);
    }
    std::uint64_t next = std::numeric_limits<std::uint64_t>::max();
    bool drained = true;
    std::uint64_t lastCompletion = issueCycle_;
    for (std::size_t p = 1; p < kPipeCount; ++p) {
        const PipeState& ps = pipes_[p];
        lastCompletion = std::max(lastCompletion, ps.busyUntil);
        // Loads and stores still in flight end the block when their data is in (§64, §79); vector
        // results do not.
        if (p == pipeIndex(Pipe::Mte2) || p == pipeIndex(Pipe::Mte3))
            lastCompletion = std::max(lastCompletion, ps.resultsReady);
        if (ps.queue.empty()) continue;
        drained = false;
        if (ps.waiting) continue;  // woken by the flag's set
        const std::uint64_t start = std::max(ps.busyUntil, ps.queue.front().readyCycle);
        if (start > now) next = std::min(next, start);
    }
    if (programEnded_ && issueBlock_ == IssueBlock::None && drained) {
        if (lastCompletion <= now) {
            countStoresInFlightBusy();
            blockEndCycle_ = now;
            finishBlock();
            return;
        }
        next = std::min(next, lastCompletion);
    }
    if (next != std::numeric_limits<std::uint64_t>::max()) scheduleWake(next);
}

// The block's first GM read, at its start: its launch's argument record, which every block of the
// launch reads, so the L2 serves them one after another (models/memory/line_read_queue.h). The
// first issue waits for it; an uncontended read hides under the start-up and prologue. It is the
// scalar unit's load (the prologue's work depends on it), so the wait past the prologue is the
// scalar unit stalled on its load and counts scalar busy: a warm many-block launch's blocks queue
// on the line and carry 1000–2000 scalar cycles more than a cold launch's, whose code fetch
// outlasts the read (docs/fidelity.md §116f, §121). No data pipe counts it; kernels that move a
// record by MTE2 lower that move themselves (MemSet's tiling, docs/fidelity.md §39, §58).
void AiCore::readLaunchArguments(std::uint64_t now) {
    argumentReadPending_ = false;
    const GmAccess read{clock_.psOfCycle(now), globalCoreId_, launchArgumentRecordAddress(res_.chip, block_.taskId),
                        res_.chip.blockArgumentReadBytes, false};
    const std::uint64_t readDone = clock_.cycleAtOrAfter(res_.memory.access(read, counters_));
    if (readDone > issueCycle_) counters_[PmuEvent::ScalarBusy] += readDone - issueCycle_;
    issueCycle_ = std::max(issueCycle_, readDone);
}

void AiCore::finishBlock() {
    counters_.totalCycles = blockEndCycle_ - blockStartCycle_;
    // The counter's floor (pipes.block_mte2_floor_cycles, docs/fidelity.md §134): the 910A's
    // blocks that read nothing from GM still count ~190 MTE2 cycles, and its one- and two-load
    // blocks count their loads in flight alone, not those plus the floor.
    if (pipes_[pipeIndex(Pipe::Mte2)].present && res_.chip.blockMte2FloorCycles > 0)
        counters_[PmuEvent::Mte2Busy] =
            std::max<std::uint64_t>(counters_[PmuEvent::Mte2Busy],
                                    std::min<std::uint64_t>(res_.chip.blockMte2FloorCycles, counters_.totalCycles));
    active_ = false;
    block_.program.reset();
    host_.onBlockFinished(*this);
}

void AiCore::scheduleWake(std::uint64_t cycle) {
    process_->notifyAt(clock_.psOfCycle(cycle));
}

void AiCore::receiveCrossCoreSet(const void* owner, std::uint8_t flagId, std::uint32_t senderSlot,
                                 std::uint64_t setPs) {
    if (!active_ || block_.owner != owner) return;  // the group member has moved on to other work
    crossCore_[flagId][senderSlot].post(setPs);
    scheduleWake(clock_.cycleAtOrAfter(sc_core::sc_time_stamp().value()));
}

void AiCore::wakeForCrossCoreFlag() {
    if (active_) scheduleWake(clock_.cycleAtOrAfter(sc_core::sc_time_stamp().value()));
}

CrossCoreBarriers::RoundKey AiCore::allCoresRound(const CrossCoreFlag& flag,
                                                  std::uint32_t round) const {
    if (flag.flagId >= kCrossCoreFlagIds)
        throw std::runtime_error(siteOf(programIndex_).describe() + ": bad flag id");
    return {block_.taskId, kind_, flag.flagId, round};
}

// Mode 0 needs every block of the kind resident at once (the hardware counts sets of running
// cores): a kernel with more blocks than the chip has cores of that kind would never pass.
void AiCore::allCoresSet(const CrossCoreFlag& flag, std::uint64_t cycle) {
    const std::string site = siteOf(programIndex_).describe();
    if (res_.chip.organisation != CoreOrganisation::Split)
        throw std::runtime_error(site +
                                 ": cross-core flags exist on the split (220x) organisation only");
    const std::uint32_t coresOnChip =
        kind_ == CoreKind::Vector ? res_.chip.vectorCoreCount : res_.chip.aiCoreCount;
    if (block_.coresOfKind == 0 || block_.coresOfKind > coresOnChip)
        throw std::runtime_error(
            site + ": mode-0 cross-core flag over " + std::to_string(block_.coresOfKind) +
            " blocks, but the chip runs at most " + std::to_string(coresOnChip) +
            " at once (every block must be resident)");
    allCoresOwnSetCycle_[flag.flagId] = cycle;
    res_.barriers.set(allCoresRound(flag, allCoresSets_[flag.flagId]++), block_.coresOfKind,
                      clock_.psOfCycle(cycle), *this);
}

bool AiCore::allCoresWaitReady(const CrossCoreFlag& flag, std::uint64_t& releaseCycle) {
    std::uint64_t releasePs = 0;
    if (!res_.barriers.tryPass(allCoresRound(flag, allCoresWaits_[flag.flagId]), releasePs))
        return false;
    ++allCoresWaits_[flag.flagId];
    // The release travels back from the scheduler's sync counter (chip_config.h, allCoreSyncCycles).
    releaseCycle = clock_.cycleAtOrAfter(releasePs) + res_.chip.flagLatencyCycles + res_.chip.allCoreSyncCycles;
    return true;
}

void AiCore::traceSpan(TraceSpanKind kind, Pipe pipe, std::uint64_t programIndex, std::uint64_t startCycle,
                       std::uint64_t endCycle, const Instruction& instr, Pipe stalledOn) const {
    TraceSpan span;
    span.taskId = block_.taskId;
    span.coreKind = kind_;
    span.coreId = coreId_;
    span.blockIdx = block_.request.blockIdx;
    span.subBlockIdx = block_.request.subBlockIdx;
    span.pipe = pipe;
    span.stalledOn = stalledOn;
    span.kind = kind;
    span.programIndex = programIndex;
    span.startPs = clock_.psOfCycle(startCycle);
    span.endPs = clock_.psOfCycle(std::max(startCycle, endCycle));
    span.cycles = std::max(startCycle, endCycle) - startCycle;
    span.instruction = instr;
    block_.trace->record(span);
}

InstructionSite AiCore::siteOf(std::uint64_t programIndex) const {
    return {block_.taskId, block_.request.blockIdx, block_.request.subBlockIdx, kind_, coreId_, programIndex};
}

std::string AiCore::blockedState() const {
    if (!active_) return {};
    std::ostringstream out;
    out << siteOf(programIndex_).describe() << ":";
    switch (issueBlock_) {
        case IssueBlock::WaitFlag: out << " scalar waits for a flag;"; break;
        case IssueBlock::CrossCoreWait: out << " scalar waits for a cross-core flag;"; break;
        case IssueBlock::BarrierAll: out << " scalar waits at a PIPE_ALL barrier;"; break;
        case IssueBlock::QueueFull: out << " issue stalled on a full " << pipeName(blockedPipe_) << " queue;"; break;
        case IssueBlock::None: break;
    }
    for (std::size_t p = 1; p < kPipeCount; ++p) {
        const PipeState& ps = pipes_[p];
        if (!ps.waiting || ps.queue.empty()) continue;
        const Flag& f = std::get<Flag>(queuedInstruction(ps.queue.front()).operands);
        out << " " << pipeName(static_cast<Pipe>(p)) << " waits for flag " << pipeName(f.src) << "->"
            << pipeName(f.dst) << " id " << int{f.eventId} << " (instruction #" << ps.queue.front().programIndex
            << ");";
    }
    return out.str();
}

}  // namespace ascendsim
