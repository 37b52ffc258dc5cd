// Timing rules of one AI core: flags, queues, pipe overlap, barriers, GM completion.
#include <set>

#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kVaddsOneRepeatCycles = 3 + 1;  // unary start-up + 1 repeat (test chip)

std::uint64_t issueCycles(const DeviceRun& run) { return run.chip.scalarIssueCycles; }


TEST(AiCoreTiming, WaitFlag_ReleasesConsumerExactlyFlagLatencyAfterSetFlag) {
    for (std::uint32_t latency : {1u, 3u, 10u}) {
        ChipConfig chip = deviceTestChip();
        chip.flagLatencyCycles = latency;
        DeviceRun run(chip);
        const PmuCounters c = onlyBlock(run.runOne(vectorTask(loadThenCompute())));
        // Issue delivers the move at cycle 1; it ends at 101, where MTE2 sets the flag.
        const std::uint64_t setCycle = 1 + 100;
        EXPECT_EQ(c.totalCycles, setCycle + latency + kVaddsOneRepeatCycles) << "latency " << latency;
        EXPECT_EQ(c[PmuEvent::VecBusy], kVaddsOneRepeatCycles);
        // The wait_flag reached the vector queue at cycle 3 and was released at set + latency.
        EXPECT_EQ(c[PmuEvent::WaitFlagVector], setCycle + latency - 3);
    }
}

TEST(AiCoreTiming, WaitFlag_OnScalarPipeBlocksIssueUntilReleased) {
    DeviceRun run;
    const PmuCounters c = onlyBlock(run.runOne(vectorTask({gmToUb(0, 6400),
                                                           Instruction::setFlag(Pipe::Mte2, Pipe::Scalar, 1),
                                                           Instruction::waitFlag(Pipe::Mte2, Pipe::Scalar, 1),
                                                           Instruction::scalar(50)})));
    EXPECT_EQ(c.totalCycles, 101 + run.chip.flagLatencyCycles + run.chip.scalarIssueCycles + 50);
    EXPECT_GT(c[PmuEvent::WaitFlagScalar], 90u);
    EXPECT_EQ(c[PmuEvent::ScalarBusy], 50u);
}

std::vector<Instruction> tenVaddsThenScalarWork() {
    std::vector<Instruction> p;
    for (int i = 0; i < 10; ++i) p.push_back(vadds(8192, 0, 8));  // 3 + 8 = 11 cycles each
    p.push_back(Instruction::scalar(200));
    return p;
}

TEST(AiCoreTiming, FullQueue_StallsIssueAndCountsIqFull) {
    ChipConfig deep = deviceTestChip();
    deep.queueDepth.fill(16);
    DeviceRun deepRun(deep);
    const PmuCounters unstalled = onlyBlock(deepRun.runOne(vectorTask(tenVaddsThenScalarWork())));
    EXPECT_EQ(unstalled[PmuEvent::VecQueueFull], 0u);
    // Ten issues, then the scalar work: issue never waits for the vector pipe.
    EXPECT_EQ(unstalled.totalCycles, 10 + 200u);

    ChipConfig shallow = deviceTestChip();
    shallow.queueDepth.fill(2);
    DeviceRun shallowRun(shallow);
    const PmuCounters stalled = onlyBlock(shallowRun.runOne(vectorTask(tenVaddsThenScalarWork())));
    EXPECT_GT(stalled[PmuEvent::VecQueueFull], 0u);
    // Every cycle issue waited on the full queue delays the scalar work by one cycle.
    EXPECT_EQ(stalled.totalCycles, unstalled.totalCycles + stalled[PmuEvent::VecQueueFull]);
}

// Double buffering: MTE2 loads tile i into buffer i%2 while the vector pipe computes tile i-1.
std::vector<Instruction> doubleBufferedProgram(int tiles) {
    std::vector<Instruction> p;
    for (int i = 0; i < tiles; ++i) {
        const std::uint8_t buf = static_cast<std::uint8_t>(i % 2);
        const std::uint64_t addr = buf * 32768;
        if (i >= 2) p.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte2, buf));
        p.push_back(gmToUb(addr, 6400));  // 100 cycles
        p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, buf));
        p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, buf));
        p.push_back(vadds(addr + 0x10000, addr, 97));  // 3 + 97 = 100 cycles; dst in the next 64 KiB bank slice
        p.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte2, buf));
    }
    return p;
}

TEST(AiCoreTiming, Pipes_OverlapSoDoubleBufferingTakesMaxNotSum) {
    DeviceRun run;
    const int tiles = 20;
    const PmuCounters c = onlyBlock(run.runOne(vectorTask(doubleBufferedProgram(tiles))));
    EXPECT_EQ(c[PmuEvent::Mte2Busy], tiles * 100u);
    EXPECT_GE(c[PmuEvent::VecBusy], tiles * 100u);
    const std::uint64_t sum = c[PmuEvent::Mte2Busy] + c[PmuEvent::VecBusy];
    const std::uint64_t longest = std::max(c[PmuEvent::Mte2Busy], c[PmuEvent::VecBusy]);
    // The first load cannot overlap anything; after it the pipes run side by side.
    EXPECT_LT(c.totalCycles, longest + 200) << "sum would be " << sum;
    EXPECT_LT(c.totalCycles, sum * 6 / 10);
}

TEST(AiCoreTiming, BusyCycles_NeverExceedTotalCycles) {
    DeviceRun run;
    const PmuCounters c = onlyBlock(run.runOne(vectorTask(doubleBufferedProgram(9))));
    for (PmuEvent e : {PmuEvent::VecBusy, PmuEvent::ScalarBusy, PmuEvent::Mte2Busy, PmuEvent::Mte3Busy,
                       PmuEvent::WaitFlagVector, PmuEvent::WaitFlagMte2})
        EXPECT_LE(c[e], c.totalCycles) << pmuEventInfo(e).name;
    EXPECT_GT(c[PmuEvent::WaitFlagVector], 0u);
}

TEST(AiCoreTiming, PipeBarrierAll_OrdersLaterInstructionsAfterAllEarlierOnes) {
    DeviceRun free;
    const PmuCounters overlapped = onlyBlock(free.runOne(vectorTask({gmToUb(0, 6400), vadds(0x10000, 16384)})));
    EXPECT_EQ(overlapped.totalCycles, 101u);  // the vadds runs under the 100-cycle load

    DeviceRun ordered;
    const PmuCounters serial = onlyBlock(ordered.runOne(
        vectorTask({gmToUb(0, 6400), Instruction::barrier(Pipe::All), vadds(0x10000, 16384)})));
    // Issue resumes when the load ends (101); the barrier and then the vadds each take one
    // issue cycle before the vadds reaches its pipe.
    EXPECT_EQ(serial.totalCycles, 101 + 2 * issueCycles(ordered) + kVaddsOneRepeatCycles);
}

TEST(AiCoreTiming, GmMove_CompletesAtLaterOfCurveAndMemoryService) {
    DeviceRun fast;
    EXPECT_EQ(onlyBlock(fast.runOne(vectorTask({gmToUb(0, 6400)}))).totalCycles, 1 + 100u);

    DeviceRun slow;
    slow.memory.latencyPs = 500'000;  // 500 cycles at 1 GHz
    const PmuCounters c = onlyBlock(slow.runOne(vectorTask({gmToUb(0, 6400, 0x1000)})));
    EXPECT_EQ(c.totalCycles, 1 + 500u);
    EXPECT_EQ(c[PmuEvent::Mte2Busy], 500u);
    ASSERT_EQ(slow.memory.accesses.size(), 1u);
    EXPECT_EQ(slow.memory.accesses[0].address, 0x1000u);
    EXPECT_EQ(slow.memory.accesses[0].bytes, 6400u);
    EXPECT_FALSE(slow.memory.accesses[0].isWrite);
    EXPECT_EQ(slow.memory.accesses[0].startPs, 1000u);
}

// An indexed move's row comes from data the timing model does not have: a gather reads, and a
// scatter (indexDestination) writes, a pseudo-random row of its table, not row 0 every time
// (IndexPutV2's and EmbeddingDenseGradV2's writes met row 0's L2 lines before, docs/fidelity.md §99).
TEST(AiCoreTiming, IndexedMoves_ReachRowsSpreadOverTheirTable) {
    auto indexed = [](Instruction move, std::uint64_t indexAddr) {
        DataMove& m = std::get<DataMove>(move.operands);
        m.indexAddr = indexAddr;
        m.indexBytes = 4;
        m.indexedRowBytes = 64;
        m.indexedRows = 1000;
        m.indexDestination = m.dst == MemSpace::GM;
        return move;
    };
    std::vector<Instruction> program;
    for (std::uint64_t k = 0; k < 8; ++k) {
        program.push_back(indexed(gmToUb(0x1000, 64, 0x100000), 32 * k));
        program.push_back(indexed(ubToGm(0x1000, 64, 0x200000), 32 * k));
    }
    DeviceRun run;
    run.runOne(vectorTask(program));
    ASSERT_EQ(run.memory.accesses.size(), 16u);
    std::set<std::uint64_t> readRows, writtenRows;
    for (const GmAccess& a : run.memory.accesses) {
        const std::uint64_t table = a.isWrite ? 0x200000 : 0x100000;
        ASSERT_GE(a.address, table);
        ASSERT_LT(a.address, table + 1000 * 64);
        EXPECT_EQ((a.address - table) % 64, 0u);
        (a.isWrite ? writtenRows : readRows).insert(a.address);
    }
    EXPECT_GT(readRows.size(), 4u);
    EXPECT_GT(writtenRows.size(), 4u);
}

TEST(AiCoreTiming, StridedGmMove_ReachesMemoryAsItsBursts) {
    Instruction read = gmToUb(0, 64, 0x1000);
    std::get<DataMove>(read.operands).burstCount = 4;
    std::get<DataMove>(read.operands).srcGapBytes = 960;
    Instruction packed = gmToUb(4096, 64, 0x8000);
    std::get<DataMove>(packed.operands).burstCount = 4;  // no gap: one contiguous range
    Instruction narrowing = ubToGm(8192, 128, 0x10000);  // fp32 bursts written as fp16
    DataMove& n = std::get<DataMove>(narrowing.operands);
    n.burstCount = 2;
    n.srcType = DataType::Fp32;
    n.dstType = DataType::Fp16;
    n.dstGapBytes = 192;
    DeviceRun run;
    run.runOne(vectorTask({read, packed, narrowing}));
    ASSERT_EQ(run.memory.accesses.size(), 3u);
    auto accessAt =
        [&run](std::uint64_t address) {  // MTE2 and MTE3 run in parallel: find by address
            for (const GmAccess& a : run.memory.accesses)
                if (a.address == address) return a;
            ADD_FAILURE() << "no access at " << address;
            return GmAccess{};
        };
    const GmAccess strided = accessAt(0x1000);
    EXPECT_EQ(strided.bytes, 256u);
    EXPECT_EQ(strided.burstCount, 4u);
    EXPECT_EQ(strided.burstStrideBytes, 1024u);
    EXPECT_EQ(accessAt(0x8000).bytes, 256u);
    EXPECT_TRUE(accessAt(0x8000).contiguous());
    const GmAccess written = accessAt(0x10000);
    EXPECT_TRUE(written.isWrite);
    EXPECT_EQ(written.bytes, 128u);
    EXPECT_EQ(written.burstBytes(), 64u);
    EXPECT_EQ(written.burstStrideBytes, 64u + 192u);
}

TEST(AiCoreTiming, ByteCounters_CountPathsInEventUnits) {
    DeviceRun run;
    const PmuCounters c = onlyBlock(run.runOne(vectorTask({gmToUb(0, 6400), ubToGm(0, 1000)})));
    EXPECT_EQ(c[PmuEvent::BytesGmToUb], 6400u);
    EXPECT_EQ(c[PmuEvent::BytesUbToGm], 1000u);
    EXPECT_EQ(c[PmuEvent::UbWriteMte], 6400u / 16);
    EXPECT_EQ(c[PmuEvent::UbReadMte], (1000u + 15) / 16);
    EXPECT_EQ(c[PmuEvent::UbWrite], 6400u / 128);
    EXPECT_EQ(c[PmuEvent::BytesMainMemRead], 6400u);
    EXPECT_EQ(c[PmuEvent::BytesMainMemWrite], 1000u);
}

TEST(AiCoreTiming, ICache_MissesOncePerFillUnitAndStallsIssue) {
    std::vector<Instruction> program(1000, Instruction::scalar(1));  // 8000 B of code = 4 fills
    ChipConfig chip = deviceTestChip();
    DeviceRun noPenalty(chip);
    const PmuCounters c = onlyBlock(noPenalty.runOne(vectorTask(program)));
    EXPECT_EQ(c[PmuEvent::IcacheReq], 1000u);
    EXPECT_EQ(c[PmuEvent::IcacheMiss], 4u);
    EXPECT_EQ(c.totalCycles, 1000u);

    chip.icache.missPenaltyCycles = 25;
    DeviceRun penalty(chip);
    EXPECT_EQ(onlyBlock(penalty.runOne(vectorTask(program))).totalCycles, 1000u + 4 * 25);
}

// A block's code image fills (kernelCodeBytes): a block fetching alone waits out each fill's
// latency; blocks fetching together queue for the port, a missPenaltyCycles turn each, and the
// latency is hidden once their turns add up to more (docs/fidelity.md §57).
TEST(AiCoreTiming, ICache_ALoneBlockWaitsTheFillLatencyBlocksTogetherQueueForThePort) {
    const std::vector<Instruction> program(100, Instruction::scalar(1));
    ChipConfig chip = deviceTestChip();
    chip.icache.kernelCodeBytes = 4 * chip.icache.fillBytes;
    chip.icache.missPenaltyCycles = 40;
    const std::uint32_t together = chip.vectorCoreCount;  // one block a core, all fetching at once
    ASSERT_GT(together * 40, 100u);
    DeviceRun portOnly(chip);
    const std::uint64_t alonePortOnly = onlyBlock(portOnly.runOne(vectorTask(program))).totalCycles;
    const TaskResult& allPortOnly = portOnly.runOne(vectorTask(program, together, 2));
    ASSERT_EQ(allPortOnly.blocks.size(), together);
    const std::uint64_t togetherPortOnly = allPortOnly.blocks[0].counters.totalCycles;
    EXPECT_EQ(togetherPortOnly, alonePortOnly + 4 * (together - 1) * 40);

    chip.icache.fillLatencyCycles = 100;
    DeviceRun withLatency(chip);
    const PmuCounters alone = onlyBlock(withLatency.runOne(vectorTask(program)));
    EXPECT_EQ(alone[PmuEvent::IcacheMiss], 4u);
    EXPECT_EQ(alone.totalCycles, alonePortOnly + 4 * (100 - 40));
    // Together, each fill's turns in the port's queue (together × 40) outlast the latency.
    const TaskResult& all = withLatency.runOne(vectorTask(program, together, 2));
    ASSERT_EQ(all.blocks.size(), together);
    EXPECT_EQ(all.blocks[0].counters.totalCycles, togetherPortOnly);
}

TEST(AiCoreTiming, Mmad_CountsFractalsFlopsAndCubeBusy) {
    DeviceRun run;
    Mmad mm;
    mm.m = 32;
    mm.k = 32;
    mm.n = 64;  // 2 × 2 × 4 = 16 fractals
    KernelTask t;
    t.type = TaskType::AiCore;
    t.program = sameProgram({Instruction::mmad(mm)});
    const PmuCounters c = onlyBlock(run.runOne(std::move(t)));
    EXPECT_EQ(c[PmuEvent::MacFp16], 16u);
    EXPECT_EQ(c[PmuEvent::MacBusy], 16u + run.chip.cube.mmadOverheadCycles);
    EXPECT_EQ(c[PmuEvent::MacFp], c[PmuEvent::MacBusy]);
    EXPECT_EQ(c[PmuEvent::CubeFlops], 2u * 32 * 32 * 64);
}

TEST(AiCoreTiming, VectorInstructionOnCubeCore_IsAnError) {
    DeviceRun run;
    KernelTask t;
    t.type = TaskType::AiCore;
    t.program = sameProgram({vadds(0, 0)});
    run.device->submit(std::move(t), 0);
    EXPECT_THROW(run.device->runUntilIdle(), std::runtime_error);
}

TEST(AiCoreTiming, WaitFlagNeverSet_ReportsDeadlock) {
    DeviceRun run;
    run.device->submit(vectorTask({Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, 0)}), 0);
    try {
        run.device->runUntilIdle();
        FAIL() << "expected a deadlock error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("PIPE_V waits for flag PIPE_MTE2->PIPE_V"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace ascendsim::test
