#pragma once
// One AI Core (AIC, AIV or coupled core) as an event-driven SystemC process (DESIGN.md decision
// 1, STYLE.md DRAMSys pattern). Each activation does all work that is due "now" for the scalar
// issue unit and every pipe, then computes the earliest future cycle at which anything can
// happen and wakes itself only then.
//
// Issue model (hardware.md §2.2, §2.4): the scalar unit issues the block's program in order,
// one instruction per scalarIssueCycles, into per-pipe in-order queues of depth
// ChipConfig::queueDepth; a full queue stalls issue (counted as *_iq_full). The issue unit runs
// ahead of simulated time (it stamps each queued instruction with the cycle it was delivered),
// because nothing it does needs shared state; GM moves execute at real simulated time, because
// they must reach the MemorySystem in time order. ScalarWork, scalar-pipe flags, PIPE_ALL
// barriers and cross-core waits execute in the issue unit itself.
// A pipe executes one instruction at a time. SetFlag executes in its source pipe once that
// pipe's earlier instructions have completed; WaitFlag blocks its pipe until the flag is set and
// is released flagLatencyCycles after the set, clearing the flag. Pipes also run ahead of
// simulated time over work that depends on nothing not yet simulated (see mayRunAhead), so
// an activation costs a GM transfer or a cross-pipe hand-off, not every instruction.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/core/buffer_checks.h"
#include "models/core/core_clock.h"
#include "models/core/cross_core_barrier.h"
#include "models/core/cross_core_semaphore.h"
#include "models/core/flag_table.h"
#include "models/core/icache_model.h"
#include "models/core/instruction_trace.h"
#include "models/core/pipe_queue.h"
#include "models/systemc/simulation_errors.h"
#include "models/core/ub_bank_model.h"
#include "models/core/l1_read_share.h"
#include "models/core/ub_gm_port.h"
#include "models/memory/memory_system.h"
#include "models/pmu/pmu_event.h"
#include "models/task/kernel_task.h"
#include "models/timing/transfer_timing.h"

namespace sc_core {
class sc_event;
}

namespace ascendsim {

template <typename Unit>
class SteppedProcess;

class AiCore;

// The timing models and shared memory every core of a device uses.
struct CoreResources {
    const ChipConfig& chip;
    const TransferTiming& transfer;
    const CubeTiming& cube;
    const VectorTimingModel& vector;
    MemorySystem& memory;
    SimulationErrors& errors;
    CrossCoreBarriers& barriers;  // mode-0 cross-core flags of all cores
};

// Receives a core's finished block (called from inside the core's process at the end time).
class CoreHost {
public:
    virtual ~CoreHost() = default;
    virtual void onBlockFinished(AiCore& core) = 0;
};

struct BlockAssignment {
    std::uint64_t taskId = 0;
    std::uint64_t codeId = 0;  // code image (kernel × core kind) for the ICache
    std::uint32_t codeBytes = 0;  // KernelTask::codeBytes: the image's size, 0 = the chip's
    bool codeHeldInL2 = true;  // KernelTask::codeHeldInL2: a missed image's first fill hits L2
    BlockProgramRequest request;
    std::unique_ptr<InstructionStream> program;
    // MIX groups: the group's cores by slot (0 = AIC, 1 + j = AIV j) and this core's slot.
    std::vector<AiCore*> groupBySlot;
    std::uint32_t ownSlot = 0;
    // Blocks of this core's kind the kernel runs (AIVs of a MIX kernel: blockDim × AIVs per
    // group): a mode-0 cross-core flag synchronises all of them.
    std::uint32_t coresOfKind = 0;
    void* owner = nullptr;  // opaque to the core: the scheduler's running task
    InstructionTraceSink* trace = nullptr;  // KernelTask::instructionTrace
};

class AiCore {
public:
    AiCore(const CoreResources& resources, CoreKind kind, std::uint32_t coreId, std::uint32_t globalCoreId,
           CoreHost& host);
    ~AiCore();
    AiCore(const AiCore&) = delete;
    AiCore& operator=(const AiCore&) = delete;

    // Starts a block at `startPs` (the current simulated time); the program begins after
    // ChipConfig::blockStartCycles.
    void startBlock(BlockAssignment assignment, std::uint64_t startPs);
    // Puts code image `codeId` in the ICache as if a block of it had just run (a replay's kernel
    // whose code the real timeline left resident).
    void preloadCode(std::uint64_t codeId, std::uint32_t codeBytes = 0) { icache_.fetchImage(codeId, codeBytes); }
    bool busy() const { return active_; }

    CoreKind kind() const { return kind_; }
    std::uint32_t coreId() const { return coreId_; }
    const CoreClock& clock() const { return clock_; }
    // Of the last finished (or the running) block.
    const BlockAssignment& assignment() const { return block_; }
    const PmuCounters& counters() const { return counters_; }
    std::uint64_t blockStartPs() const { return clock_.psOfCycle(blockStartCycle_); }
    std::uint64_t blockEndPs() const { return clock_.psOfCycle(blockEndCycle_); }
    std::uint64_t instructionsExecuted() const { return instructionsExecuted_; }
    std::uint64_t activations() const { return activations_; }

    // A cross-core set from the group member in `senderSlot` at `setPs`.
    // Ignored unless this core runs a block of the same task (`owner`).
    void receiveCrossCoreSet(const void* owner, std::uint8_t flagId, std::uint32_t senderSlot, std::uint64_t setPs);
    // A mode-0 round this core set has completed: re-check a waiting cross-core flag now.
    void wakeForCrossCoreFlag();
    // Describes what the core is blocked on (for deadlock reports); empty when idle.
    std::string blockedState() const;

    void step();  // the SystemC process body

private:
    enum class IssueBlock : std::uint8_t { None, QueueFull, WaitFlag, BarrierAll, CrossCoreWait };
    struct PipeState {
        PipeQueue queue;
        std::uint64_t busyUntil = 0;  // cycle the running instruction (or a released wait) ends
        std::uint64_t lastStart = 0;  // cycle the last instruction left the queue
        std::uint64_t waitSince = 0;
        // Vector pipe: cycle its issued instructions' results are in UB; MTE2 / MTE3: cycle the
        // data of its GM loads / stores in flight is in place (§64, §79).
        std::uint64_t resultsReady = 0;
        std::uint64_t busyCountedUntil = 0;  // busy is counted once over overlapping loads in flight
        bool waiting = false;
        bool present = false;
    };

    // Issue unit (ai_core_issue.cpp).
    bool runIssue(std::uint64_t now);
    bool resolveIssueBlock(std::uint64_t now);
    // Whether an instruction is fetched to issue (chunk_[chunkPos_]), fetching the next chunk if
    // needed. The test of the fetched chunk is inline: runIssue asks before every instruction
    // (15 M times in the main job), and the call cost 0.4 G host instructions (docs/performance.md
    // "Session 27").
    bool fetchNext() { return chunkPos_ < chunk_.size() || fetchChunk(); }
    bool fetchChunk();
    const Instruction& queuedInstruction(const QueuedInstruction& q) const {
        return chunk_[q.programIndex - chunkBaseIndex_];
    }
    bool crossCoreWaitReady(const CrossCoreFlag& flag, std::uint64_t& releaseCycle);
    void countCrossCoreWait(const CrossCoreFlag& flag, std::uint64_t resume);
    void crossCoreSet(const CrossCoreFlag& flag, std::uint64_t cycle);
    // Mode 0 (all cores of this kind in the kernel; cross_core_barrier.h), in ai_core.cpp.
    bool allCoresWaitReady(const CrossCoreFlag& flag, std::uint64_t& releaseCycle);
    void allCoresSet(const CrossCoreFlag& flag, std::uint64_t cycle);
    CrossCoreBarriers::RoundKey allCoresRound(const CrossCoreFlag& flag, std::uint32_t round) const;
    // Pipes (ai_core_execute.cpp).
    bool runPipe(Pipe pipe, std::uint64_t now);
    bool mayRunAhead(Pipe pipe, const Instruction& instr) const;
    bool transfersWaitFor(Pipe pipe, std::initializer_list<Pipe> mtes) const;
    void execute(Pipe pipe, const Instruction& instr, std::uint64_t programIndex, std::uint64_t now);
    // Returns the cycle the move's data is in place; `issued` gets the cycle the pipe may issue its
    // next instruction (the same cycle unless the move is a GM load or store kept in flight, §64, §79).
    std::uint64_t executeDataMove(Pipe pipe, const DataMove& move, std::uint64_t now, std::uint64_t& issued);
    std::uint64_t inFlightIssueCycles(Pipe pipe, const DataMove& move) const;
    void countPipeBusy(Pipe pipe, std::uint64_t from, std::uint64_t to);
    // MTE3 busy while a PIPE_ALL barrier or the block's end waits for its stores' writes (§79).
    void countStoresInFlightBusy() { countPipeBusy(Pipe::Mte3, 0, pipes_[pipeIndex(Pipe::Mte3)].resultsReady); }
    std::uint64_t peakRateCycles(const DataMove& move) const;
    std::uint64_t l1PortStallCycles(std::uint64_t now, std::uint64_t cycles) const;
    std::uint64_t l1ReadPortCycles(const DataMove& move) const;
    std::uint64_t l1LoadTurnCycles(const DataMove& move, std::uint64_t curveCycles, std::uint64_t now);
    std::uint64_t executeVector(const VectorInstr& instr, const UbAccessPattern& pattern, std::uint64_t now);
    void setFlag(const Flag& flag, std::uint64_t cycle);
    // A flag's slot in flags_; inline (8 M calls in the main job, docs/performance.md "Session 27").
    std::size_t flagSlot(const Flag& flag) const {
        if (flag.eventId >= kMaxEventIds || flag.src == Pipe::All || flag.dst == Pipe::All) throwFlagOutOfRange(flag);
        return (pipeIndex(flag.src) * kPipeCount + pipeIndex(flag.dst)) * kMaxEventIds + flag.eventId;
    }
    [[noreturn, gnu::noinline, gnu::cold]] void throwFlagOutOfRange(const Flag& flag) const;
    static constexpr std::size_t kMaxEventIds = 16;

    // Hands a span of this block to its trace sink (only called when block_.trace is set).
    void traceSpan(TraceSpanKind kind, Pipe pipe, std::uint64_t programIndex, std::uint64_t startCycle,
                   std::uint64_t endCycle, const Instruction& instr, Pipe stalledOn = Pipe::Scalar) const;
    // Work the issue unit does itself, from issueCycle_ on, when the block is traced.
    void chargeScalarOverhead(const Instruction& instr);
    void traceOnScalarUnit(std::uint64_t cycles, const Instruction& instr) const {
        if (block_.trace != nullptr)
            traceSpan(TraceSpanKind::Execute, Pipe::Scalar, programIndex_, issueCycle_, issueCycle_ + cycles, instr);
    }
    void finishBlock();
    void readLaunchArguments(std::uint64_t now);
    void scheduleWake(std::uint64_t cycle);
    InstructionSite siteOf(std::uint64_t programIndex) const;

    const CoreResources& res_;
    CoreKind kind_;
    std::uint32_t coreId_;
    std::uint32_t globalCoreId_;
    CoreHost& host_;
    CoreClock clock_;
    BufferChecks checks_;
    ICacheModel icache_;
    UbBankModel ubBanks_;
    SteppedProcess<AiCore>* process_ = nullptr;  // lives with the SystemC context

    // Block state.
    bool active_ = false;
    BlockAssignment block_;
    PmuCounters counters_;
    std::uint64_t blockStartCycle_ = 0;
    std::uint64_t blockEndCycle_ = 0;
    // The fetched program from program index chunkBaseIndex_ (at or before the oldest
    // instruction still queued in a pipe: fetchChunk drops the retired prefix once it is at least
    // four times as long as the rest) to the end of the last chunk; chunkPos_ is the next one to issue.
    std::vector<Instruction> chunk_;
    std::uint64_t chunkBaseIndex_ = 0;
    std::size_t chunkPos_ = 0;
    std::uint64_t programIndex_ = 0;
    std::uint64_t fetchedIndex_ = ~std::uint64_t{0};
    std::uint64_t overheadIndex_ = ~std::uint64_t{0};  // last instruction charged its scalar work
    bool programEnded_ = false;

    // Issue unit state.
    std::uint64_t issueCycle_ = 0;
    bool argumentReadPending_ = false;  // the block's launch-argument read is still to be sent
    IssueBlock issueBlock_ = IssueBlock::None;
    std::uint64_t blockedSince_ = 0;
    Pipe blockedPipe_ = Pipe::Scalar;

    std::array<PipeState, kPipeCount> pipes_{};
    // UB access pattern of each queued vector instruction, by vector-queue slot: computed once
    // for the buffer check at issue and used again by the bank model at execution.
    UbAccessPattern issuedPattern_{};
    std::vector<UbAccessPattern> queuedPatterns_;
    // Last UB window of each MTE transfer, for vector/MTE port conflicts.
    std::array<std::uint64_t, 2> mteUbStart_{};
    std::array<std::uint64_t, 2> mteUbEnd_{};
    std::array<double, 2> mteUbBytesPerCycle_{};
    UbGmPort ubGmPort_;  // the core's GM port at its UB end, shared by MTE2 loads and MTE3 stores
    // Last GM→L1 transfer (MTE2): its window and rate, for MTE1's reads of the same L1 port.
    std::uint64_t l1LoadStart_ = 0;
    std::uint64_t l1LoadEnd_ = 0;
    double l1LoadBytesPerCycle_ = 0.0;
    L1ReadShare l1ReadShare_;  // MTE1's reads of L1, for the GM→L1 transfers' turns

    std::uint64_t instructionsExecuted_ = 0;
    std::uint64_t activations_ = 0;

    // Large, sparsely touched tables last, so the state every activation reads stays compact.
    FlagTable<kPipeCount * kPipeCount * kMaxEventIds> flags_;
    CrossCoreSemaphores crossCore_{};
    // Mode-0 sets and passed waits of this block per flag id: the next round of each.
    std::array<std::uint32_t, kCrossCoreFlagIds> allCoresSets_{};
    std::array<std::uint32_t, kCrossCoreFlagIds> allCoresWaits_{};
    // The cycle of this block's latest mode-0 set per flag id (the set of the round being waited for).
    std::array<std::uint64_t, kCrossCoreFlagIds> allCoresOwnSetCycle_{};
};

}  // namespace ascendsim
