// The PTA task queue and CANN API records: every launch is traceable from its torch op through
// Enqueue, Dequeue, AscendCL and Node@launch to the kernel; levels gate what is recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sim/host/fake_device_queue.h"
#include "sim/host/host_costs.h"
#include "sim/host/host_model.h"

namespace ascendsim {
namespace {

using testing::HostRun;
using testing::trainingStep;

HostRun run(const ProfilerConfig& config, const std::vector<HostStep>& steps,
            std::uint64_t kernelNs = 10'000) {
    HostModelOptions options;
    options.profiler = config;
    options.processId = 777;
    return testing::runHost(options, steps, kernelNs);
}

const ApiRecord* findApi(const RunRecord& r, ApiLevel level, std::uint64_t connectionId) {
    for (const auto& api : r.apis) {
        if (api.level == level && api.connectionId == connectionId) return &api;
    }
    return nullptr;
}

TEST(TaskQueue, EveryLaunchHasEnqueueDequeueAclAndNodeLaunchThatContainEachOther) {
    const HostRun r = run(ProfilerConfig{}, {trainingStep(1), trainingStep(2)});
    ASSERT_EQ(r.launches.size(), 2u * 7u);  // conv, relu, 2x addmm, mm, threshold, conv bwd
    std::map<std::uint64_t, const TaskQueueRecord*> queue;
    for (const auto& item : r.record.taskQueue) queue[item.correlationId] = &item;
    for (const auto& launch : r.launches) {
        ASSERT_TRUE(queue.count(launch.queueCorrelationId)) << launch.kernelName;
        const TaskQueueRecord& item = *queue.at(launch.queueCorrelationId);
        // The enqueue happens inside the NPU op record that the kernel is attributed to.
        ASSERT_GE(launch.hostOpIndex, 0);
        const HostOpRecord& npuOp = r.record.hostOps[static_cast<std::size_t>(launch.hostOpIndex)];
        EXPECT_EQ(npuOp.name, item.opName);
        EXPECT_LE(npuOp.startNs, item.enqueueStartNs);
        EXPECT_GE(npuOp.endNs, item.enqueueEndNs);
        EXPECT_EQ(npuOp.threadId, item.enqueueThreadId);
        EXPECT_LT(item.enqueueEndNs, item.dequeueStartNs);
        // Node@launch (connection id = kernel correlation id) runs inside the dequeue and inside
        // the AscendCL execute call named after the NPU op.
        const ApiRecord* node = findApi(r.record, ApiLevel::Node, launch.correlationId);
        ASSERT_NE(node, nullptr) << launch.kernelName;
        EXPECT_EQ(node->name, "launch");
        EXPECT_EQ(node->threadId, item.dequeueThreadId);
        EXPECT_GE(node->startNs, item.dequeueStartNs);
        EXPECT_LE(node->endNs, item.dequeueEndNs);
        const auto acl = std::find_if(r.record.apis.begin(), r.record.apis.end(), [&](const ApiRecord& a) {
            return a.level == ApiLevel::Acl && a.name == item.opName && a.startNs <= node->startNs &&
                   a.endNs >= node->endNs;
        });
        EXPECT_NE(acl, r.record.apis.end()) << item.opName;
    }
}

TEST(TaskQueue, CorrelationAndConnectionIdsAreUnique) {
    const HostRun r = run(ProfilerConfig{}, {trainingStep(1)});
    std::map<std::uint64_t, int> connections;
    for (const auto& api : r.record.apis) ++connections[api.connectionId];
    for (const auto& [id, count] : connections) EXPECT_EQ(count, 1) << id;
    std::map<std::uint64_t, int> kernels;
    for (const auto& launch : r.launches) ++kernels[launch.correlationId];
    for (const auto& [id, count] : kernels) EXPECT_EQ(count, 1) << id;
}

TEST(TaskQueue, DequeueThreadHandlesOneItemAtATimeInEnqueueOrder) {
    const HostRun r = run(ProfilerConfig{}, {trainingStep(1)});
    const auto& q = r.record.taskQueue;
    ASSERT_EQ(q.size(), 6u);
    for (std::size_t i = 1; i < q.size(); ++i) {
        EXPECT_GT(q[i].correlationId, q[i - 1].correlationId);
        EXPECT_GE(q[i].dequeueStartNs, q[i - 1].dequeueEndNs);
        EXPECT_EQ(q[i].dequeueThreadId, q[0].dequeueThreadId);
    }
    EXPECT_NE(q[0].dequeueThreadId, q[0].enqueueThreadId);
    // Backward ops enqueue from the autograd thread.
    EXPECT_NE(q[3].enqueueThreadId, q[0].enqueueThreadId);
}

TEST(TaskQueue, AFullRingBlocksEnqueueUntilTheDequeueThreadFreesASlot) {
    // Ops with many kernels: the dequeue thread launches slower than Python enqueues.
    HostStep step;
    const std::size_t ops = DequeueThread::kQueueCapacity + 600;
    for (std::size_t i = 0; i < ops; ++i) step.ops.push_back(testing::forwardOp("aten::add", "aclnnAdd", 40, 0));
    const HostRun r = run(ProfilerConfig{}, {step}, 1'000);
    const auto& q = r.record.taskQueue;
    ASSERT_EQ(q.size(), ops);
    const std::size_t slots = DequeueThread::kQueueCapacity - 1;
    // The first Enqueue wakes the idle dequeue thread; later ones find it still launching.
    EXPECT_EQ(q[0].enqueueEndNs - q[0].enqueueStartNs, host_costs::kEnqueueWakingDequeueNs);
    for (std::size_t i = 1; i < slots; i += 500) {
        EXPECT_EQ(q[i].enqueueEndNs - q[i].enqueueStartNs, host_costs::kEnqueueToBusyQueueNs) << i;
    }
    for (std::size_t i = slots; i < ops; ++i) {
        ASSERT_GE(q[i].enqueueEndNs, q[i - slots].dequeueEndNs) << i;
    }
    std::size_t firstBlocked = ops;
    for (std::size_t i = 1; i < ops && firstBlocked == ops; ++i) {
        if (q[i].enqueueEndNs - q[i].enqueueStartNs > host_costs::kEnqueueToBusyQueueNs)
            firstBlocked = i;
    }
    EXPECT_GE(firstBlocked, slots);
    EXPECT_LT(firstBlocked, ops);
    // From then on Python runs at the dequeue thread's pace, one item per freed slot.
    EXPECT_EQ(q.back().enqueueEndNs - host_costs::kEnqueueToBusyQueueNs,
              q[ops - 1 - slots].dequeueEndNs);
}

TEST(TaskQueue, TaskIdsCountUpPerStream) {
    HostStep step;
    auto op = testing::forwardOp("aten::add", "aclnnAdd", 3, 0);
    op.kernels[1].streamId = 2;
    step.ops = {op, op};
    const HostRun r = run(ProfilerConfig{}, {step});
    std::map<std::uint32_t, std::vector<std::uint32_t>> ids;
    for (const auto& launch : r.launches) ids[launch.streamId].push_back(launch.taskId);
    EXPECT_EQ(ids[0], (std::vector<std::uint32_t>{1, 2, 3, 4}));
    EXPECT_EQ(ids[2], (std::vector<std::uint32_t>{1, 2}));
}

int countLevel(const RunRecord& r, ApiLevel level) {
    return static_cast<int>(std::count_if(r.apis.begin(), r.apis.end(),
                                          [&](const ApiRecord& a) { return a.level == level; }));
}

TEST(ApiLevels, Level0AndLevel1RecordAclAndNodeButNoRuntime) {
    for (auto level : {ProfilerLevel::Level0, ProfilerLevel::Level1}) {
        ProfilerConfig config;
        config.level = level;
        const HostRun r = run(config, {trainingStep(1)});
        EXPECT_EQ(countLevel(r.record, ApiLevel::Node), 7);
        EXPECT_GT(countLevel(r.record, ApiLevel::Acl), 0);
        EXPECT_EQ(countLevel(r.record, ApiLevel::Runtime), 0);
    }
}

TEST(ApiLevels, Level2AddsARuntimeLaunchInsideEveryNodeLaunch) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level2;
    const HostRun r = run(config, {trainingStep(1)});
    int nested = 0;
    for (const auto& node : r.record.apis) {
        if (node.level != ApiLevel::Node) continue;
        for (const auto& rt : r.record.apis) {
            if (rt.level == ApiLevel::Runtime && rt.name == "KernelLaunchWithHandle" &&
                rt.threadId == node.threadId && rt.startNs >= node.startNs && rt.endNs <= node.endNs) {
                ++nested;
            }
        }
    }
    EXPECT_EQ(nested, 7);
    int overflowQueries = 0, synchronizes = 0;
    for (const auto& api : r.record.apis) {
        overflowQueries += api.level == ApiLevel::Runtime && api.name == "CtxGetOverflowAddr";
        synchronizes += api.level == ApiLevel::Runtime && api.name == "StreamSynchronize";
    }
    EXPECT_EQ(overflowQueries, 6);  // once per aclnn execute call
    EXPECT_EQ(synchronizes, 1);
}

TEST(ApiLevels, KernelCorrelationIdsDoNotDependOnTheLevel) {
    ProfilerConfig level0, level2;
    level2.level = ProfilerLevel::Level2;
    const HostRun a = run(level0, {trainingStep(1)});
    const HostRun b = run(level2, {trainingStep(1)});
    ASSERT_EQ(a.launches.size(), b.launches.size());
    for (std::size_t i = 0; i < a.launches.size(); ++i) {
        EXPECT_EQ(a.launches[i].correlationId, b.launches[i].correlationId);
    }
}

TEST(ApiLevels, LevelNoneAndNpuActivityOffRecordNoApis) {
    ProfilerConfig none;
    none.level = ProfilerLevel::LevelNone;
    EXPECT_TRUE(run(none, {trainingStep(1)}).record.apis.empty());
    ProfilerConfig cpuOnly;
    cpuOnly.activityNpu = false;
    const HostRun r = run(cpuOnly, {trainingStep(1)});
    EXPECT_TRUE(r.record.apis.empty());
    EXPECT_FALSE(r.record.hostOps.empty());
    EXPECT_EQ(r.launches.size(), 7u);  // the device still runs
}

TEST(ApiLevels, AclnnOpsCallGetWorkspaceSizeOnTheEnqueuingThreadAclopOpsCompileAndExecute) {
    HostStep step;
    step.ops.push_back(testing::forwardOp("aten::relu", "aclnnRelu", 1, 0));
    step.ops.push_back(testing::forwardOp("aten::conv2d", "Conv2D", 2, 0));
    const HostRun r = run(ProfilerConfig{}, {step});
    std::vector<std::string> aclNames;
    for (const auto& api : r.record.apis) {
        if (api.level == ApiLevel::Acl) aclNames.push_back(api.name);
    }
    EXPECT_NE(std::find(aclNames.begin(), aclNames.end(), "aclnnReluGetWorkspaceSize"), aclNames.end());
    EXPECT_NE(std::find(aclNames.begin(), aclNames.end(), "aclnnRelu"), aclNames.end());
    EXPECT_NE(std::find(aclNames.begin(), aclNames.end(), "aclopCompileAndExecute"), aclNames.end());
    EXPECT_EQ(std::find(aclNames.begin(), aclNames.end(), "Conv2DGetWorkspaceSize"), aclNames.end());
}

TEST(ApiLevels, UnprofiledStepsRunButRecordNothing) {
    HostStep warmup = trainingStep(1);
    warmup.profiled = false;
    const HostRun r = run(ProfilerConfig{}, {warmup, trainingStep(2)});
    EXPECT_EQ(r.launches.size(), 14u);
    ASSERT_EQ(r.record.steps.size(), 1u);
    EXPECT_EQ(r.record.steps[0].stepNumber, 2u);
    EXPECT_EQ(r.record.hostOps[0].name, "ProfilerStep#2");
    EXPECT_EQ(r.record.taskQueue.size(), 6u);
    EXPECT_EQ(countLevel(r.record, ApiLevel::Node), 7);
    for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(r.launches[i].hostOpIndex, -1);
    for (std::size_t i = 7; i < 14; ++i) EXPECT_GE(r.launches[i].hostOpIndex, 0);
}

}  // namespace
}  // namespace ascendsim
