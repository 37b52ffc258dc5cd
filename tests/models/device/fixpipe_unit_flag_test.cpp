// A FixPipe store issued with Ascend C's unit flag (docs/fidelity.md §34) is in flight while it
// waits for the mmad results it drains: FIX's wait on the cube's flag counts as FIX busy, where a
// wait on another pipe's flag (here MTE2 → FIX, set once the same mmad is done) stays a flag wait.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

// One 128×128×128 mmad (512 fractals on the test chip) then a 6400 B store (100 cycles). With
// `direct`, FIX waits on the cube's flag (a unit-flag store unless `unitFlag` is false); otherwise
// MTE2 waits on it and hands over to FIX.
PmuCounters mmadThenStore(bool direct, bool unitFlag = true) {
    Mmad mm;
    mm.m = 128;
    mm.k = 128;
    mm.n = 128;
    DataMove store;
    store.src = MemSpace::L0C;
    store.dst = MemSpace::GM;
    store.burstBytes = 6400;
    store.srcType = store.dstType = DataType::Fp32;
    std::vector<Instruction> program{Instruction::mmad(mm)};
    if (direct) {
        program.push_back(Instruction::setFlag(Pipe::Cube, Pipe::FixPipe, 0));
        program.push_back(Instruction::waitFlag(Pipe::Cube, Pipe::FixPipe, 0));
        std::get<Flag>(program.back().operands).unitFlag = unitFlag;
    } else {
        program.push_back(Instruction::setFlag(Pipe::Cube, Pipe::Mte2, 0));
        program.push_back(Instruction::waitFlag(Pipe::Cube, Pipe::Mte2, 0));
        program.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::FixPipe, 0));
        program.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::FixPipe, 0));
    }
    program.push_back(Instruction::move(store));
    DeviceRun run;
    KernelTask t;
    t.type = TaskType::AiCore;
    t.program = sameProgram(std::move(program));
    return onlyBlock(run.runOne(std::move(t)));
}

TEST(FixPipeUnitFlag, WaitForTheCubeCountsAsFixBusy) {
    const PmuCounters unit = mmadThenStore(true);
    EXPECT_EQ(unit[PmuEvent::WaitFlagFixpipe], 0u);
    EXPECT_GE(unit[PmuEvent::FixpipeBusy], unit[PmuEvent::MacBusy]);  // in flight behind the mmad
    EXPECT_LE(unit[PmuEvent::FixpipeBusy], unit.totalCycles);

    const PmuCounters other = mmadThenStore(false);
    EXPECT_GE(other[PmuEvent::WaitFlagFixpipe], other[PmuEvent::MacBusy]);
    EXPECT_LT(other[PmuEvent::FixpipeBusy], other[PmuEvent::MacBusy]);  // the store alone
}

// A kernel that syncs M -> FIX with a plain event (CANN's arch22 convolution gradients, §115) issues
// its store after the wait: FIX waits idle and is busy for the store alone, in the same time.
TEST(FixPipeUnitFlag, APlainEventWaitIsAFlagWait) {
    const PmuCounters unit = mmadThenStore(true);
    const PmuCounters plain = mmadThenStore(true, false);
    EXPECT_EQ(plain.totalCycles, unit.totalCycles);
    EXPECT_GE(plain[PmuEvent::WaitFlagFixpipe], plain[PmuEvent::MacBusy]);
    EXPECT_LT(plain[PmuEvent::FixpipeBusy], plain[PmuEvent::MacBusy]);
    EXPECT_EQ(plain[PmuEvent::FixpipeBusy], mmadThenStore(false)[PmuEvent::FixpipeBusy]);
}

}  // namespace
}  // namespace ascendsim::test
