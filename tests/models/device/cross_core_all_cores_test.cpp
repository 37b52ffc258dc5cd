// Mode-0 cross-core flags (cross_core_barrier.h): every core of one type waits for all of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "models/device/device_run.h"
#include "models/device/device_test_chip.h"

namespace ascendsim::test {
namespace {

constexpr std::uint8_t kFlag = 5;
constexpr std::uint8_t kAllCores = 0;

// Block b works 100·(b + 1) cycles, then every block sets the flag and waits for all the others;
// with `secondRound`, each then works 100·(blockDim − b) cycles and synchronises again.
KernelTask allCoresBarrierTask(std::uint32_t blockDim, bool secondRound) {
    KernelTask t = vectorTask({}, blockDim);
    t.program = [blockDim, secondRound](const BlockProgramRequest& r) {
        std::vector<Instruction> p = {Instruction::scalar(100 * (r.blockIdx + 1)),
                                      Instruction::crossCoreSet(kFlag, kAllCores, Pipe::Scalar),
                                      Instruction::crossCoreWait(kFlag, kAllCores)};
        if (secondRound) {
            p.push_back(Instruction::scalar(100 * (blockDim - r.blockIdx)));
            p.push_back(Instruction::crossCoreSet(kFlag, kAllCores, Pipe::Scalar));
            p.push_back(Instruction::crossCoreWait(kFlag, kAllCores));
        }
        p.push_back(Instruction::scalar(10));
        return std::make_unique<FixedInstructionStream>(std::move(p));
    };
    return t;
}

TEST(CrossCoreAllCores, EveryAivWaitsForTheLastAivToSet) {
    DeviceRun run;  // 4 AIVs
    const TaskResult& r = run.runOne(allCoresBarrierTask(4, false));
    ASSERT_EQ(r.blocks.size(), 4u);
    const std::uint64_t latency = run.chip.flagLatencyCycles;
    for (const BlockResult& b : r.blocks) {
        // The last set is block 3's at 400; released at 400 + latency, issue 1, work 10.
        EXPECT_EQ(b.counters.totalCycles, 400 + latency + 1 + 10) << "block " << b.blockIdx;
        // The set is on the scalar unit just before the wait, so the whole wait is `wait_flag_dev`
        // after this core's own set: scalar busy (docs/fidelity.md §51a), not a flag stall.
        EXPECT_EQ(b.counters[PmuEvent::WaitFlagScalar], 0u) << "block " << b.blockIdx;
        EXPECT_EQ(b.counters[PmuEvent::ScalarBusy], 100 * (b.blockIdx + 1) + 10 + 400 + latency - (100 * (b.blockIdx + 1) + 1))
            << "block " << b.blockIdx;
    }
}

TEST(CrossCoreAllCores, TheFlagSynchronisesAgainRoundByRound) {
    DeviceRun run;
    const TaskResult& r = run.runOne(allCoresBarrierTask(4, true));
    const std::uint64_t latency = run.chip.flagLatencyCycles;
    // Round 1 resumes everyone at 400 + latency + 1; block 0 then works longest (400 cycles).
    const std::uint64_t round2Set = 400 + latency + 1 + 400;
    for (const BlockResult& b : r.blocks)
        EXPECT_EQ(b.counters.totalCycles, round2Set + latency + 1 + 10) << "block " << b.blockIdx;
}

TEST(CrossCoreAllCores, AivsOfAMixKernelWaitForTheAivsOfEveryGroup) {
    DeviceRun run;  // 2 groups of 1 AIC + 2 AIVs
    KernelTask t = allCoresBarrierTask(2, false);
    const ProgramFactory perBlock = t.program;
    t.type = TaskType::MixAic;
    t.mixBlockDim = 4;
    // AIV j of group g works like block 2g + j of the vector kernel; the AICs only do scalar work.
    t.program = [perBlock](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        if (r.coreKind != CoreKind::Vector)
            return std::make_unique<FixedInstructionStream>(
                std::vector<Instruction>{Instruction::scalar(1)});
        BlockProgramRequest asVector = r;
        asVector.blockIdx = 2 * r.blockIdx + r.subBlockIdx;
        return perBlock(asVector);
    };
    const TaskResult& r = run.runOne(std::move(t));
    const std::uint64_t latency = run.chip.flagLatencyCycles;
    for (const BlockResult& b : r.blocks) {
        if (b.coreKind != CoreKind::Vector) continue;
        EXPECT_EQ(b.counters.totalCycles,
                  400 + latency + 1 + 10)  // the last of the 4 AIVs sets at 400
            << "group " << b.blockIdx;
    }
}

// The scheduler's sync counter sends the release back allCoreSyncCycles after the last set: every
// core resumes together that much later, and a core-to-core (mode 2) flag does not pay it.
TEST(CrossCoreAllCores, TheReleaseComesBackFromTheSchedulersSyncCounter) {
    ChipConfig chip = deviceTestChip();
    chip.allCoreSyncCycles = 700;
    DeviceRun run(chip);
    const TaskResult& r = run.runOne(allCoresBarrierTask(4, false));
    const std::uint64_t latency = run.chip.flagLatencyCycles;
    for (const BlockResult& b : r.blocks) {
        EXPECT_EQ(b.counters.totalCycles, 400 + latency + 700 + 1 + 10) << "block " << b.blockIdx;
        EXPECT_EQ(b.counters[PmuEvent::ScalarBusy],
                  100 * (b.blockIdx + 1) + 10 + 400 + latency + 700 - (100 * (b.blockIdx + 1) + 1))
            << "block " << b.blockIdx << ": the round trip is spent in wait_flag_dev, scalar busy";
    }

    DeviceRun mix(chip);  // an AIC hands on to its two AIVs (mode 2): the usual flag latency only
    KernelTask t;
    t.type = TaskType::MixAic;
    t.blockDim = 1;
    t.mixBlockDim = 2;
    t.program = [](const BlockProgramRequest& req) -> std::unique_ptr<InstructionStream> {
        std::vector<Instruction> p;
        if (req.coreKind == CoreKind::Vector) p = {Instruction::crossCoreWait(3, 2), Instruction::scalar(10)};
        else p = {Instruction::scalar(500), Instruction::crossCoreSet(3, 2, Pipe::Scalar)};
        return std::make_unique<FixedInstructionStream>(std::move(p));
    };
    const TaskResult& m = mix.runOne(std::move(t));
    for (const BlockResult& b : m.blocks) {
        if (b.coreKind == CoreKind::Vector) {
            EXPECT_EQ(b.counters.totalCycles, 500 + latency + 1 + 10);
        }
    }
}

// SyncAll's set goes out on MTE3 after the block's store (the kernels emit it there and wait at
// once). Until the core's own set the scalar unit stands where the hardware's PipeBarrier<PIPE_ALL>
// holds it: a stall. From its own set to the release it is in wait_flag_dev: scalar busy. So a
// longer round trip adds to every block's scalar busy and nothing to its stall, and a block that
// sets later is busy for less.
std::vector<BlockResult> storeThenSyncAll(std::uint64_t allCoreSyncCycles) {
    ChipConfig chip = deviceTestChip();
    chip.allCoreSyncCycles = allCoreSyncCycles;
    DeviceRun run(chip);
    KernelTask t = vectorTask({}, 4);
    t.program = [](const BlockProgramRequest& r) {
        DataMove store;  // 2 KiB more per block: each block's set leaves later than the one before
        store.src = MemSpace::UB;
        store.dst = MemSpace::GM;
        store.dstAddr = 0x100000 * (r.blockIdx + 1);
        store.burstBytes = 8192 + 2048 * r.blockIdx;
        std::vector<Instruction> p = {Instruction::move(store),
                                      Instruction::crossCoreSet(kFlag, kAllCores, Pipe::Mte3),
                                      Instruction::crossCoreWait(kFlag, kAllCores), Instruction::scalar(10)};
        return std::make_unique<FixedInstructionStream>(std::move(p));
    };
    std::vector<BlockResult> blocks = run.runOne(std::move(t)).blocks;
    std::sort(blocks.begin(), blocks.end(),
              [](const BlockResult& x, const BlockResult& y) { return x.blockIdx < y.blockIdx; });
    return blocks;
}

TEST(CrossCoreAllCores, TheWaitIsScalarBusyFromTheCoresOwnSetOn) {
    const std::vector<BlockResult> shortTrip = storeThenSyncAll(700);
    const std::vector<BlockResult> longTrip = storeThenSyncAll(1400);
    ASSERT_EQ(shortTrip.size(), 4u);
    ASSERT_EQ(longTrip.size(), 4u);
    for (std::size_t i = 0; i < shortTrip.size(); ++i) {
        const PmuCounters& s = shortTrip[i].counters;
        const PmuCounters& l = longTrip[i].counters;
        EXPECT_EQ(l.totalCycles, s.totalCycles + 700) << "block " << i;
        EXPECT_EQ(l[PmuEvent::ScalarBusy], s[PmuEvent::ScalarBusy] + 700) << "block " << i << ": the round trip is busy";
        EXPECT_EQ(l[PmuEvent::WaitFlagScalar], s[PmuEvent::WaitFlagScalar]) << "block " << i;
        EXPECT_GT(s[PmuEvent::WaitFlagScalar], 0u) << "block " << i << ": waited for its own store and set";
        EXPECT_GE(s[PmuEvent::ScalarBusy], 10u + 700u) << "block " << i;
        if (i > 0) {
            EXPECT_LT(s[PmuEvent::ScalarBusy], shortTrip[i - 1].counters[PmuEvent::ScalarBusy])
                << "block " << i << " set later, so it is busy for less of the wait";
            EXPECT_GT(s[PmuEvent::WaitFlagScalar], shortTrip[i - 1].counters[PmuEvent::WaitFlagScalar])
                << "block " << i << " waited longer for its own set";
        }
    }
}

TEST(CrossCoreAllCores, MoreBlocksThanCoresOfTheType_IsAnError) {
    DeviceRun run;
    EXPECT_THROW(run.runOne(allCoresBarrierTask(5, false)), std::runtime_error);
}

}  // namespace
}  // namespace ascendsim::test
