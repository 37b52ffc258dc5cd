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

// The streaming kernels' binary. A microbenchmark times runs after warm-up ones, so its code is
// resident in every core's ICache: the passes measure streaming, not a cold code fetch.
constexpr std::uint64_t kStreamingBinary = 0x5354524541ULL;

std::vector<TaskResult> runWarmCode(const ChipConfig& chip, std::vector<TimedTask> tasks) {
    DeviceOptions options;
    options.residentCodeImages = {{kStreamingBinary, 0}};
    for (TimedTask& timed : tasks) timed.task.codeImage = kStreamingBinary;
    return runOnDevice(chip, std::move(tasks), std::move(options));
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

// Reads land in two UB slots, writes leave from two others, so a copy's MTE2 and MTE3 overlap as
// in a double-buffered kernel. Written data goes to a region after every core's read region.
std::vector<Instruction> directionalProgram(StreamDirection direction, std::uint64_t readBase,
                                            std::uint64_t writeBase, std::uint64_t transferBytes,
                                            std::uint64_t totalBytes) {
    std::vector<Instruction> program;
    std::uint64_t slot = 0;
    for (std::uint64_t offset = 0; offset < totalBytes; offset += transferBytes, slot ^= 1) {
        DataMove move;
        move.burstCount = 1;
        move.burstBytes = static_cast<std::uint32_t>(transferBytes);
        if (direction != StreamDirection::Write) {
            move.src = MemSpace::GM;
            move.dst = MemSpace::UB;
            move.srcAddr = readBase + offset;
            move.dstAddr = slot * transferBytes;
            program.push_back(Instruction::move(move));
        }
        if (direction != StreamDirection::Read) {
            move.src = MemSpace::UB;
            move.dst = MemSpace::GM;
            move.srcAddr = (2 + slot) * transferBytes;
            move.dstAddr = writeBase + offset;
            program.push_back(Instruction::move(move));
        }
    }
    return program;
}

}  // namespace

double runDirectionalStream(const ChipConfig& chip, StreamDirection direction,
                            std::uint64_t transferBytes, std::uint64_t bytesPerCore,
                            std::uint32_t cores) {
    if (transferBytes == 0 || bytesPerCore % transferBytes != 0 || cores == 0) {
        throw std::invalid_argument("bytesPerCore must be a positive multiple of transferBytes");
    }
    if (4 * transferBytes > chip.bufferCapacity(MemSpace::UB)) {
        throw std::invalid_argument("four transfers must fit the UB");
    }
    KernelTask task;
    task.taskId = 1;
    task.type = taskTypeFor(chip, CoreKind::Vector);
    task.blockDim = cores;
    const std::uint64_t writeRegion = bytesPerCore * cores;
    task.program = [=](const BlockProgramRequest& request) {
        const std::uint64_t base = request.blockIdx * bytesPerCore;
        return std::make_unique<FixedInstructionStream>(
            directionalProgram(direction, base, writeRegion + base, transferBytes, bytesPerCore));
    };
    std::vector<TimedTask> tasks;
    tasks.push_back({std::move(task), 0});
    const std::vector<TaskResult> results = runWarmCode(chip, std::move(tasks));
    if (results.size() != 1) throw std::logic_error("streaming run did not finish");
    const std::uint64_t moved = bytesPerCore * cores * (direction == StreamDirection::Copy ? 2 : 1);
    return passGBps(results.front(), moved);
}

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
    const std::vector<TaskResult> results = runWarmCode(chip, std::move(tasks));
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
