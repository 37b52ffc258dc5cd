// Scalar-unit work of operator kernels (pipes.scalar_cycles_per_instruction[_aic],
// block_prologue_scalar_cycles): it occupies the issue unit before each instruction and sync
// instruction it issues, and counts as scalar busy, on every kernel without the kernel emitting it.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {


TEST(ScalarOverhead, EveryIssuedAndSyncInstructionCountsScalarBusyAndDelaysIssue) {
    DeviceRun plain;
    const PmuCounters base = onlyBlock(plain.runOne(vectorTask(loadThenCompute())));
    ChipConfig chip = deviceTestChip();
    chip.scalarCyclesPerInstruction = 7;
    chip.scalarCyclesPerInstructionAic = 1000;  // a vector core must not use the AIC cost
    DeviceRun run(chip);
    const PmuCounters c = onlyBlock(run.runOne(vectorTask(loadThenCompute())));
    EXPECT_EQ(c[PmuEvent::ScalarBusy], base[PmuEvent::ScalarBusy] + 4 * 7);
    // The load issues 7 cycles later; the vadds waits for the flag, which the load's end sets.
    EXPECT_EQ(c.totalCycles, base.totalCycles + 7);
}

TEST(ScalarOverhead, BlockPrologueIsScalarWorkBeforeTheFirstIssue) {
    DeviceRun plain;
    const PmuCounters base = onlyBlock(plain.runOne(vectorTask(loadThenCompute())));
    ChipConfig chip = deviceTestChip();
    chip.blockPrologueScalarCycles = 250;
    DeviceRun run(chip);
    const PmuCounters c = onlyBlock(run.runOne(vectorTask(loadThenCompute())));
    EXPECT_EQ(c[PmuEvent::ScalarBusy], base[PmuEvent::ScalarBusy] + 250);
    EXPECT_EQ(c.totalCycles, base.totalCycles + 250);
}

TEST(ScalarOverhead, ManySmallInstructionsBecomeIssueBound) {
    std::vector<Instruction> program;
    for (int i = 0; i < 50; ++i) program.push_back(vadds(8192, 0));  // 4 cycles each on the pipe
    DeviceRun plain;
    const PmuCounters base = onlyBlock(plain.runOne(vectorTask(program)));
    ChipConfig chip = deviceTestChip();
    chip.scalarCyclesPerInstruction = 20;
    DeviceRun run(chip);
    const PmuCounters c = onlyBlock(run.runOne(vectorTask(program)));
    EXPECT_GE(c.totalCycles, 50u * 20u);  // the issue unit, not the vector pipe, sets the pace
    EXPECT_LT(base.totalCycles, 50u * 20u / 2);
    EXPECT_EQ(c[PmuEvent::VecBusy], base[PmuEvent::VecBusy]);
}

}  // namespace
}  // namespace ascendsim::test
