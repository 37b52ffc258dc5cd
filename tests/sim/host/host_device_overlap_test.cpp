// Launch latency and overlap: tiny kernels leave the device idle between launches (host-bound);
// long kernels let the host run ahead and block at the step-end synchronize (device-bound).
#include <gtest/gtest.h>

#include "sim/host/fake_device_queue.h"
#include "sim/host/host_costs.h"
#include "sim/host/host_model.h"

namespace ascendsim {
namespace {

using testing::FakeDeviceQueue;

HostStep elementwiseChain(std::uint32_t ops) {
    HostStep step;
    step.stepNumber = 1;
    for (std::uint32_t i = 0; i < ops; ++i) step.ops.push_back(testing::forwardOp("aten::add", "aclnnAdd", 1, 0));
    return step;
}

TEST(HostDeviceOverlap, HostBoundTinyKernelsLeaveTheDeviceIdleBetweenLaunches) {
    FakeDeviceQueue device(2'000);  // 2 us kernels against tens of us of host work per op
    HostModel model(HostModelOptions{}, device);
    const auto result = model.runStep(elementwiseChain(50));
    ASSERT_EQ(device.tasks.size(), 50u);
    std::uint64_t idleNs = 0;
    for (std::size_t i = 1; i < device.tasks.size(); ++i) {
        EXPECT_GT(device.tasks[i].startNs, device.tasks[i - 1].endNs) << "kernel " << i << " queued";
        idleNs += device.tasks[i].startNs - device.tasks[i - 1].endNs;
    }
    const std::uint64_t busyNs = 50 * 2'000;
    EXPECT_GT(idleNs, 5 * busyNs);
    // Every kernel starts when its launch arrives: the device waits for the host.
    for (const auto& task : device.tasks) EXPECT_EQ(task.startNs, task.submitNs);
    // The final synchronize finds the device (nearly) done.
    ASSERT_EQ(device.syncs.size(), 1u);
    EXPECT_LE(device.syncs[0].deviceIdleNs, device.syncs[0].hostNowNs + host_costs::kLaunchToDeviceNs + 2'000);
    EXPECT_GE(result.endNs, device.tasks.back().endNs);
}

TEST(HostDeviceOverlap, DeviceBoundHostRunsAheadAndBlocksAtTheStepEndSynchronize) {
    FakeDeviceQueue device(5'000'000);  // 5 ms kernels
    HostModel model(HostModelOptions{}, device);
    const auto result = model.runStep(elementwiseChain(20));
    ASSERT_EQ(device.tasks.size(), 20u);
    // All launches are submitted while the first kernel is still running.
    EXPECT_LT(device.tasks.back().submitNs, device.tasks.front().endNs);
    // Back-to-back on the device: no idle gaps.
    for (std::size_t i = 1; i < device.tasks.size(); ++i) {
        EXPECT_EQ(device.tasks[i].startNs, device.tasks[i - 1].endNs);
    }
    // The host reached the synchronize long before the device was idle, and waited for it.
    ASSERT_EQ(device.syncs.size(), 1u);
    const auto& sync = device.syncs[0];
    EXPECT_GT(sync.deviceIdleNs, sync.hostNowNs + 90'000'000);
    EXPECT_GE(result.endNs, sync.deviceIdleNs);
    EXPECT_EQ(model.hostNowNs(), result.endNs);
    RunRecord record;
    model.finish(record);
    // The blocking shows as a long aten::_local_scalar_dense and a long synchronize API call.
    const HostOpRecord* dense = nullptr;
    for (const auto& op : record.hostOps) {
        if (op.name == "aten::_local_scalar_dense") dense = &op;
    }
    ASSERT_NE(dense, nullptr);
    EXPECT_GE(dense->endNs, sync.deviceIdleNs);
    EXPECT_LT(dense->startNs, sync.hostNowNs);
    bool syncApi = false;
    for (const auto& api : record.apis) {
        if (api.name == "aclrtSynchronizeStreamWithTimeout") {
            syncApi = true;
            EXPECT_GE(api.endNs, sync.deviceIdleNs);
        }
    }
    EXPECT_TRUE(syncApi);
}

TEST(HostDeviceOverlap, SynchronizeWaitsForTheDequeueThreadToDrainFirst) {
    FakeDeviceQueue device(1'000);
    HostModel model(HostModelOptions{}, device);
    HostStep step = elementwiseChain(3);
    // An op launching many kernels keeps the dequeue thread busy after the Python thread is done.
    step.ops.push_back(testing::forwardOp("aten::add", "aclnnAdd", 40, 0));
    model.runStep(step);
    ASSERT_EQ(device.syncs.size(), 1u);
    EXPECT_GT(device.syncs[0].hostNowNs, device.tasks.back().submitNs - host_costs::kLaunchToDeviceNs);
}

TEST(HostDeviceOverlap, ExplicitSynchronizingOpReplacesTheImplicitStepEndSync) {
    FakeDeviceQueue device(10'000);
    HostModel model(HostModelOptions{}, device);
    HostStep step = elementwiseChain(3);
    FrameworkOp item = testing::forwardOp("aten::item", "", 0, 0);
    item.synchronizesDevice = true;
    step.ops.push_back(item);
    model.runStep(step);
    EXPECT_EQ(device.syncs.size(), 1u);
    HostStep noSync = elementwiseChain(2);
    noSync.synchronizeAtEnd = false;
    model.runStep(noSync);
    EXPECT_EQ(device.syncs.size(), 1u);
}

TEST(HostDeviceOverlap, WithStackMakesTheHostSlowerThanWithoutIt) {
    auto stepTime = [](bool withStack) {
        FakeDeviceQueue device(1'000);
        HostModelOptions options;
        options.profiler.withStack = withStack;
        HostModel model(options, device);
        const auto result = model.runStep(elementwiseChain(10));
        return result.endNs - result.startNs;
    };
    EXPECT_GT(stepTime(true), stepTime(false) + 10 * host_costs::kStackCaptureNs);
}

TEST(HostDeviceOverlap, SameInputsGiveTheSameTimeline) {
    auto timeline = [] {
        FakeDeviceQueue device(3'000);
        HostModel model(HostModelOptions{}, device);
        model.runStep(testing::trainingStep(1));
        model.runStep(testing::trainingStep(2));
        std::vector<std::uint64_t> submits;
        for (const auto& task : device.tasks) submits.push_back(task.submitNs);
        return submits;
    };
    EXPECT_EQ(timeline(), timeline());
}

}  // namespace
}  // namespace ascendsim
