#include "sim/replay/run/kernel_replay.h"

#include "models/kernels/kernel_registry.h"
#include "models/memory/shared_memory_system.h"
#include "profiler/metrics/task_metrics.h"
#include "sim/microbench/device_run.h"
#include "sim/replay/input/real_tensors.h"
#include "sim/workload/workload_limits.h"

namespace ascendsim {

namespace {

constexpr double kNsPerUs = 1000.0;
// Above 0 like the workload planner's, 2 MiB apart so no two tensors share an L2 page.
constexpr std::uint64_t kBaseAddress = 0x100000000ULL;
constexpr std::uint64_t kTensorAlignment = 2ULL << 20;

std::uint64_t alignUp(std::uint64_t value) { return (value + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment; }

// Distinct addresses for every tensor, except an in-place kernel's outputs: each, in order, takes
// the address of the first input of its size no earlier output took (none: it keeps its own).
// One output for an aclnnInplace* kernel; ApplyAdamW's var, m and v (inplace_kernels.h).
std::uint64_t placeTensors(OpInstance& op, bool inPlace, std::uint64_t base = kBaseAddress) {
    std::uint64_t next = base;
    for (auto* tensors : {&op.inputs, &op.outputs}) {
        for (auto& t : *tensors) {
            t.deviceAddr = next;
            next = alignUp(next + std::max<std::uint64_t>(t.bytes(), 1));
        }
    }
    std::vector<bool> taken(op.inputs.size(), false);
    for (std::size_t j = 0; inPlace && j < op.outputs.size(); ++j) {
        TensorInfo& out = op.outputs[j];
        for (std::size_t i = 0; i < op.inputs.size(); ++i) {
            if (taken[i] || op.inputs[i].bytes() != out.bytes() || op.inputs[i].bytes() == 0) continue;
            out.deviceAddr = op.inputs[i].deviceAddr;
            taken[i] = true;
            break;
        }
    }
    return next;
}

// The kernels that report the op's own type; helper kernels of other types (a weight TransData
// CANN would launch separately) are not part of the real row.
std::vector<LoweredKernel> ownKernels(std::vector<LoweredKernel> lowered, const std::string& opType) {
    std::vector<LoweredKernel> own;
    for (auto& kernel : lowered)
        if (reportedOpTypeOf(kernel, opType) == opType) own.push_back(std::move(kernel));
    return own;
}

// `op`: the op the kernels were lowered from, whose binary they run; null for the replay's own
// producer writes (their code is not the measured kernel's).
std::vector<TimedTask> tasksOf(const OpInstance* op, const std::vector<LoweredKernel>& kernels,
                               std::uint64_t workspaceAddr, std::uint64_t firstId) {
    std::vector<TimedTask> tasks;
    for (const auto& kernel : kernels) {
        KernelTask task = kernelTaskOf(kernel);
        task.taskId = firstId++;
        task.codeImage = op != nullptr ? codeImageOf(*op, kernel) : 0;
        task.workspaceAddr = kernel.workspaceBytes > 0 ? workspaceAddr : 0;
        tasks.push_back(TimedTask{std::move(task), 0});
    }
    return tasks;
}

// The measured launch's tasks as one: first start to last end, counters summed per side.
TaskResult merged(const std::vector<TaskResult>& results, std::size_t first) {
    TaskResult all = results.at(first);
    for (std::size_t i = first + 1; i < results.size(); ++i) {
        const TaskResult& r = results[i];
        all.startNs = std::min(all.startNs, r.startNs);
        all.endNs = std::max(all.endNs, r.endNs);
        all.cubeSum += r.cubeSum;
        all.vectorSum += r.vectorSum;
        all.blocks.insert(all.blocks.end(), r.blocks.begin(), r.blocks.end());
    }
    return all;
}

// Lowering messages start "op 'NAME' (TYPE): " or "op 'NAME': "; without it the summary can
// group one reason across kernels.
std::string withoutOpName(const std::string& message) {
    if (!message.starts_with("op '")) return message;
    const std::size_t quote = message.find('\'', 4);
    if (quote == std::string::npos) return message;
    const std::size_t colon = message.find(": ", quote);
    return colon == std::string::npos ? message : message.substr(colon + 2);
}

std::map<std::string, double> pipeRatiosOf(const TaskResult& task, const ChipConfig& chip) {
    std::map<std::string, double> ratios;
    for (CoreSide side : chipCoreSides(chip)) {
        const SideCounters counters = sideCounters(task, chip, side);
        if (counters.counters.totalCycles == 0) continue;
        for (const MetricColumn& column : metricColumns(AicMetrics::PipeUtilization, side)) {
            if (column.formula != MetricFormula::Ratio && column.formula != MetricFormula::MissRate) continue;
            ratios[metricHeaderName(column, side)] = evaluateMetric(column, counters, chip);
        }
    }
    return ratios;
}

// A write-only MemSet of `tensor`'s bytes at its address: on the device it leaves the lines in L2
// as a producer kernel's stores would. 16-bit elements, since MemSet has no 64-bit form.
std::vector<LoweredKernel> producerWrite(const TensorInfo& tensor, const ChipConfig& chip) {
    OpInstance write;
    write.name = "replay.producer." + tensor.name;
    write.type = "MemSet";
    write.outputs.push_back(TensorInfo{tensor.name, {static_cast<std::int64_t>((tensor.bytes() + 1) / 2)}, DataType::Fp16,
                                       TensorFormat::ND, tensor.deviceAddr});
    std::vector<LoweredKernel> kernels = KernelRegistry::instance().lower(write, chip);
    // It stands for a producer's stores, not for CANN's MemSet binary: its code is the chip's
    // image, so the larger MemSet binary (fill.cpp, §116) does not evict the measured kernel's.
    for (LoweredKernel& kernel : kernels) kernel.codeBytes = 0;
    return kernels;
}

// The workspace the kernels of one launch share: the largest any of them asks for.
std::uint64_t largestWorkspaceBytes(const std::vector<LoweredKernel>& kernels) {
    std::uint64_t bytes = 0;
    for (const auto& kernel : kernels) bytes = std::max(bytes, kernel.workspaceBytes);
    return bytes;
}

// The tasks of a held input's writer run before the launch: its output of `target`'s size on
// `target`'s address (in place, its input too, which it read first), its other tensors and its
// workspace from `base` on, which moves past them. Empty when the writer has no output of that
// size or cannot be lowered (the caller preloads by MemSet instead).
std::vector<TimedTask> writerTasks(ResidentWriterOp writer, const TensorInfo& target, const ChipConfig& chip,
                                   std::uint64_t& base, std::uint64_t firstId) {
    OpInstance& op = writer.op;
    const std::uint64_t workspace = placeTensors(op, writer.inPlace, base);
    bool placed = false;
    for (TensorInfo& out : op.outputs) {
        if (out.bytes() != target.bytes()) continue;
        for (TensorInfo& in : op.inputs)
            if (writer.inPlace && in.deviceAddr == out.deviceAddr) in.deviceAddr = target.deviceAddr;
        out.deviceAddr = target.deviceAddr;
        placed = true;
        break;
    }
    if (!placed) return {};
    std::vector<LoweredKernel> kernels;
    try {
        kernels = ownKernels(KernelRegistry::instance().lower(op, chip), op.type);
    } catch (const LoweringError&) {
        return {};
    }
    base = alignUp(workspace + largestWorkspaceBytes(kernels));
    return tasksOf(nullptr, kernels, workspace, firstId);
}

// Preloads, for each size in `residentBytes`, the first not yet chosen tensor of `tensors` of
// that size, in order: by its writer's tasks when `writers` has one for it, else by a MemSet.
void producerWrites(const std::vector<TensorInfo>& tensors, const ChipConfig& chip,
                    const std::vector<std::uint64_t>& residentBytes,
                    const std::vector<std::optional<ResidentWriterOp>>& writers, std::uint64_t workspace,
                    std::uint64_t& writerBase, std::vector<TimedTask>& tasks) {
    std::vector<bool> chosen(tensors.size(), false);
    for (std::size_t r = 0; r < residentBytes.size(); ++r) {
        const std::uint64_t bytes = residentBytes[r];
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            if (chosen[i] || tensors[i].bytes() != bytes || bytes == 0) continue;
            chosen[i] = true;
            std::vector<TimedTask> written;
            if (r < writers.size() && writers[r])
                written = writerTasks(*writers[r], tensors[i], chip, writerBase, tasks.size() + 1);
            if (written.empty()) written = tasksOf(nullptr, producerWrite(tensors[i], chip), workspace, tasks.size() + 1);
            for (auto& task : written) tasks.push_back(std::move(task));
            break;
        }
    }
}

// The resident copy targets first, then the produced inputs (most recently used last); writers
// place their own tensors from `writerBase` on.
std::vector<TimedTask> producerWrites(const OpInstance& op, const ChipConfig& chip, const ReplayPlacement& placement,
                                      std::uint64_t workspace, std::uint64_t writerBase) {
    std::vector<TimedTask> tasks;
    producerWrites(op.outputs, chip, placement.residentOutputBytes, {}, workspace, writerBase, tasks);
    producerWrites(op.inputs, chip, placement.residentBytes, placement.residentWriters, workspace, writerBase, tasks);
    return tasks;
}

// A row whose tensors could not be on the chip at once is a corrupt or foreign profile: refused
// with its size, before lowering plans (and the device simulates) work no chip could hold.
void requireFitsDevice(const OpInstance& op, const ChipConfig& chip) {
    std::uint64_t total = 0;
    for (const auto* tensors : {&op.inputs, &op.outputs})
        for (const TensorInfo& t : *tensors) {
            const auto bytes = checkedByteSize(t.shape, t.dtype);
            if (!bytes || __builtin_add_overflow(total, *bytes, &total))
                throw UnreplayableKernel("tensor " + t.name + " has more than 2^63 bytes");
        }
    if (total > chip.hbm.sizeBytes)
        throw UnreplayableKernel("its tensors need " + byteText(total) + ", more than the chip's " +
                                 byteText(chip.hbm.sizeBytes) + " of device memory");
}

}  // namespace

bool parseL2State(std::string_view text, L2State& out) {
    if (text == "cold") return out = L2State::Cold, true;
    if (text == "warm") return out = L2State::Warm, true;
    if (text == "producer") return out = L2State::Producer, true;
    if (text == "timeline") return out = L2State::Timeline, true;
    return false;
}

bool preloadsResidents(L2State state) { return state == L2State::Producer || state == L2State::Timeline; }

std::string_view l2StateName(L2State state) {
    switch (state) {
        case L2State::Cold: return "cold";
        case L2State::Warm: return "warm";
        case L2State::Producer: return "producer";
        case L2State::Timeline: return "timeline";
    }
    return "cold";
}

SimulatedKernel simulateReplayOp(OpInstance op, const ChipConfig& chip, L2State l2,
                                 const ReplayPlacement& placement) {
    requireFitsDevice(op, chip);
    const std::uint64_t workspace = placeTensors(op, placement.inPlace);
    std::vector<LoweredKernel> kernels;
    try {
        kernels = ownKernels(KernelRegistry::instance().lower(op, chip), op.type);
    } catch (const LoweringError& e) {
        throw UnreplayableKernel("lowering refused: " + withoutOpName(e.what()));
    }
    if (kernels.empty()) throw UnreplayableKernel("lowering gave no " + op.type + " kernel");
    // Tasks before the measured launch: the launch itself (warm) or its inputs' producers, whose
    // own tensors (a writer's) lie past the launch's workspace.
    std::vector<TimedTask> tasks = l2 == L2State::Warm        ? tasksOf(&op, kernels, workspace, 1)
                                   : preloadsResidents(l2) ? producerWrites(op, chip, placement, workspace, alignUp(workspace + largestWorkspaceBytes(kernels)))
                                                           : std::vector<TimedTask>{};
    const std::size_t before = tasks.size();
    DeviceOptions device;
    for (auto& t : tasksOf(&op, kernels, workspace, tasks.size() + 1)) {
        if (placement.codeResident) device.residentCodeImages.push_back({t.task.codeImage, t.task.codeBytes});
        t.task.codeHeldInL2 = placement.codeHeldInL2;
        tasks.push_back(std::move(t));
    }
    // Runs the tasks on a fresh device; with `concurrent`, HBM serves it beside the launch.
    const auto run = [&](std::vector<TimedTask> runTasks, DeviceOptions options, const ConcurrentHbmTraffic* concurrent) {
        std::optional<SharedMemorySystem> memory;
        if (placement.victimDirtyShare || placement.dirtyVictimBound || concurrent) memory.emplace(chip);
        if (placement.victimDirtyShare) memory->setBackgroundVictims(*placement.victimDirtyShare);
        if (placement.dirtyVictimBound) memory->setFreeWayWriteBackShare(*placement.dirtyVictimBound);
        if (concurrent) memory->setConcurrentTraffic(*concurrent);
        const std::vector<TaskResult> results =
            runOnDevice(chip, std::move(runTasks), std::move(options), memory ? &*memory : nullptr);
        if (results.size() != before + kernels.size())
            throw std::logic_error("replay: the device did not finish every task of " + op.name);
        return merged(results, before);
    };
    TaskResult measured = placement.concurrentHbm.empty() ? run(std::move(tasks), std::move(device), nullptr)
                                                          : run(tasks, device, nullptr);
    if (!placement.concurrentHbm.empty()) {
        // The preload runs the same either way: the windows move to where the launch started.
        std::vector<ConcurrentHbmWindow> windows = placement.concurrentHbm;
        const double launchPs = static_cast<double>(measured.startNs) * 1000.0;
        for (ConcurrentHbmWindow& window : windows) {
            window.startPs += launchPs;
            window.endPs += launchPs;
        }
        const ConcurrentHbmTraffic concurrent(std::move(windows));
        measured = run(std::move(tasks), std::move(device), &concurrent);
    }
    SimulatedKernel simulated;
    simulated.durationUs = static_cast<double>(measured.endNs - measured.startNs) / kNsPerUs;
    simulated.pipeRatios = pipeRatiosOf(measured, chip);
    return simulated;
}

}  // namespace ascendsim
