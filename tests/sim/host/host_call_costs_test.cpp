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
    EXPECT_EQ(cache.call(conv).preparation, OpPreparation::NewOpType);
    EXPECT_EQ(cache.call(conv).preparation, OpPreparation::Cached);
    conv.inputDims = "32,128,28,28;128,128,3,3";
    EXPECT_EQ(cache.call(conv).preparation, OpPreparation::NewShape);
    conv.attributeCount = 7;  // same shapes, other arguments: another tiling
    EXPECT_EQ(cache.call(conv).preparation, OpPreparation::NewShape);
    EXPECT_EQ(cache.call(conv).preparation, OpPreparation::Cached);
}

TEST(OpPreparationCache, AnOpTypeIsColdUntilItsFirstCallAfterASynchronize) {
    OpPreparationCache cache;
    const FrameworkOp conv = forwardOp("aten::conv2d", "aclnnConvolution", 1);
    EXPECT_TRUE(cache.call(conv).cold);
    EXPECT_FALSE(cache.call(conv).cold);
    cache.coolDown();
    const OpCallState again = cache.call(conv);
    EXPECT_TRUE(again.cold);
    EXPECT_EQ(again.preparation, OpPreparation::Cached);  // cold, but nothing to tile
}

TEST(HostCallCosts, GetWorkspaceSizeGrowsWithDescriptorsAndAttributesAndPaysForMissesAndCold) {
    const OpArguments two{2, 1, 0};
    const OpArguments three{3, 1, 0};
    const OpArguments withAttributes{2, 1, 4};
    const OpCallState warm{OpPreparation::Cached, false};
    using host_call_costs::getWorkspaceSizeNs;
    EXPECT_EQ(getWorkspaceSizeNs(warm, three) - getWorkspaceSizeNs(warm, two),
              host_costs::kTensorDescriptorNs);
    EXPECT_EQ(getWorkspaceSizeNs(warm, withAttributes) - getWorkspaceSizeNs(warm, two),
              4 * host_costs::kAttributeNs);
    EXPECT_EQ(
        getWorkspaceSizeNs({OpPreparation::Cached, true}, two) - getWorkspaceSizeNs(warm, two),
        host_costs::kColdGetWorkspaceSizeNs);
    EXPECT_EQ(
        getWorkspaceSizeNs({OpPreparation::NewShape, false}, two) - getWorkspaceSizeNs(warm, two),
        host_costs::kTilingNs);
    EXPECT_EQ(getWorkspaceSizeNs({OpPreparation::NewOpType, false}, two) -
                  getWorkspaceSizeNs({OpPreparation::NewShape, false}, two),
              host_costs::kOpSelectionNs);
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
    // Each step ends with the loss.item() synchronize.
    const FrameworkOp add = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    const RunRecord r = run({stepOf(1, {add, add}), stepOf(2, {add, add})});
    for (const std::string name : {"aclnnAddGetWorkspaceSize", "aclnnAdd"}) {
        const auto d = durationsOf(r, name);
        ASSERT_EQ(d.size(), 4u) << name;
        EXPECT_GT(d[0], d[1]) << name;  // first ever: a miss, and cold
        EXPECT_GT(d[2], d[3]) << name;  // first after the synchronize: cold
        EXPECT_EQ(d[1], d[3]) << name;  // warm and cached
    }
    const auto gws = durationsOf(r, "aclnnAddGetWorkspaceSize");
    EXPECT_EQ(gws[0] - gws[1], host_costs::kOpSelectionNs + host_costs::kTilingNs +
                                   host_costs::kColdGetWorkspaceSizeNs);
    EXPECT_EQ(gws[2] - gws[3], host_costs::kColdGetWorkspaceSizeNs);
    const auto execute = durationsOf(r, "aclnnAdd");
    EXPECT_EQ(execute[2] - execute[3],
              host_costs::kColdExecuteNs + host_costs::kColdKernelLaunchNs +
                  (host_costs::kOverflowQueryNs - host_costs::kOverflowQueryWarmNs));
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

TEST(HostModelCallCosts, AKernelsFirstLaunchAndTheFirstOverflowQueryAfterASynchronizeAreSlower) {
    FrameworkOp add = forwardOp("aten::add", "aclnnAdd", 1, 4096, 0);
    const RunRecord r = run({stepOf(1, {add, add}), stepOf(2, {add, add})});
    const auto launches = durationsOf(r, "KernelLaunchWithHandle");
    ASSERT_EQ(launches.size(), 4u);
    EXPECT_EQ(launches[0] - launches[1], host_costs::kColdKernelLaunchNs);
    EXPECT_EQ(launches[2], launches[0]);
    const auto queries = durationsOf(r, "CtxGetOverflowAddr");
    EXPECT_EQ(queries, (std::vector<std::uint64_t>{
                           host_costs::kOverflowQueryNs, host_costs::kOverflowQueryWarmNs,
                           host_costs::kOverflowQueryNs, host_costs::kOverflowQueryWarmNs}));
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
