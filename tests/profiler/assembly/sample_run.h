#pragma once
// A small hand-built run for the timeline/assembly tests: four ProfilerStep#N steps, each with a
// nested forward op tree (conv2d → convolution, relu) on the main thread, a backward op on the
// autograd thread, two kernels launched through the task queue and Node@launch, caching-allocator
// events, GE/APP/module memory samples and Python calls.
#include <cstdint>
#include <string>

#include "models/chip/chip_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim::testing_support {

inline constexpr std::uint32_t kSamplePid = 3096504;
inline constexpr std::uint32_t kMainTid = 3096504;
inline constexpr std::uint32_t kBackwardTid = 3105075;
inline constexpr std::uint32_t kDequeueTid = 3099702;
inline constexpr std::uint64_t kStepNs = 1'000'000;

inline const ChipConfig& sampleChip() {
    static const ChipConfig chip = [] {
        ChipConfig c;
        c.name = "Ascend910B4";
        c.aiCoreFreqMhz = 1800.0;
        c.vectorCoreFreqMhz = 1800.0;
        return c;
    }();
    return chip;
}

inline std::int64_t addOp(RunRecord& run, const std::string& name, std::uint64_t start, std::uint64_t end,
                          std::int64_t parent, std::uint32_t tid = kMainTid) {
    HostOpRecord op;
    op.name = name;
    op.startNs = start;
    op.endNs = end;
    op.threadId = tid;
    op.parent = parent;
    run.hostOps.push_back(op);
    return static_cast<std::int64_t>(run.hostOps.size() - 1);
}

// Kernel `name` launched by op `opIndex` at `launchNs`, running on the device [start, start+dur).
inline void addLaunchedKernel(RunRecord& run, std::int64_t opIndex, const std::string& name, TaskType type,
                              std::uint64_t launchNs, std::uint64_t startNs, std::uint64_t durNs) {
    const std::uint64_t corr = 1000 + run.kernels.size();
    KernelRecord k;
    k.name = name;
    k.opType = name;
    k.taskId = static_cast<std::uint32_t>(100 + run.kernels.size());
    k.correlationId = corr;
    k.hostOpIndex = opIndex;
    k.device.streamId = 2;
    k.device.type = type;
    k.device.blockDim = 8;
    k.device.startNs = startNs;
    k.device.endNs = startNs + durNs;
    run.kernels.push_back(k);

    TaskQueueRecord q;
    q.opName = run.hostOps[static_cast<std::size_t>(opIndex)].name;
    q.correlationId = corr;
    q.enqueueStartNs = launchNs;
    q.enqueueEndNs = launchNs + 3'000;
    q.dequeueStartNs = launchNs + 5'000;
    q.dequeueEndNs = launchNs + 40'000;
    q.enqueueThreadId = kMainTid;
    q.dequeueThreadId = kDequeueTid;
    run.taskQueue.push_back(q);

    ApiRecord acl{ApiLevel::Acl, "aclnn" + name, launchNs + 6'000, launchNs + 38'000, kDequeueTid, corr + 500};
    ApiRecord node{ApiLevel::Node, "launch", launchNs + 10'000, launchNs + 30'000, kDequeueTid, corr};
    ApiRecord rt{ApiLevel::Runtime, "KernelLaunch", launchNs + 12'000, launchNs + 28'000, kDequeueTid, corr + 700};
    run.apis.push_back(acl);
    run.apis.push_back(node);
    run.apis.push_back(rt);
}

inline RunRecord sampleRun(std::uint32_t stepCount = 4) {
    RunRecord run;
    run.chip = &sampleChip();
    run.workloadName = "unit";
    run.deviceId = 0;
    run.epochNs = 1'736'408'883'000'000'000ULL;
    run.utcOffsetSeconds = 8 * 3600;
    run.processId = kSamplePid;
    run.mainThreadId = kMainTid;
    run.hostName = "simhost";
    for (std::uint32_t s = 0; s < stepCount; ++s) {
        const std::uint64_t base = s * kStepNs + 10'000;
        const std::uint64_t end = (s + 1) * kStepNs;
        run.steps.push_back({s, base, end});
        const auto step = addOp(run, "ProfilerStep#" + std::to_string(s), base, end, -1);
        const auto conv2d = addOp(run, "aten::conv2d", base + 10'000, base + 200'000, step);
        run.hostOps[static_cast<std::size_t>(conv2d)].sequenceNumber = 40 + s;
        run.hostOps[static_cast<std::size_t>(conv2d)].inputDims = "[32, 3, 224, 224];[64, 3, 7, 7]";
        run.hostOps[static_cast<std::size_t>(conv2d)].inputTypes = "float;float";
        run.hostOps[static_cast<std::size_t>(conv2d)].callStack = "train.py(10): step;train.py(3): <module>";
        const auto conv = addOp(run, "aten::convolution", base + 20'000, base + 150'000, conv2d);
        const auto relu = addOp(run, "aten::relu", base + 210'000, base + 300'000, step);
        const auto bwd = addOp(run, "ConvolutionBackward0", base + 400'000, base + 500'000, -1, kBackwardTid);
        run.hostOps[static_cast<std::size_t>(bwd)].sequenceNumber = 40 + s;
        run.hostOps[static_cast<std::size_t>(bwd)].forwardThreadId = 1;  // RecordFunction thread number
        addLaunchedKernel(run, conv, "Conv2D", TaskType::AiCore, base + 30'000, base + 90'000, 250'125);
        addLaunchedKernel(run, relu, "Relu", TaskType::AiVectorCore, base + 220'000, base + 340'000, 13'020);

        MemoryEventRecord m;
        m.ptr = 0x1000 + s;
        m.timeNs = base + 25'000;
        m.allocSize = 25'609'728;
        m.totalAllocated = 1'026'363'392 + s * 1024;
        m.totalReserved = 1'522'532'352;
        m.totalActive = m.totalAllocated;
        m.streamPtr = 897357296;
        m.threadId = kMainTid;
        m.hostOpIndex = conv;
        run.memoryEvents.push_back(m);
        MemoryEventRecord blockFree = m;
        blockFree.kind = MemoryEventKind::BlockFree;
        blockFree.timeNs = base + 600'000;
        blockFree.allocSize = -m.allocSize;
        run.memoryEvents.push_back(blockFree);
        MemoryEventRecord free = blockFree;
        free.kind = MemoryEventKind::Free;
        free.timeNs = base + 600'510;
        free.totalAllocated = m.totalAllocated - m.allocSize;
        free.totalActive = free.totalAllocated;
        run.memoryEvents.push_back(free);
        MemoryEventRecord workspace = m;
        workspace.component = MemoryComponent::Workspace;
        workspace.ptr = 0x9000 + s;
        workspace.timeNs = base + 700'000;
        run.memoryEvents.push_back(workspace);

        run.geMemory.push_back({base + 26'000, 51'511'296, 78'381'056});
        run.geOpMemory.push_back({"trans_TransData_" + std::to_string(s), 51'445'760, base + 26'000, 106'430,
                                  51'511'296, 78'381'056, 76'611'584, 78'381'056});
        run.appMemory.push_back({base + 1'000, 2'212'077'568});
        run.moduleMemory.push_back({"SLOG", base + 2'000, 166'359'040});
        run.moduleMemory.push_back({"APP", base + 2'000, 1'048'576});

        PythonCallRecord call;
        call.name = "train.py(10): step";
        call.startNs = base + 5'000;
        call.endNs = base + 350'000;
        call.threadId = kMainTid;
        call.id = 2 * s + 1;
        run.pythonCalls.push_back(call);
        PythonCallRecord module = call;
        module.name = "nn.Module: Conv2d_0";
        module.startNs = base + 8'000;
        module.endNs = base + 205'000;
        module.id = 2 * s + 2;
        module.parentId = call.id;
        module.moduleId = 0;
        run.pythonCalls.push_back(module);
    }
    run.endNs = stepCount * kStepNs + 100'000;
    return run;
}

}  // namespace ascendsim::testing_support
