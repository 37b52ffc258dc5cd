// Core organisations (hardware.md §2.1): coupled cores drive cube and vector from one scalar
// unit; vector cores run at their own clock.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

ChipConfig coupledChip() {
    ChipConfig chip = deviceTestChip();
    chip.organisation = CoreOrganisation::Coupled;
    chip.aiCoreCount = 2;
    chip.vectorCoreCount = 1;  // a 310P-style standalone vector core
    return chip;
}

TEST(CoreOrganisation, CoupledCore_RunsCubeAndVectorWithL0cToUbOnTheVectorPipe) {
    DeviceRun run(coupledChip());
    Mmad mm;
    mm.m = mm.k = mm.n = 16;
    DataMove l0cToUb;
    l0cToUb.src = MemSpace::L0C;
    l0cToUb.dst = MemSpace::UB;
    l0cToUb.burstBytes = 1024;  // 16 cycles at 64 B/cycle
    KernelTask t;
    t.type = TaskType::AiCore;
    t.program = sameProgram({Instruction::mmad(mm), Instruction::setFlag(Pipe::Cube, Pipe::Vector, 0),
                             Instruction::waitFlag(Pipe::Cube, Pipe::Vector, 0), Instruction::move(l0cToUb),
                             vadds(0x10000, 0)});
    const TaskResult& r = run.runOne(std::move(t));
    ASSERT_EQ(r.blocks.size(), 1u);
    EXPECT_EQ(r.blocks[0].coreKind, CoreKind::Coupled);
    const PmuCounters& c = r.blocks[0].counters;
    EXPECT_EQ(c[PmuEvent::MacBusy], run.chip.cube.mmadMinCycles);
    EXPECT_EQ(c[PmuEvent::VecBusy], 16u + 4u);  // the L0C→UB move and the vadds
    EXPECT_EQ(c[PmuEvent::UbWriteVector], 1024u / 32 + 256u / 32);  // the move, then the vadds
    EXPECT_EQ(r.cubeSum[PmuEvent::MacBusy], c[PmuEvent::MacBusy]);
}

TEST(CoreOrganisation, VectorTaskOnCoupledChip_RunsOnTheStandaloneVectorCore) {
    DeviceRun run(coupledChip());
    const TaskResult& r = run.runOne(vectorTask({Instruction::scalar(100)}, 3));
    EXPECT_EQ(r.endNs - r.startNs, 300u);  // one vector core: three waves
    for (const BlockResult& b : r.blocks) EXPECT_EQ(b.coreKind, CoreKind::Vector);
}

TEST(CoreOrganisation, VectorCores_CountCyclesAtTheVectorCoreClock) {
    ChipConfig chip = deviceTestChip();
    chip.vectorCoreFreqMhz = 500.0;
    DeviceRun run(chip);
    const TaskResult& r = run.runOne(vectorTask({Instruction::scalar(1000)}));
    EXPECT_EQ(r.blocks.at(0).counters.totalCycles, 1000u);
    EXPECT_EQ(r.endNs - r.startNs, 2000u);
}

TEST(CoreOrganisation, SplitCubeCore_RejectsAVectorInstructionsPipe) {
    DeviceRun run;
    KernelTask t;
    t.type = TaskType::AiCore;
    t.program = sameProgram({gmToUb(0, 64)});  // AIC has no UB
    run.device->submit(std::move(t), 0);
    EXPECT_THROW(run.device->runUntilIdle(), std::runtime_error);
}

}  // namespace
}  // namespace ascendsim::test
