// Memory records of a run: PTA caching allocator events with consistent totals, workspace
// events, deferred block_free for cross-stream tensors, and the CANN memory views.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sim/host/device_memory_sampler.h"
#include "sim/host/fake_device_queue.h"
#include "sim/host/host_model.h"

namespace ascendsim {
namespace {

using testing::FakeDeviceQueue;
using testing::trainingStep;

RunRecord profileMemoryRun(std::vector<HostStep> steps, std::uint64_t kernelNs = 10'000,
                           ProfilerConfig config = {}) {
    config.profileMemory = true;
    FakeDeviceQueue device(kernelNs);
    HostModelOptions options;
    options.profiler = config;
    HostModel model(options, device);
    for (const auto& step : steps) model.runStep(step);
    RunRecord record;
    model.finish(record);
    return record;
}

TEST(HostMemory, PtaTotalsFollowTheEventsAndNeverGoNegative) {
    const RunRecord r = profileMemoryRun({trainingStep(1), trainingStep(2), trainingStep(3)});
    std::int64_t allocated = 0, active = 0;
    std::int64_t lastReserved = 0;
    std::size_t ptaEvents = 0;
    // The allocator drops `allocated` before it returns a block to the pool, so an immediate
    // block_free (followed by the free of the same pointer) already shows the lower total.
    const auto& events = r.memoryEvents;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (e.component != MemoryComponent::PtaCaching) continue;
        ++ptaEvents;
        const bool freeFollows = i + 1 < events.size() && events[i + 1].ptr == e.ptr &&
                                 events[i + 1].kind == MemoryEventKind::Free;
        if (e.kind == MemoryEventKind::Malloc) {
            EXPECT_GT(e.allocSize, 0);
            allocated += e.allocSize;
            active += e.allocSize;
        } else if (e.kind == MemoryEventKind::BlockFree) {
            EXPECT_LT(e.allocSize, 0);
            active += e.allocSize;
            if (freeFollows) allocated += e.allocSize;
        } else {
            EXPECT_LT(e.allocSize, 0);
            const bool blockFreePreceded = i > 0 && events[i - 1].ptr == e.ptr &&
                                           events[i - 1].kind == MemoryEventKind::BlockFree;
            if (!blockFreePreceded) allocated += e.allocSize;
        }
        EXPECT_EQ(e.totalAllocated, allocated);
        EXPECT_EQ(e.totalActive, active);
        EXPECT_GE(e.totalAllocated, 0);
        EXPECT_GE(e.totalActive, e.totalAllocated);
        EXPECT_GE(e.totalReserved, e.totalActive);
        EXPECT_GE(e.totalReserved, lastReserved);  // segments are never released
        lastReserved = e.totalReserved;
        EXPECT_GE(e.hostOpIndex, 0);
        EXPECT_EQ(e.streamPtr, HostMemory::streamPtr(0));
    }
    EXPECT_GT(ptaEvents, 10u);
    // conv output (1 MiB) and addmm output (64 KiB) are freed each step; other outputs persist.
    std::map<std::uint64_t, int> mallocsPerPtr;
    for (const auto& e : r.memoryEvents) {
        if (e.component == MemoryComponent::PtaCaching && e.kind == MemoryEventKind::Malloc) ++mallocsPerPtr[e.ptr];
    }
    int reused = 0;
    for (const auto& [ptr, count] : mallocsPerPtr) reused += count > 1;
    EXPECT_GE(reused, 2);  // freed blocks come back at the same address next step
}

TEST(HostMemory, EventsAreInTimeOrderAndAttributedToTheAllocatingAtenOp) {
    const RunRecord r = profileMemoryRun({trainingStep(1)});
    for (std::size_t i = 1; i < r.memoryEvents.size(); ++i) {
        EXPECT_LE(r.memoryEvents[i - 1].timeNs, r.memoryEvents[i].timeNs);
    }
    const auto& first = r.memoryEvents.front();
    EXPECT_EQ(first.kind, MemoryEventKind::Malloc);
    EXPECT_EQ(r.hostOps[static_cast<std::size_t>(first.hostOpIndex)].name, "aten::_convolution");
}

TEST(HostMemory, ImmediateFreeReportsBlockFreeThenFreeAtTheSameTime) {
    const RunRecord r = profileMemoryRun({trainingStep(1)});
    for (std::size_t i = 0; i < r.memoryEvents.size(); ++i) {
        const auto& e = r.memoryEvents[i];
        if (e.component != MemoryComponent::PtaCaching || e.kind != MemoryEventKind::Free) continue;
        ASSERT_GT(i, 0u);
        const auto& before = r.memoryEvents[i - 1];
        EXPECT_EQ(before.kind, MemoryEventKind::BlockFree);
        EXPECT_EQ(before.ptr, e.ptr);
        EXPECT_EQ(before.timeNs, e.timeNs);
    }
}

TEST(HostMemory, TensorUsedOnAnotherStreamReturnsToThePoolOnlyAtTheSynchronize) {
    HostStep step;
    step.ops.push_back(testing::forwardOp("aten::add", "aclnnAdd", 1, 0));
    step.ops[0].outputs.push_back({8192, 1, true});
    step.ops.push_back(testing::forwardOp("aten::mul", "aclnnMul", 1, 0));
    const RunRecord r = profileMemoryRun({step}, 50'000);
    const MemoryEventRecord *freeEvent = nullptr, *blockFree = nullptr;
    for (const auto& e : r.memoryEvents) {
        if (e.kind == MemoryEventKind::Free && e.component == MemoryComponent::PtaCaching) freeEvent = &e;
        if (e.kind == MemoryEventKind::BlockFree) blockFree = &e;
    }
    ASSERT_NE(freeEvent, nullptr);
    ASSERT_NE(blockFree, nullptr);
    EXPECT_GT(blockFree->timeNs, freeEvent->timeNs);
    EXPECT_GT(freeEvent->totalActive, freeEvent->totalAllocated);  // still active after free
    EXPECT_EQ(blockFree->totalActive, blockFree->totalAllocated);
    const auto& syncOp = r.hostOps[static_cast<std::size_t>(blockFree->hostOpIndex)];
    EXPECT_EQ(syncOp.name, "aten::_local_scalar_dense");
}

TEST(HostMemory, WorkspaceBlockIsTakenPerLaunchAndGrowsOnlyAfterADeviceSynchronize) {
    HostStep step;
    auto small = testing::forwardOp("aten::add", "aclnnAdd", 1, 0);
    small.kernels[0].workspaceBytes = 4096;
    auto large = small;
    large.kernels[0].workspaceBytes = 3 << 20;
    step.ops = {small, large, small, large};
    step.synchronizeAtEnd = false;
    ProfilerConfig config;
    config.profileMemory = true;
    FakeDeviceQueue device(100'000);
    HostModelOptions options;
    options.profiler = config;
    HostModel model(options, device);
    model.runStep(step);
    RunRecord r;
    model.finish(r);
    std::vector<MemoryEventRecord> ws;
    for (const auto& e : r.memoryEvents) {
        if (e.component == MemoryComponent::Workspace) ws.push_back(e);
    }
    // op0: new 2 MiB block, take, give back; op1: free the block, new 4 MiB block, take, give
    // back; op2 and op3: take, give back.
    ASSERT_EQ(ws.size(), 11u);
    const std::int64_t twoMiB = 2 << 20, fourMiB = 4 << 20;
    EXPECT_EQ(ws[0].kind, MemoryEventKind::Malloc);
    EXPECT_EQ(ws[0].allocSize, twoMiB);
    EXPECT_EQ(ws[0].totalAllocated, 0);
    EXPECT_EQ(ws[0].totalReserved, twoMiB);
    EXPECT_EQ(ws[1].totalAllocated, twoMiB);
    EXPECT_EQ(ws[2].kind, MemoryEventKind::Free);
    EXPECT_EQ(ws[2].totalAllocated, 0);
    EXPECT_EQ(ws[3].kind, MemoryEventKind::Free);
    EXPECT_EQ(ws[3].totalReserved, 0);
    EXPECT_EQ(ws[4].allocSize, fourMiB);
    EXPECT_EQ(ws[4].totalReserved, fourMiB);
    for (const auto& e : ws) {
        EXPECT_GE(e.totalAllocated, 0);
        EXPECT_LE(e.totalAllocated, e.totalReserved);
        EXPECT_EQ(e.threadId, model.dequeueThreadId());
    }
    // The growth waited for the device: one synchronize, before the larger op's launch.
    ASSERT_EQ(device.syncs.size(), 1u);
    EXPECT_GE(device.tasks[1].submitNs, device.syncs[0].deviceIdleNs);
    EXPECT_GE(ws[3].timeNs, device.tasks[0].endNs);
    bool deviceSyncApi = false;
    for (const auto& api : r.apis) deviceSyncApi |= api.name == "aclrtSynchronizeDeviceWithTimeout";
    EXPECT_TRUE(deviceSyncApi);
}

TEST(HostMemory, NothingIsRecordedWithoutProfileMemory) {
    FakeDeviceQueue device(10'000);
    HostModel model(HostModelOptions{}, device);
    model.runStep(trainingStep(1));
    RunRecord r;
    model.finish(r);
    EXPECT_TRUE(r.memoryEvents.empty());
    EXPECT_TRUE(r.appMemory.empty());
    EXPECT_TRUE(r.moduleMemory.empty());
    EXPECT_GT(model.memory().ptaTotals().reserved, 0);  // the allocator still ran
}

TEST(DeviceMemory, AppSamplesEvery20msCoverFrameworkReservationsAndModules) {
    HostStep step;
    for (int i = 0; i < 200; ++i) step.ops.push_back(testing::forwardOp("aten::add", "aclnnAdd", 1, 1 << 20));
    const RunRecord r = profileMemoryRun({step}, 500'000);  // device-bound: a ~100 ms step
    ASSERT_GE(r.appMemory.size(), 4u);
    for (std::size_t i = 1; i < r.appMemory.size(); ++i) {
        EXPECT_EQ(r.appMemory[i].timeNs - r.appMemory[i - 1].timeNs, DeviceMemoryConstants::kSamplePeriodNs);
        EXPECT_GE(r.appMemory[i].bytes, r.appMemory[i - 1].bytes);
    }
    const auto& modules = cannModuleNames();
    EXPECT_EQ(r.moduleMemory.size(), modules.size() * r.appMemory.size());
    std::set<std::string> nonZero;
    for (std::size_t s = 0; s < r.appMemory.size(); ++s) {
        std::int64_t sum = 0;
        for (std::size_t m = 0; m < modules.size(); ++m) {
            const auto& sample = r.moduleMemory[m * r.appMemory.size() + s];
            EXPECT_EQ(sample.component, modules[m]);
            EXPECT_EQ(sample.timeNs, r.appMemory[s].timeNs);
            sum += sample.reservedBytes;
            if (sample.reservedBytes > 0) nonZero.insert(sample.component);
        }
        // Whole KB, as CANN's npu_mem memory(KB) (a fractional KB printed as 1052.1734371185303 MB).
        EXPECT_EQ(r.appMemory[s].bytes, (sum + DeviceMemoryConstants::kProcessContextBytes) / 1024 * 1024);
        EXPECT_EQ(r.appMemory[s].bytes % 1024, 0);
    }
    EXPECT_EQ(nonZero, (std::set<std::string>{"APP", "RUNTIME", "SLOG"}));
    // The APP module holds what the framework allocators reserved (200 MiB of outputs by the end).
    EXPECT_GE(r.moduleMemory[33 * r.appMemory.size() + r.appMemory.size() - 1].reservedBytes, 100 << 20);
}

TEST(DeviceMemory, AclopKernelsHoldGeMemoryDuringTheirLaunch) {
    HostStep step;
    auto conv = testing::forwardOp("aten::conv2d", "Conv2D", 2, 0);
    conv.kernels[0].workspaceBytes = 5 << 20;
    conv.kernels[1].workspaceBytes = 1 << 20;
    step.ops = {conv};
    const RunRecord r = profileMemoryRun({step});
    ASSERT_EQ(r.geOpMemory.size(), 2u);
    EXPECT_EQ(r.geOpMemory[0].name, "Conv2D_Kernel0");
    EXPECT_EQ(r.geOpMemory[0].sizeBytes, 5 << 20);
    EXPECT_GT(r.geOpMemory[0].durationNs, 0u);
    EXPECT_EQ(r.geOpMemory[0].allocationTotalAllocated, 5 << 20);
    EXPECT_EQ(r.geOpMemory[1].allocationTotalAllocated, 6 << 20);
    EXPECT_EQ(r.geOpMemory[1].releaseTotalAllocated, 0);
    ASSERT_EQ(r.geMemory.size(), 4u);
    for (const auto& sample : r.geMemory) {
        EXPECT_GE(sample.totalAllocatedBytes, 0);
        EXPECT_GE(sample.totalReservedBytes, sample.totalAllocatedBytes);
    }
    EXPECT_EQ(r.geMemory.back().totalReservedBytes, 6 << 20);
}

}  // namespace
}  // namespace ascendsim
