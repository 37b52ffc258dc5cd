// The torch_npu framework tables of the DB export, with the linking rules seen in the e5a31957
// level1 DB: task-queue rows link correlation_id + (max CANN connection id + 1), fwd/bwd pairs
// share max(enqueue correlation id) + 1 (+ the same offset), the innermost op around an enqueue
// links the Node@launch that ran inside its dequeue, and Input Dims land in inputDtypes.
#include "profiler/writers/db/db_framework_api.h"

#include <gtest/gtest.h>

namespace ascendsim {
namespace {

constexpr std::uint64_t kEpoch = 1'000'000;
constexpr std::int64_t kFirstTorchString = 268435456;

HostOpRecord op(const std::string& name, std::uint64_t start, std::uint64_t end, std::uint32_t tid,
                std::int64_t sequence, std::uint32_t forwardThread) {
    HostOpRecord r;
    r.name = name;
    r.startNs = start;
    r.endNs = end;
    r.threadId = tid;
    r.sequenceNumber = sequence;
    r.forwardThreadId = forwardThread;
    return r;
}

RunRecord linearRun() {
    RunRecord run;
    run.processId = 100;
    run.epochNs = kEpoch;
    run.hostOps.push_back(op("ProfilerStep#1", 0, 100'000, 1, -1, 0));
    HostOpRecord linear = op("aten::linear", 1'000, 9'000, 1, 5, 0);
    linear.callStack = "m.py(3): forward;t.py(9): <module>";
    linear.inputDims = "2,4;4,4";
    linear.inputTypes = "float;float";
    run.hostOps.push_back(linear);
    run.hostOps.push_back(op("aten::addmm", 2'000, 8'000, 1, 5, 0));
    run.hostOps.push_back(op("AddmmBackward0", 50'000, 60'000, 3, 5, 1));
    TaskQueueRecord q;
    q.opName = "aclnnAddmm";
    q.correlationId = 40;
    q.enqueueStartNs = 3'000;
    q.enqueueEndNs = 3'500;
    q.dequeueStartNs = 4'000;
    q.dequeueEndNs = 7'000;
    q.enqueueThreadId = 1;
    q.dequeueThreadId = 2;
    run.taskQueue.push_back(q);
    run.pythonCalls.push_back({"t.py(9): <module>", 10, 99'000, 1, 1, 0, -1});
    return run;
}

std::int64_t integer(const DbValue& v) {
    return std::get<std::int64_t>(v);
}
bool isNull(const DbValue& v) {
    return std::holds_alternative<DbNull>(v);
}

TEST(DbFrameworkApi, QueueThenPythonThenOpsWithTheirConnections) {
    DbStringIds strings(kFirstTorchString);
    const auto tables =
        buildFrameworkApiTables(linearRun(), strings, 20, {{kEpoch + 5'000, kEpoch + 6'000, 12}});
    ASSERT_EQ(tables.pytorchApi.size(), 7U);
    const auto& enqueue = tables.pytorchApi[0];
    EXPECT_EQ(std::get<std::string>(enqueue[0]), "1003000");  // TEXT ns, the torch_npu quirk
    EXPECT_EQ(integer(enqueue[2]), (std::int64_t{100} << 32) | 1);
    EXPECT_EQ(integer(enqueue[3]), 0);
    EXPECT_EQ(integer(enqueue[4]), kFirstTorchString);  // "Enqueue" is the first string
    EXPECT_EQ(integer(enqueue[10]), 50002);
    EXPECT_EQ(integer(tables.pytorchApi[1][3]), 1);
    EXPECT_EQ(integer(tables.pytorchApi[2][10]), 50003);
    EXPECT_TRUE(isNull(tables.pytorchApi[2][3]));

    const auto& step = tables.pytorchApi[3];
    EXPECT_TRUE(isNull(step[3]));
    EXPECT_EQ(integer(step[5]), -1);  // sequence -1 is stored, not NULL
    const auto& linear = tables.pytorchApi[4];
    EXPECT_TRUE(
        isNull(linear[3]));  // neither the pair's last forward op nor the innermost launcher
    EXPECT_EQ(integer(linear[9]), 0);  // first call chain
    const auto& addmm = tables.pytorchApi[5];
    EXPECT_EQ(integer(addmm[3]), 2);
    EXPECT_EQ(integer(tables.pytorchApi[6][3]), 3);

    const std::vector<std::vector<DbValue>> expected = {{std::int64_t{0}, std::int64_t{60}},
                                                        {std::int64_t{1}, std::int64_t{60}},
                                                        {std::int64_t{2}, std::int64_t{61}},
                                                        {std::int64_t{2}, std::int64_t{12}},
                                                        {std::int64_t{3}, std::int64_t{61}}};
    EXPECT_EQ(tables.connectionIds, expected);
    ASSERT_EQ(tables.callchains.size(), 2U);
    EXPECT_EQ(tables.callchains[0][1], DbValue{strings.id("m.py(3): forward")});
    EXPECT_EQ(tables.callchains[1][1], DbValue{strings.id("t.py(9): <module>")});
    EXPECT_EQ(integer(tables.callchains[1][2]), 1);
    // torch_npu's column swap: inputDtypes holds the dims, inputShapes the types (";" -> ";\r\n").
    EXPECT_EQ(linear[7], DbValue{strings.id("2,4;\r\n4,4")});
    EXPECT_EQ(linear[8], DbValue{strings.id("float;\r\nfloat")});
}

TEST(DbFrameworkApi, WithoutCannApisNothingIsLinkedToLaunchesAndIdsAreNotOffset) {
    DbStringIds strings(kFirstTorchString);
    const auto tables = buildFrameworkApiTables(linearRun(), strings, 0, {});
    const std::vector<std::vector<DbValue>> expected = {{std::int64_t{0}, std::int64_t{40}},
                                                        {std::int64_t{1}, std::int64_t{40}},
                                                        {std::int64_t{2}, std::int64_t{41}},
                                                        {std::int64_t{3}, std::int64_t{41}}};
    EXPECT_EQ(tables.connectionIds, expected);
}

}  // namespace
}  // namespace ascendsim
