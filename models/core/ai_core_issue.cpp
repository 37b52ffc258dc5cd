// The scalar issue unit of an AiCore (see ai_core.h for the model).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/core/ai_core.h"
#include "models/core/pmu_accounting.h"

namespace ascendsim {

namespace {

PmuEvent queueFullEventOf(Pipe pipe, bool& counted) {
    counted = true;
    switch (pipe) {
        case Pipe::Mte1: return PmuEvent::Mte1QueueFull;
        case Pipe::Mte2: return PmuEvent::Mte2QueueFull;
        case Pipe::Mte3: return PmuEvent::Mte3QueueFull;
        case Pipe::Cube: return PmuEvent::CubeQueueFull;
        case Pipe::Vector: return PmuEvent::VecQueueFull;
        default: counted = false; return PmuEvent::Count;  // FixPipe has no iq_full event
    }
}

bool isWork(Opcode op) {
    return op == Opcode::DataMove || op == Opcode::Img2Col || op == Opcode::Mmad || op == Opcode::Vector;
}

bool isSync(Opcode op) {
    return op == Opcode::SetFlag || op == Opcode::WaitFlag || op == Opcode::Barrier ||
           op == Opcode::CrossCoreSet || op == Opcode::CrossCoreWait;
}

}  // namespace

bool AiCore::fetchChunk() {
    if (programEnded_) return false;
    // Keep the instructions pipes still hold; drop the ones before.
    std::uint64_t oldest = programIndex_;
    for (const PipeState& ps : pipes_)
        if (!ps.queue.empty()) oldest = std::min(oldest, ps.queue.front().programIndex);
    // Only once the retired prefix is at least kRetiredPerKept times as long as what stays:
    // erasing moves the kept instructions down, and moving them at every chunk cost 0.93 G host
    // instructions of memmove in the main job (perfwalk2, docs/performance.md "Session 26"), still
    // 0.42 G at once as long (perfwalk3, "Session 27"); this way an instruction is moved at most
    // once for every kRetiredPerKept dropped, and the chunk stays under kRetiredPerKept + 1 times
    // what it keeps plus a chunk.
    constexpr std::size_t kRetiredPerKept = 4;
    const std::size_t retired = oldest - chunkBaseIndex_;
    if (retired > 0 && retired >= kRetiredPerKept * (chunk_.size() - retired)) {
        chunk_.erase(chunk_.begin(), chunk_.begin() + static_cast<std::ptrdiff_t>(retired));
        chunkBaseIndex_ = oldest;
        chunkPos_ -= retired;
    }
    const std::size_t kept = chunk_.size();
    if (!block_.program->next(chunk_) || chunk_.size() == kept) {
        programEnded_ = true;
        return false;
    }
    return true;
}

// The scalar unit's own work for an instruction it is about to issue (ChipConfig
// scalarCyclesPerInstruction[Aic]): it runs before the issue, on the issue unit. Inlined into
// runIssue, which charges every instruction once (13.5 M in the main job, docs/performance.md
// "Session 27").
[[gnu::always_inline]] inline void AiCore::chargeScalarOverhead(const Instruction& instr) {
    if (!isWork(instr.opcode) && !isSync(instr.opcode)) return;  // ScalarWork carries its own cycles
    const ChipConfig& chip = res_.chip;
    const bool splitCube = kind_ == CoreKind::Cube && chip.organisation == CoreOrganisation::Split;
    const std::uint32_t cycles = splitCube ? chip.scalarCyclesPerInstructionAic : chip.scalarCyclesPerInstruction;
    if (cycles == 0) return;
    counters_[PmuEvent::ScalarBusy] += cycles;
    traceOnScalarUnit(cycles, instr);
    issueCycle_ += cycles;
}

bool AiCore::runIssue(std::uint64_t now) {
    bool progress = false;
    if (issueBlock_ != IssueBlock::None) {
        if (!resolveIssueBlock(now)) return false;
        progress = true;
    }
    const ChipConfig& chip = res_.chip;
    while (fetchNext()) {
        const Instruction& instr = chunk_[chunkPos_];
        if (fetchedIndex_ != programIndex_) {  // first attempt to issue this instruction
            fetchedIndex_ = programIndex_;
            ++counters_[PmuEvent::IcacheReq];
            if (icache_.fetch(block_.codeId, programIndex_)) {
                ++counters_[PmuEvent::IcacheMiss];
                issueCycle_ += icacheFillStallCycles(chip.icache, 1);
            }
            if (instr.opcode == Opcode::Vector) {
                issuedPattern_ = ubAccessPatternOf(std::get<VectorInstr>(instr.operands));
                checks_.checkVector(issuedPattern_, instr, siteOf(programIndex_));
            } else if (isWork(instr.opcode)) {
                checks_.check(instr, siteOf(programIndex_));
            }
        }
        const bool onScalar = instr.pipe == Pipe::Scalar;
        if (overheadIndex_ != programIndex_) {  // once per instruction, even if issue stalls after
            overheadIndex_ = programIndex_;
            chargeScalarOverhead(instr);
        }
        switch (instr.opcode) {
            case Opcode::Scalar: {
                const ScalarWork& w = std::get<ScalarWork>(instr.operands);
                countScalarWork(w, counters_);
                traceOnScalarUnit(w.cycles, instr);
                issueCycle_ += w.cycles;
                break;
            }
            case Opcode::SetFlag:
                if (!onScalar) goto queue;
                setFlag(std::get<Flag>(instr.operands), issueCycle_);
                traceOnScalarUnit(chip.scalarIssueCycles, instr);
                issueCycle_ += chip.scalarIssueCycles;
                break;
            case Opcode::WaitFlag:
                if (!onScalar) goto queue;
                issueBlock_ = IssueBlock::WaitFlag;
                blockedSince_ = issueCycle_;
                if (!resolveIssueBlock(now)) return progress;
                progress = true;
                continue;  // resolved: already advanced
            case Opcode::Barrier:
                if (std::get<Barrier>(instr.operands).pipe == Pipe::All) {
                    issueBlock_ = IssueBlock::BarrierAll;
                    blockedSince_ = issueCycle_;
                    if (!resolveIssueBlock(now)) return progress;
                    progress = true;
                    continue;
                }
                if (!onScalar) goto queue;
                break;  // a scalar barrier: the issue unit is in order already
            case Opcode::CrossCoreWait:
                issueBlock_ = IssueBlock::CrossCoreWait;
                blockedSince_ = issueCycle_;
                if (!resolveIssueBlock(now)) return progress;
                progress = true;
                continue;
            case Opcode::CrossCoreSet:
                if (!onScalar) goto queue;
                crossCoreSet(std::get<CrossCoreFlag>(instr.operands), issueCycle_);
                traceOnScalarUnit(chip.scalarIssueCycles, instr);
                issueCycle_ += chip.scalarIssueCycles;
                break;
            default:
            queue: {
                PipeState& ps = pipes_[pipeIndex(instr.pipe)];
                if (instr.pipe == Pipe::All || !ps.present) {
                    throw std::runtime_error(siteOf(programIndex_).describe() + " targets " +
                                             std::string(pipeName(instr.pipe)) + ", which this core does not have");
                }
                if (ps.queue.full()) {
                    issueBlock_ = IssueBlock::QueueFull;
                    blockedPipe_ = instr.pipe;
                    blockedSince_ = issueCycle_;
                    return progress;
                }
                QueuedInstruction& slot = ps.queue.pushSlot();
                slot.readyCycle = issueCycle_ + chip.scalarIssueCycles;
                slot.programIndex = programIndex_;
                if (instr.opcode == Opcode::Vector && instr.pipe == Pipe::Vector) queuedPatterns_[ps.queue.backPosition()] = issuedPattern_;
                issueCycle_ += chip.scalarIssueCycles;
                ++chunkPos_;
                ++programIndex_;
                progress = true;
                continue;  // counted as executed when its pipe runs it
            }
        }
        ++chunkPos_;
        ++programIndex_;
        ++instructionsExecuted_;
        progress = true;
    }
    return progress;
}

// Tries to end the current issue stall at cycle `now`; on success the blocking instruction has
// executed (or, for a full queue, may now be issued) and issueCycle_ is where issue resumes.
bool AiCore::resolveIssueBlock(std::uint64_t now) {
    const Instruction& instr = chunk_[chunkPos_];
    const std::uint32_t latency = res_.chip.flagLatencyCycles;
    std::uint64_t resume = issueCycle_;
    switch (issueBlock_) {
        case IssueBlock::None:
            return true;
        case IssueBlock::QueueFull: {
            const PipeState& blocked = pipes_[pipeIndex(blockedPipe_)];
            if (blocked.queue.full()) return false;
            resume = std::max(issueCycle_, blocked.lastStart);  // the slot freed when its instruction started
            bool counted = false;
            const PmuEvent event = queueFullEventOf(blockedPipe_, counted);
            if (counted) counters_[event] += resume - blockedSince_;
            if (block_.trace != nullptr && resume > blockedSince_)
                traceSpan(TraceSpanKind::IssueStall, Pipe::Scalar, programIndex_, blockedSince_, resume, instr,
                          blockedPipe_);
            issueCycle_ = resume;
            issueBlock_ = IssueBlock::None;
            return true;  // the instruction itself is issued by the caller's loop
        }
        case IssueBlock::WaitFlag: {
            const std::size_t flag = flagSlot(std::get<Flag>(instr.operands));
            if (!flags_.isSet(flag)) return false;
            resume = std::max(issueCycle_, flags_.oldestSetCycle(flag) + latency);
            flags_.consume(flag);
            counters_[PmuEvent::WaitFlagScalar] += resume - blockedSince_;
            break;
        }
        case IssueBlock::BarrierAll:
            for (std::size_t p = 1; p < kPipeCount; ++p) {
                if (!pipes_[p].queue.empty()) return false;
                resume = std::max({resume, pipes_[p].busyUntil, pipes_[p].resultsReady});
            }
            countStoresInFlightBusy();
            break;
        case IssueBlock::CrossCoreWait: {
            std::uint64_t release = 0;
            if (!crossCoreWaitReady(std::get<CrossCoreFlag>(instr.operands), release)) return false;
            resume = std::max(issueCycle_, release);
            countCrossCoreWait(std::get<CrossCoreFlag>(instr.operands), resume);
            break;
        }
    }
    if (block_.trace != nullptr)
        traceSpan(TraceSpanKind::WaitFlag, Pipe::Scalar, programIndex_, blockedSince_, resume, instr);
    issueCycle_ = resume + res_.chip.scalarIssueCycles;
    issueBlock_ = IssueBlock::None;
    ++chunkPos_;
    ++programIndex_;
    ++instructionsExecuted_;
    return true;
}

namespace {

// Which group slots a cross-core operation of `mode` connects `ownSlot` with (hardware.md §2.4):
// mode 2 = an AIC (slot 0) with its AIVs, mode 1 = the AIVs of a group among themselves.
template <typename Visit>
void forEachPeerSlot(std::uint8_t mode, std::uint32_t ownSlot, std::size_t slots, Visit visit) {
    if (mode == 2) {
        if (ownSlot == 0)
            for (std::uint32_t s = 1; s < slots; ++s) visit(s);
        else
            visit(0);
    } else if (mode == 1 && ownSlot != 0) {
        for (std::uint32_t s = 1; s < slots; ++s)
            if (s != ownSlot) visit(s);
    } else {
        throw std::runtime_error("cross-core flag mode " + std::to_string(int{mode}) +
                                 " does not exist (modes 0, 1 and 2 do)");
    }
}

}  // namespace

// What the PMU counts while a cross-core wait blocks the scalar unit from blockedSince_ to resume.
// A polled wait spins in a GM message loop (§45): scalar busy. A mode-0 wait is Ascend C's hard
// SyncAll, PipeBarrier<PIPE_ALL>, the set on the scheduler's all-core counter, then `wait_flag_dev`,
// which the real rows count as scalar busy (docs/fidelity.md §51a). The kernels emit the set on
// its pipe and wait at once, so the part of the wait before this core's own set stands for the
// pipe barrier (no scalar work); from the set to the release the scalar unit is busy in
// `wait_flag_dev`. A wait on a core-to-core flag (modes 1, 2) blocks: a flag stall.
void AiCore::countCrossCoreWait(const CrossCoreFlag& flag, std::uint64_t resume) {
    std::uint64_t busyFrom = resume;
    if (flag.polled) busyFrom = blockedSince_;
    else if (flag.mode == 0) busyFrom = std::clamp(allCoresOwnSetCycle_[flag.flagId], blockedSince_, resume);
    counters_[PmuEvent::WaitFlagScalar] += busyFrom - blockedSince_;
    counters_[PmuEvent::ScalarBusy] += resume - busyFrom;
}

bool AiCore::crossCoreWaitReady(const CrossCoreFlag& flag, std::uint64_t& releaseCycle) {
    if (flag.mode == 0) return allCoresWaitReady(flag, releaseCycle);
    if (flag.flagId >= kCrossCoreFlagIds) throw std::runtime_error(siteOf(programIndex_).describe() + ": bad flag id");
    if (block_.groupBySlot.empty())
        throw std::runtime_error(siteOf(programIndex_).describe() + ": cross-core wait outside a MIX group");
    bool ready = true;
    std::uint64_t latestSetPs = 0;
    forEachPeerSlot(flag.mode, block_.ownSlot, block_.groupBySlot.size(), [&](std::uint32_t s) {
        const CrossCoreSemaphore& sem = crossCore_[flag.flagId][s];
        if (!sem.available()) ready = false;
        else latestSetPs = std::max(latestSetPs, sem.frontPs());
    });
    if (!ready) return false;
    forEachPeerSlot(flag.mode, block_.ownSlot, block_.groupBySlot.size(),
                    [&](std::uint32_t s) { crossCore_[flag.flagId][s].consume(); });
    releaseCycle = clock_.cycleAtOrAfter(latestSetPs) + res_.chip.flagLatencyCycles;
    return true;
}

void AiCore::crossCoreSet(const CrossCoreFlag& flag, std::uint64_t cycle) {
    if (flag.mode == 0) return allCoresSet(flag, cycle);
    if (flag.flagId >= kCrossCoreFlagIds) throw std::runtime_error(siteOf(programIndex_).describe() + ": bad flag id");
    if (block_.groupBySlot.empty())
        throw std::runtime_error(siteOf(programIndex_).describe() + ": cross-core set outside a MIX group");
    const std::uint64_t setPs = clock_.psOfCycle(cycle);
    forEachPeerSlot(flag.mode, block_.ownSlot, block_.groupBySlot.size(), [&](std::uint32_t s) {
        block_.groupBySlot[s]->receiveCrossCoreSet(block_.owner, flag.flagId, block_.ownSlot, setPs);
    });
}

}  // namespace ascendsim
