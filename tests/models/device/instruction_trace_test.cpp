// The instruction timeline a traced kernel records (models/core/instruction_trace.h): spans sit
// on the right pipes at the right cycles, add up to the PMU's busy/wait/queue-full counters, and
// tracing changes no result.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/device/device_run.h"
#include "models/core/instruction_trace.h"

namespace ascendsim::test {
namespace {

// MTE2 loads 6400 B (100 cycles on the test chip), sets MTE2→V; the vector pipe waits, then
// runs one vadds; the scalar unit does 50 cycles of its own work at the end.
std::vector<Instruction> loadComputeStore() {
    return {gmToUb(0, 6400),
            Instruction::setFlag(Pipe::Mte2, Pipe::Vector, 0),
            Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, 0),
            vadds(8192, 0),
            Instruction::setFlag(Pipe::Vector, Pipe::Mte3, 0),
            Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, 0),
            ubToGm(8192, 6400),
            Instruction::scalar(50)};
}

// Ten vector instructions behind a depth-2 queue: the issue unit stalls on it.
std::vector<Instruction> tenVadds() {
    std::vector<Instruction> p;
    for (int i = 0; i < 10; ++i) p.push_back(vadds(8192, 0, 8));
    return p;
}

std::uint64_t sumCycles(const std::vector<TraceSpan>& spans, Pipe pipe, TraceSpanKind kind) {
    std::uint64_t sum = 0;
    for (const TraceSpan& s : spans)
        if (s.pipe == pipe && s.kind == kind) sum += s.cycles;
    return sum;
}

const TraceSpan& onlySpan(const std::vector<TraceSpan>& spans, Pipe pipe, Opcode opcode, TraceSpanKind kind) {
    const auto count = std::count_if(spans.begin(), spans.end(), [&](const TraceSpan& s) {
        return s.pipe == pipe && s.instruction.opcode == opcode && s.kind == kind;
    });
    EXPECT_EQ(count, 1) << pipeName(pipe);
    return *std::find_if(spans.begin(), spans.end(), [&](const TraceSpan& s) {
        return s.pipe == pipe && s.instruction.opcode == opcode && s.kind == kind;
    });
}

TEST(InstructionTrace, SpansSitOnTheirPipesAtTheModelsCycles) {
    DeviceRun run;
    InstructionTraceRecorder recorder;
    KernelTask task = vectorTask(loadComputeStore());
    task.instructionTrace = &recorder;
    const TaskResult& result = run.runOne(std::move(task));
    const std::vector<TraceSpan>& spans = recorder.spans();

    const TraceSpan& load = onlySpan(spans, Pipe::Mte2, Opcode::DataMove, TraceSpanKind::Execute);
    EXPECT_EQ(load.cycles, 100u);  // 6400 B at 64 B per cycle
    EXPECT_EQ(load.programIndex, 0u);
    const TraceSpan& wait = onlySpan(spans, Pipe::Vector, Opcode::WaitFlag, TraceSpanKind::WaitFlag);
    EXPECT_EQ(wait.endPs, load.endPs + run.chip.flagLatencyCycles * (load.endPs - load.startPs) / 100)
        << "the wait ends flagLatencyCycles after the set at the end of the load";
    const TraceSpan& compute = onlySpan(spans, Pipe::Vector, Opcode::Vector, TraceSpanKind::Execute);
    EXPECT_EQ(compute.startPs, wait.endPs);
    const TraceSpan& store = onlySpan(spans, Pipe::Mte3, Opcode::DataMove, TraceSpanKind::Execute);
    EXPECT_GT(store.startPs, compute.endPs);
    EXPECT_EQ(onlySpan(spans, Pipe::Scalar, Opcode::Scalar, TraceSpanKind::Execute).cycles, 50u);
    for (const TraceSpan& s : spans) {
        EXPECT_EQ(s.taskId, 1u);
        EXPECT_EQ(s.coreKind, CoreKind::Vector);
        EXPECT_LE(s.startPs, s.endPs);
        EXPECT_GE(s.startPs, result.startNs * 1000);
        EXPECT_LE(s.endPs, result.endNs * 1000);
    }
}

TEST(InstructionTrace, SpansAddUpToThePmuCounters) {
    ChipConfig shallow = deviceTestChip();
    shallow.queueDepth.fill(2);
    for (const auto& program : {loadComputeStore(), tenVadds()}) {
        DeviceRun run(shallow);
        InstructionTraceRecorder recorder;
        KernelTask task = vectorTask(program);
        task.instructionTrace = &recorder;
        const PmuCounters c = run.runOne(std::move(task)).blocks.at(0).counters;
        const auto& spans = recorder.spans();
        EXPECT_EQ(sumCycles(spans, Pipe::Mte2, TraceSpanKind::Execute), c[PmuEvent::Mte2Busy]);
        EXPECT_EQ(sumCycles(spans, Pipe::Mte3, TraceSpanKind::Execute), c[PmuEvent::Mte3Busy]);
        EXPECT_EQ(sumCycles(spans, Pipe::Vector, TraceSpanKind::Execute), c[PmuEvent::VecBusy]);
        EXPECT_EQ(sumCycles(spans, Pipe::Scalar, TraceSpanKind::Execute), c[PmuEvent::ScalarBusy]);
        EXPECT_EQ(sumCycles(spans, Pipe::Vector, TraceSpanKind::WaitFlag), c[PmuEvent::WaitFlagVector]);
        EXPECT_EQ(sumCycles(spans, Pipe::Mte3, TraceSpanKind::WaitFlag), c[PmuEvent::WaitFlagMte3]);
        EXPECT_EQ(sumCycles(spans, Pipe::Scalar, TraceSpanKind::IssueStall), c[PmuEvent::VecQueueFull]);
    }
    // The second program does stall: the comparison above is not 0 == 0.
    DeviceRun run(shallow);
    InstructionTraceRecorder recorder;
    KernelTask task = vectorTask(tenVadds());
    task.instructionTrace = &recorder;
    EXPECT_GT(run.runOne(std::move(task)).blocks.at(0).counters[PmuEvent::VecQueueFull], 0u);
}

// A PipeBarrier<PIPE_V> waits out the vector result latency as no pipe's busy (docs/fidelity.md §81):
// its span is a wait, so the vector pipe's Execute spans still add up to its busy counter.
TEST(InstructionTrace, AVectorBarriersWaitIsAWaitSpanNotVectorBusy) {
    ChipConfig chip = deviceTestChip();
    chip.vector.resultLatencyCycles = 20;
    DeviceRun run(chip);
    InstructionTraceRecorder recorder;
    KernelTask task = vectorTask({vadds(8192, 0), Instruction::barrier(Pipe::Vector), vadds(8192, 0)});
    task.instructionTrace = &recorder;
    const PmuCounters c = run.runOne(std::move(task)).blocks.at(0).counters;
    const auto& spans = recorder.spans();
    const TraceSpan& barrier = onlySpan(spans, Pipe::Vector, Opcode::Barrier, TraceSpanKind::WaitFlag);
    EXPECT_EQ(barrier.cycles, 20u);  // the first vadds's results land 20 cycles after it leaves the pipe
    EXPECT_EQ(sumCycles(spans, Pipe::Vector, TraceSpanKind::Execute), c[PmuEvent::VecBusy]);
    DeviceRun unbarriered(chip);  // the same two instructions without the barrier: the same busy
    EXPECT_EQ(onlyBlock(unbarriered.runOne(vectorTask({vadds(8192, 0), vadds(8192, 0)})))[PmuEvent::VecBusy],
              c[PmuEvent::VecBusy]);
}

TEST(InstructionTrace, TracingChangesNoResultAndRecordsOnlyTheTracedTask) {
    DeviceRun plain;
    plain.device->submit(vectorTask(loadComputeStore(), 2, 1), 0);
    plain.device->submit(vectorTask(tenVadds(), 2, 2), 0);
    plain.device->runUntilIdle();

    DeviceRun traced;
    InstructionTraceRecorder recorder;
    KernelTask second = vectorTask(tenVadds(), 2, 2);
    second.instructionTrace = &recorder;
    traced.device->submit(vectorTask(loadComputeStore(), 2, 1), 0);
    traced.device->submit(std::move(second), 0);
    traced.device->runUntilIdle();

    ASSERT_EQ(plain.observer.results.size(), traced.observer.results.size());
    for (std::size_t i = 0; i < plain.observer.results.size(); ++i) {
        const TaskResult& a = plain.observer.results[i];
        const TaskResult& b = traced.observer.results[i];
        EXPECT_EQ(a.startNs, b.startNs);
        EXPECT_EQ(a.endNs, b.endNs);
        EXPECT_EQ(a.vectorSum.totalCycles, b.vectorSum.totalCycles);
        EXPECT_EQ(a.vectorSum.counts, b.vectorSum.counts);
    }
    ASSERT_FALSE(recorder.spans().empty());
    std::vector<std::uint32_t> blocks;
    for (const TraceSpan& s : recorder.spans()) {
        EXPECT_EQ(s.taskId, 2u);
        blocks.push_back(s.blockIdx);
    }
    EXPECT_EQ(std::count(blocks.begin(), blocks.end(), 0u) + std::count(blocks.begin(), blocks.end(), 1u),
              static_cast<std::ptrdiff_t>(blocks.size()));
    EXPECT_GT(std::count(blocks.begin(), blocks.end(), 1u), 0);
}

}  // namespace
}  // namespace ascendsim::test
