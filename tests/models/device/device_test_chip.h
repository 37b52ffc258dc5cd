#pragma once
// A small hand-built chip whose costs are easy to compute by hand, plus test doubles, so device
// tests can pin timing rules to the cycle. 1 GHz clocks: one cycle = 1000 ps = 1 ns.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/isa/instruction_stream.h"
#include "models/memory/memory_system.h"
#include "models/task/kernel_task.h"
#include "models/task/task_result.h"
#include "tests/support/split_core_buffers.h"

namespace ascendsim::test {

inline constexpr double kTestBytesPerCycle = 64.0;  // every path: bytes / 64 cycles

inline ChipConfig deviceTestChip() {
    ChipConfig chip;
    chip.name = "DeviceTestChip";
    chip.organisation = CoreOrganisation::Split;
    chip.aiCoreCount = 2;
    chip.vectorCoreCount = 4;
    chip.vectorCoresPerCube = 2;
    chip.aiCoreFreqMhz = 1000.0;
    chip.vectorCoreFreqMhz = 1000.0;
    setSplitCoreBuffers(chip);
    chip.ub = UbBanking{16, 3, 4096, 32};
    for (auto& c : chip.vector.byClass) c = VectorClassTiming{2, 3, 0};
    chip.vector.byClass[static_cast<std::size_t>(VectorClass::Unary)] = VectorClassTiming{1, 3, 0};
    chip.icache = ICacheConfig{32768, 2048, 0, 8};
    chip.aiCpu = AiCpuConfig{2, 1000.0, 0};
    const std::vector<std::pair<MemSpace, MemSpace>> paths = {
        {MemSpace::GM, MemSpace::L1},   {MemSpace::GM, MemSpace::UB},    {MemSpace::UB, MemSpace::GM},
        {MemSpace::L1, MemSpace::L0A},  {MemSpace::L1, MemSpace::L0B},   {MemSpace::L0C, MemSpace::GM},
        {MemSpace::GM, MemSpace::L0A},  {MemSpace::GM, MemSpace::L0B},   {MemSpace::L0C, MemSpace::L1},
        {MemSpace::UB, MemSpace::UB},   {MemSpace::L1, MemSpace::UB},    {MemSpace::UB, MemSpace::L1},
        {MemSpace::L0C, MemSpace::UB},  {MemSpace::L1, MemSpace::GM}};
    for (const auto& [src, dst] : paths) {
        PathTiming p;
        p.src = src;
        p.dst = dst;
        p.curve = TransferCurve{{1024}, {1024 / kTestBytesPerCycle}};
        p.peakBytesPerCycle = kTestBytesPerCycle;
        chip.paths.push_back(p);
    }
    chip.queueDepth.fill(8);
    chip.scalarIssueCycles = 1;
    chip.flagLatencyCycles = 3;
    chip.taskLaunchCycles = 0;
    chip.blockStartCycles = 0;
    return chip;
}

// GM without contention: every access is served `latencyPs` after it starts.
class FakeMemorySystem final : public MemorySystem {
public:
    std::uint64_t latencyPs = 0;
    std::vector<GmAccess> accesses;
    // How long after its start an access's requests have left (serve()); past latencyPs: when served.
    std::uint64_t requestPs = UINT64_MAX;
    std::uint64_t access(const GmAccess& a, PmuCounters&) override {
        accesses.push_back(a);
        return a.startPs + latencyPs;
    }
    GmServed serve(const GmAccess& a, PmuCounters& counters) override {
        const std::uint64_t done = access(a, counters);
        return {requestPs <= latencyPs ? a.startPs + requestPs : done, done};
    }
};

class RecordingObserver final : public TaskObserver {
public:
    std::vector<TaskResult> results;
    void onTaskFinished(const TaskResult& r) override { results.push_back(r); }
};

// Every block of the task runs `program` (per core kind: cube side / vector side).
inline ProgramFactory sameProgram(std::vector<Instruction> program) {
    return [program](const BlockProgramRequest&) { return std::make_unique<FixedInstructionStream>(program); };
}
inline ProgramFactory mixPrograms(std::vector<Instruction> cubeSide, std::vector<Instruction> vectorSide) {
    return [cubeSide, vectorSide](const BlockProgramRequest& r) {
        return std::make_unique<FixedInstructionStream>(r.coreKind == CoreKind::Vector ? vectorSide : cubeSide);
    };
}

inline KernelTask vectorTask(std::vector<Instruction> program, std::uint32_t blockDim = 1, std::uint64_t id = 1,
                             std::uint32_t stream = 0) {
    KernelTask t;
    t.taskId = id;
    t.streamId = stream;
    t.type = TaskType::AiVectorCore;
    t.blockDim = blockDim;
    t.program = sameProgram(std::move(program));
    return t;
}

inline Instruction gmToUb(std::uint64_t ubAddr, std::uint32_t bytes, std::uint64_t gmAddr = 0) {
    DataMove m;
    m.src = MemSpace::GM;
    m.dst = MemSpace::UB;
    m.srcAddr = gmAddr;
    m.dstAddr = ubAddr;
    m.burstBytes = bytes;
    return Instruction::move(m);
}

inline Instruction ubToGm(std::uint64_t ubAddr, std::uint32_t bytes, std::uint64_t gmAddr = 0) {
    DataMove m;
    m.src = MemSpace::UB;
    m.dst = MemSpace::GM;
    m.srcAddr = ubAddr;
    m.dstAddr = gmAddr;
    m.burstBytes = bytes;
    return Instruction::move(m);
}

inline Instruction vadd(std::uint64_t dst, std::uint64_t src0, std::uint64_t src1, std::uint16_t repeats = 1) {
    VectorInstr v;
    v.op = VectorOp::Add;
    v.dst = dst;
    v.src0 = src0;
    v.src1 = src1;
    v.repeats = repeats;
    return Instruction::vector(v);
}

inline Instruction vadds(std::uint64_t dst, std::uint64_t src, std::uint16_t repeats = 1) {
    VectorInstr v;
    v.op = VectorOp::Adds;
    v.dst = dst;
    v.src0 = src;
    v.repeats = repeats;
    return Instruction::vector(v);
}

}  // namespace ascendsim::test
