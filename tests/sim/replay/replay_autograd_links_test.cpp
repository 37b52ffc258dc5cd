// autograd_links.h: which forward op a kernel runs in, and whose backward node, read off
// trace_view.json's cpu_op spans, async_npu launch flows and fwdbwd flows (docs/fidelity.md §140).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/replay/input/autograd_links.h"
#include "sim/replay/input/real_profile_loader.h"
#include "tests/sim/replay/replay_fixtures.h"

namespace ascendsim {
namespace {

RealKernel startingAt(std::int64_t startNs) {
    RealKernel k;
    k.startNs = startNs;
    return k;
}

// Forward thread 1: aten::convolution [1000, 1100] µs holding a Conv2D op [1010, 1090]; a
// launch at 1050 inside it; the backward thread 2: ConvolutionBackward0 [2000, 2100], a launch at
// 2050; a launch at 3000 in no linked op. Kernels start at 1200.5, 2200.25 and 3100 µs.
constexpr const char* kAutogradTrace = R"([
{"ph": "X", "cat": "cpu_op", "name": "aten::convolution", "pid": 7, "tid": 1, "ts": "1000.000", "dur": 100.0},
{"ph": "X", "cat": "cpu_op", "name": "Conv2D", "pid": 7, "tid": 1, "ts": "1010.000", "dur": 80.0},
{"ph": "X", "cat": "cpu_op", "name": "ConvolutionBackward0", "pid": 7, "tid": 2, "ts": "2000.000", "dur": 100.0},
{"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 7, "tid": 1, "ts": "2990.000", "dur": 20.0},
{"ph": "s", "cat": "fwdbwd", "name": "fwdbwd", "id": 5, "pid": 7, "tid": 1, "ts": "1000.000"},
{"ph": "f", "cat": "fwdbwd", "name": "fwdbwd", "id": 5, "pid": 7, "tid": 2, "ts": "2000.000"},
{"ph": "s", "cat": "async_npu", "name": "torch_to_npu", "id": 11, "pid": 7, "tid": 1, "ts": "1050.000"},
{"ph": "f", "cat": "async_npu", "name": "torch_to_npu", "id": 11, "pid": 9, "tid": 1, "ts": "1200.500"},
{"ph": "s", "cat": "async_npu", "name": "torch_to_npu", "id": 12, "pid": 7, "tid": 2, "ts": "2050.000"},
{"ph": "f", "cat": "async_npu", "name": "torch_to_npu", "id": 12, "pid": 9, "tid": 1, "ts": "2200.250"},
{"ph": "s", "cat": "async_npu", "name": "torch_to_npu", "id": 13, "pid": 7, "tid": 1, "ts": "3000.000"},
{"ph": "f", "cat": "async_npu", "name": "torch_to_npu", "id": 13, "pid": 9, "tid": 1, "ts": "3100.000"}
])";

TEST(AutogradLinks, AKernelLaunchedInAForwardOpAndInItsBackwardNodeShareTheLink) {
    std::vector<RealKernel> kernels = {startingAt(1200500), startingAt(2200250), startingAt(3100000)};
    attributeAutogradLinks(kAutogradTrace, kernels);
    EXPECT_EQ(kernels[0].forwardOp, 0u);
    EXPECT_EQ(kernels[0].backwardOf, RealKernel::kNoAutogradOp);
    EXPECT_EQ(kernels[1].backwardOf, 0u);
    EXPECT_EQ(kernels[1].forwardOp, RealKernel::kNoAutogradOp);
    EXPECT_EQ(kernels[2].forwardOp, RealKernel::kNoAutogradOp);
    EXPECT_EQ(kernels[2].backwardOf, RealKernel::kNoAutogradOp);
}

// A kernel with no recorded start, or whose start no async_npu flow ends at, stays unlinked.
TEST(AutogradLinks, AKernelNoLaunchFlowEndsAtStaysUnlinked) {
    std::vector<RealKernel> kernels = {startingAt(-1), startingAt(1200000)};
    attributeAutogradLinks(kAutogradTrace, kernels);
    for (const RealKernel& k : kernels) {
        EXPECT_EQ(k.forwardOp, RealKernel::kNoAutogradOp);
        EXPECT_EQ(k.backwardOf, RealKernel::kNoAutogradOp);
    }
}

// A fwdbwd flow whose ends are not at a recorded op's start links nothing.
TEST(AutogradLinks, AFlowWithoutItsOpsLinksNothing) {
    const std::string trace = R"([
{"ph": "X", "cat": "cpu_op", "name": "aten::relu_", "pid": 7, "tid": 1, "ts": "1000.000", "dur": 100.0},
{"ph": "s", "cat": "fwdbwd", "name": "fwdbwd", "id": 5, "pid": 7, "tid": 1, "ts": "1000.000"},
{"ph": "f", "cat": "fwdbwd", "name": "fwdbwd", "id": 5, "pid": 7, "tid": 2, "ts": "2000.000"},
{"ph": "s", "cat": "async_npu", "name": "torch_to_npu", "id": 11, "pid": 7, "tid": 1, "ts": "1050.000"},
{"ph": "f", "cat": "async_npu", "name": "torch_to_npu", "id": 11, "pid": 9, "tid": 1, "ts": "1200.500"}
])";
    std::vector<RealKernel> kernels = {startingAt(1200500)};
    attributeAutogradLinks(trace, kernels);
    EXPECT_EQ(kernels[0].forwardOp, RealKernel::kNoAutogradOp);
}

// The DB export: PYTORCH_API's forward op (sequence 7, fwdThreadId 0, thread 100, 0.9–1.1 ms) and
// its backward node (sequence 7, fwdThreadId 1, thread 200, 1.9–2.1 ms); each task's launching
// op by TASK.connectionId → CONNECTION_IDS → PYTORCH_API.connectionId. The fixture's three tasks
// (globalTaskId 1, 2, 3, connectionIds 1, 2, 3) launch from the Conv2D op inside the forward op,
// from the node, and from an op in neither.
TEST(AutogradLinks, TheDbExportLinksBySequenceNumberAndConnection) {
    namespace fs = std::filesystem;
    const fs::path dir = replay_fixtures::dbProfileWith(
        "autograd_links_db",
        "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER,"
        " sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER,"
        " type INTEGER);"
        "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
        "INSERT INTO PYTORCH_API VALUES ('900000','1100000',100,NULL,0,7,0,NULL,NULL,NULL,50001),"
        "('950000','960000',100,0,0,-1,0,NULL,NULL,NULL,50001),"
        "('1900000','2100000',200,NULL,0,7,1,NULL,NULL,NULL,50001),"
        "('1950000','1960000',200,1,0,-1,0,NULL,NULL,NULL,50001),"
        "('2990000','2995000',100,2,0,-1,0,NULL,NULL,NULL,50001);"
        "INSERT INTO CONNECTION_IDS VALUES (0,1),(1,2),(2,3);");
    const RealProfile profile = loadRealProfile(dir);
    ASSERT_EQ(profile.kernels.size(), 3u);
    EXPECT_EQ(profile.kernels[0].forwardOp, 0u);
    EXPECT_EQ(profile.kernels[0].backwardOf, RealKernel::kNoAutogradOp);
    EXPECT_EQ(profile.kernels[1].backwardOf, 0u);
    EXPECT_EQ(profile.kernels[1].forwardOp, RealKernel::kNoAutogradOp);
    EXPECT_EQ(profile.kernels[2].forwardOp, RealKernel::kNoAutogradOp);
    EXPECT_EQ(profile.kernels[2].backwardOf, RealKernel::kNoAutogradOp);
}

}  // namespace
}  // namespace ascendsim
