// Mode-0 cross-core flags (cross_core_barrier.h): every core of one type waits for all of them.
#include <gtest/gtest.h>

#include <stdexcept>

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
        EXPECT_EQ(b.counters[PmuEvent::WaitFlagScalar],
                  400 + latency - (100 * (b.blockIdx + 1) + 1))
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
        EXPECT_EQ(b.counters[PmuEvent::WaitFlagScalar], 400 + latency + 700 - (100 * (b.blockIdx + 1) + 1))
            << "block " << b.blockIdx << ": the round trip is waited for, not worked";
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

TEST(CrossCoreAllCores, MoreBlocksThanCoresOfTheType_IsAnError) {
    DeviceRun run;
    EXPECT_THROW(run.runOne(allCoresBarrierTask(5, false)), std::runtime_error);
}

}  // namespace
}  // namespace ascendsim::test
