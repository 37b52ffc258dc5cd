// Host call durations differ for the reasons the host model knows (host_call_costs.h): cache
// misses on the first call of an op type or shape, argument counts, caching-allocator misses,
// first kernel launches, and whether Enqueue must wake the dequeue thread. Equal causes give
// equal durations.
#include "sim/host/host_call_costs.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/host/fake_device_queue.h"
#include "sim/host/host_costs.h"
#include "sim/host/host_model.h"
#include "sim/host/op_preparation_cache.h"

namespace ascendsim {
namespace {

using testing::forwardOp;

RunRecord run(const std::vector<HostStep>& steps, std::uint64_t kernelNs = 10'000) {
    HostModelOptions options;
    options.profiler.level = ProfilerLevel::Level2;
    options.processId = 777;
    return testing::runHost(options, steps, kernelNs).record;
}

// A step of `ops` whose outputs are freed right after the op that makes them.
HostStep stepOf(std::uint32_t number, std::vector<FrameworkOp> ops) {
    HostStep step;
    step.stepNumber = number;
    step.synchronizeAtEnd = true;
    step.ops = std::move(ops);
    for (std::size_t i = 0; i < step.ops.size(); ++i)
        for (auto& output : step.ops[i].outputs)
            output.lastUseOpIndex = static_cast<std::int32_t>(i);
    return step;
}

// Durations of the API calls named `name`, in call order.
std::vector<std::uint64_t> durationsOf(const RunRecord& record, const std::string& name) {
    std::vector<std::uint64_t> out;
    for (const auto& api : record.apis)
        if (api.name == name) out.push_back(api.endNs - api.startNs);
    return out;
}

TEST(OpPreparationCache, FirstCallOfATypeThenOfAShapeThenCached) {
    OpPreparationCache cache;
    FrameworkOp conv = forwardOp("aten::conv2d", "aclnnConvolution", 1);
    EXPECT_EQ(cache.prepare(conv), OpPreparation::NewOpType);
    EXPECT_EQ(cache.prepare(conv), OpPreparation::Cached);
    conv.inputDims = "32,128,28,28;128,128,3,3";
    EXPECT_EQ(cache.prepare(conv), OpPreparation::NewShape);
    conv.attributeCount = 7;  // same shapes, other arguments: another tiling
    EXPECT_EQ(cache.prepare(conv), OpPreparation::NewShape);
    EXPECT_EQ(cache.prepare(conv), OpPreparation::Cached);
}

TEST(HostCallCosts, GetWorkspaceSizeGrowsWithDescriptorsAndAttributesAndPaysForMisses) {
    const OpArguments two{2, 1, 0};
    const OpArguments three{3, 1, 0};
    const OpArguments withAttributes{2, 1, 4};
    using host_call_costs::getWorkspaceSizeNs;
    EXPECT_EQ(getWorkspaceSizeNs(OpPreparation::Cached, three) -
                  getWorkspaceSizeNs(OpPreparation::Cached, two),
              host_costs::kTensorDescriptorNs);
    EXPECT_EQ(getWorkspaceSizeNs(OpPreparation::Cached, withAttributes) -
                  getWorkspaceSizeNs(OpPreparation::Cached, two),
              4 * host_costs::kAttributeNs);
    EXPECT_GT(getWorkspaceSizeNs(OpPreparation::NewShape, two),
              getWorkspaceSizeNs(OpPreparation::Cached, two));
    EXPECT_GT(getWorkspaceSizeNs(OpPreparation::NewOpType, two),
              getWorkspaceSizeNs(OpPreparation::NewShape, two));
}

TEST(HostCallCosts, ArgumentsCountInputTypesOutputsAndAttributes) {
    FrameworkOp op = forwardOp("aten::add", "aclnnAdd", 1);
    op.attributeCount = 1;
    const OpArguments arguments = argumentsOf(op);
    EXPECT_EQ(arguments.inputTensors, 2u);
    EXPECT_EQ(arguments.outputTensors, 1u);
    EXPECT_EQ(arguments.attributes, 1u);
    EXPECT_EQ(argumentsOf(FrameworkOp{}).tensorDescriptors(), 0u);
}

TEST(HostModelCallCosts, FirstCallOfAnOpCostsMoreThanTheSteadyState) {
    const FrameworkOp add = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    const RunRecord r = run({stepOf(1, {add, add}), stepOf(2, {add, add})});
    for (const std::string name : {"aclnnAddGetWorkspaceSize", "aclnnAdd"}) {
        const auto d = durationsOf(r, name);
        ASSERT_EQ(d.size(), 4u) << name;
        EXPECT_GT(d[0], d[1]) << name;  // operator selection + tiling / executor build
        EXPECT_EQ(d[1], d[2]) << name;  // cached from the second call on
        EXPECT_EQ(d[2], d[3]) << name;
    }
    EXPECT_EQ(durationsOf(r, "aclnnAddGetWorkspaceSize")[0] -
                  durationsOf(r, "aclnnAddGetWorkspaceSize")[1],
              host_costs::kOpSelectionNs + host_costs::kTilingNs);
}

TEST(HostModelCallCosts, ANewShapeOfAKnownOpPaysTilingButNoOperatorSelection) {
    const FrameworkOp small = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    FrameworkOp large = small;
    large.inputDims = "32,256,56,56;32,256,56,56";
    const RunRecord r = run({stepOf(1, {small, small, large, large})});
    const auto d = durationsOf(r, "aclnnAddGetWorkspaceSize");
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[2] - d[1], host_costs::kTilingNs);
    EXPECT_EQ(d[3], d[1]);
}

TEST(HostModelCallCosts, ACachingAllocatorMissCallsDevMallocAndAHitDoesNot) {
    // The output is freed after the op, so the second step reuses the first step's block.
    const FrameworkOp add = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    const RunRecord r = run({stepOf(1, {add}), stepOf(2, {add})});
    const auto mallocs = durationsOf(r, "DevMalloc");
    ASSERT_EQ(mallocs.size(), 1u);
    EXPECT_EQ(mallocs[0], host_costs::kDeviceMallocNs);
    std::vector<std::uint64_t> emptyTensor;
    for (const auto& op : r.hostOps)
        if (op.name == "empty_tensor") emptyTensor.push_back(op.endNs - op.startNs);
    ASSERT_EQ(emptyTensor.size(), 2u);
    EXPECT_EQ(emptyTensor[0] - emptyTensor[1], host_costs::kDeviceMallocNs);
}

TEST(HostModelCallCosts, EnqueueWakingAnIdleDequeueThreadCostsMoreThanAddingToABusyOne) {
    // Many kernels per op: the dequeue thread is still launching when the next op is enqueued.
    const FrameworkOp slow = forwardOp("aten::add", "aclnnAdd", 20, 4096, 0);
    RunRecord r = run({stepOf(1, {slow, slow, slow})});
    ASSERT_EQ(r.taskQueue.size(), 3u);
    EXPECT_EQ(r.taskQueue[0].enqueueEndNs - r.taskQueue[0].enqueueStartNs,
              host_costs::kEnqueueWakingDequeueNs);
    EXPECT_EQ(r.taskQueue[1].enqueueEndNs - r.taskQueue[1].enqueueStartNs,
              host_costs::kEnqueueToBusyQueueNs);
    // The rule over a mix: busy means the previous item's Dequeue has not ended when Enqueue
    // starts. A blocking .item() lets the dequeue thread run dry before the next op.
    const FrameworkOp fast = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    FrameworkOp sync;
    sync.atenName = "aten::item";
    sync.synchronizesDevice = true;
    r = run({stepOf(1, {fast, slow, fast, sync, fast, slow, slow, sync, slow, fast})});
    bool sawIdle = false;
    for (std::size_t i = 1; i < r.taskQueue.size(); ++i) {
        const TaskQueueRecord& item = r.taskQueue[i];
        const bool busy = r.taskQueue[i - 1].dequeueEndNs > item.enqueueStartNs;
        sawIdle |= !busy;
        EXPECT_EQ(item.enqueueEndNs - item.enqueueStartNs,
                  busy ? host_costs::kEnqueueToBusyQueueNs : host_costs::kEnqueueWakingDequeueNs)
            << i;
    }
    EXPECT_TRUE(sawIdle);
}

TEST(HostModelCallCosts, AKernelsFirstLaunchAndTheFirstOverflowQueryAreSlower) {
    FrameworkOp add = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    const RunRecord r = run({stepOf(1, {add, add})});
    const auto launches = durationsOf(r, "KernelLaunchWithHandle");
    ASSERT_EQ(launches.size(), 2u);
    EXPECT_EQ(launches[0] - launches[1], host_costs::kFirstKernelLaunchNs);
    const auto queries = durationsOf(r, "CtxGetOverflowAddr");
    ASSERT_EQ(queries.size(), 2u);
    EXPECT_EQ(queries[0], host_costs::kOverflowQueryNs);
    EXPECT_EQ(queries[1], host_costs::kOverflowQueryCachedNs);
}

TEST(HostModelCallCosts, LaunchesWithMoreArgumentsTakeLonger) {
    FrameworkOp unary = forwardOp("aten::relu", "aclnnRelu", 1, 4096, 0);
    unary.inputTypes = "float";
    FrameworkOp binary = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    // Warm both kernels first, then compare the cached launches.
    const RunRecord r = run({stepOf(1, {unary, binary, unary, binary})});
    const auto launches = durationsOf(r, "KernelLaunchWithHandle");
    ASSERT_EQ(launches.size(), 4u);
    EXPECT_EQ(launches[3] - launches[2], host_costs::kKernelArgumentNs);
}

TEST(HostModelCallCosts, EqualInputsGiveIdenticalDurations) {
    const std::vector<HostStep> steps = {testing::trainingStep(1), testing::trainingStep(2)};
    const RunRecord a = run(steps);
    const RunRecord b = run(steps);
    ASSERT_EQ(a.apis.size(), b.apis.size());
    for (std::size_t i = 0; i < a.apis.size(); ++i) {
        EXPECT_EQ(a.apis[i].name, b.apis[i].name) << i;
        EXPECT_EQ(a.apis[i].startNs, b.apis[i].startNs) << i;
        EXPECT_EQ(a.apis[i].endNs, b.apis[i].endNs) << i;
    }
    ASSERT_EQ(a.hostOps.size(), b.hostOps.size());
    for (std::size_t i = 0; i < a.hostOps.size(); ++i)
        EXPECT_EQ(a.hostOps[i].endNs, b.hostOps[i].endNs) << i;
}

}  // namespace
}  // namespace ascendsim
