#include "sim/microbench/streaming_bench.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "sim/microbench/device_run.h"

namespace ascendsim {

namespace {

MemSpace destinationFor(CoreKind kind) { return kind == CoreKind::Vector ? MemSpace::UB : MemSpace::L1; }

std::vector<Instruction> streamProgram(MemSpace dst, std::uint64_t base, std::uint64_t transferBytes,
                                       std::uint64_t totalBytes) {
    std::vector<Instruction> program;
    for (std::uint64_t offset = 0; offset < totalBytes; offset += transferBytes) {
        DataMove move;
        move.src = MemSpace::GM;
        move.dst = dst;
        move.srcAddr = base + offset;
        move.dstAddr = 0;
        move.burstCount = 1;
        move.burstBytes = static_cast<std::uint32_t>(transferBytes);
        program.push_back(Instruction::move(move));
    }
    return program;
}

KernelTask streamingTask(const ChipConfig& chip, CoreKind kind, std::uint32_t cores,
                         std::uint64_t transferBytes, std::uint64_t bytesPerCore, std::uint64_t id) {
    const MemSpace dst = destinationFor(kind);
    KernelTask task;
    task.taskId = id;
    task.type = taskTypeFor(chip, kind);
    task.blockDim = cores;
    task.program = [=](const BlockProgramRequest& request) {
        return std::make_unique<FixedInstructionStream>(
            streamProgram(dst, request.blockIdx * bytesPerCore, transferBytes, bytesPerCore));
    };
    return task;
}

double passGBps(const TaskResult& result, std::uint64_t bytes) {
    const std::uint64_t ns = result.endNs - result.startNs;
    return ns == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(ns);
}

}  // namespace

StreamingPasses runStreamingPasses(const ChipConfig& chip, CoreKind kind,
                                   std::uint64_t transferBytes, std::uint64_t bytesPerCore,
                                   std::uint32_t requestedCores) {
    if (transferBytes == 0 || bytesPerCore % transferBytes != 0) {
        throw std::invalid_argument("bytesPerCore must be a positive multiple of transferBytes");
    }
    const bool vectorOnSplit =
        kind == CoreKind::Vector && chip.organisation == CoreOrganisation::Split;
    const std::uint32_t available = vectorOnSplit ? chip.vectorCoreCount : chip.aiCoreCount;
    const std::uint32_t cores = requestedCores == 0 ? available : std::min(requestedCores, available);
    std::vector<TimedTask> tasks;
    tasks.push_back({streamingTask(chip, kind, cores, transferBytes, bytesPerCore, 1), 0});
    tasks.push_back({streamingTask(chip, kind, cores, transferBytes, bytesPerCore, 2), 0});
    const std::vector<TaskResult> results = runOnDevice(chip, std::move(tasks));
    if (results.size() != 2) throw std::logic_error("streaming run did not finish both passes");
    const std::uint64_t passBytes = bytesPerCore * cores;
    StreamingPasses passes;
    passes.cores = cores;
    for (const TaskResult& r : results) {
        (r.taskId == 1 ? passes.firstPassGBps : passes.secondPassGBps) = passGBps(r, passBytes);
    }
    return passes;
}

double singleCoreStreamingGBps(const ChipConfig& chip, CoreKind kind, std::uint64_t transferBytes) {
    const std::vector<Instruction> body =
        streamProgram(destinationFor(kind), 0, transferBytes, transferBytes);
    const double cycles = marginalCyclesPerRepetition(chip, kind, body, 64);
    const double freqMhz = kind == CoreKind::Vector && chip.organisation == CoreOrganisation::Split
                               ? chip.vectorCoreFreqMhz
                               : chip.aiCoreFreqMhz;
    return static_cast<double>(transferBytes) / cycles * freqMhz * 1e6 / 1e9;
}

}  // namespace ascendsim
