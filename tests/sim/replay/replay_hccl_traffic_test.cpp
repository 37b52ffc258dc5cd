// The HCCL transfers a real kernel ran beside (docs/fidelity.md §108): read from the trace's HCCL
// planes or the DB's COMMUNICATION_TASK_INFO, turned into HBM windows from the kernel's start, and
// a row that has them replayed as a group of its own.
#include <gtest/gtest.h>

#include "sim/config/chip_config_loader.h"
#include "sim/replay/input/hccl_transfer_reader.h"
#include "sim/replay/input/real_profile_loader.h"
#include "sim/replay/run/concurrent_traffic.h"
#include "sim/replay/run/kernel_replay.h"
#include "sim/replay/run/replay_run.h"
#include "sim/replay/rules/replay_op_rules.h"
#include "tests/sim/replay/real_row.h"
#include "tests/sim/replay/replay_fixtures.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;

TEST(HcclTransferReader, MicrosecondTextConvertsToNanosecondsExactly) {
    EXPECT_EQ(microsecondsTextToNs("1736412474757061.620\t"), 1736412474757061620);
    EXPECT_EQ(microsecondsTextToNs("12.5"), 12500);
    EXPECT_EQ(microsecondsTextToNs("7"), 7000);
    EXPECT_EQ(microsecondsTextToNs("1.2345"), 1234);  // below a ns: dropped
    EXPECT_FALSE(microsecondsTextToNs("N/A"));
    EXPECT_FALSE(microsecondsTextToNs("1.x"));
}

// The shape of e5a31957 text/level2 trace_view.json: metadata names the HCCL process, plane 0 holds
// the op, planes >= 1 its tasks; a compute event named Memcpy elsewhere is not HCCL's.
constexpr const char* kTrace = R"json([
{"name": "process_name", "pid": 77, "tid": 0, "args": {"name": "HCCL"}, "ph": "M"},
{"name": "process_name", "pid": 5, "tid": 0, "args": {"name": "Ascend Hardware"}, "ph": "M"},
{"name": "hcom_allReduce__271_1_1", "pid": 77, "tid": 0, "ts": "100.000", "dur": 900.0, "args": {"count": 4}, "ph": "X"},
{"name": "Notify_Wait", "pid": 77, "tid": 2, "ts": "100.500", "dur": 50.0, "args": {"task type": "Notify_Wait", "size(Byte)": 0, "link type": "INVALID_TYPE"}, "ph": "X"},
{"name": "Memcpy", "pid": 77, "tid": 1, "ts": "101.250", "dur": 23.5, "args": {"task type": "Memcpy", "size(Byte)": 8404992, "link type": "ON_CHIP", "note": "a \"quoted\" {brace"}, "ph": "X"},
{"name": "Reduce_Inline", "pid": 77, "tid": 3, "ts": "200.000", "dur": 746.25, "args": {"task type": "Reduce_Inline", "size(Byte)": 8404992, "link type": "HCCS"}, "ph": "X"},
{"name": "Memcpy", "pid": 5, "tid": 2, "ts": "300.000", "dur": 5.0, "args": {"size(Byte)": 64}, "ph": "X"}
])json";

TEST(HcclTransferReader, TraceViewKeepsTheHcclPlanesMemcpyAndReduceInline) {
    const std::vector<HcclTransfer> transfers = parseTraceViewTransfers(kTrace, "trace_view.json");
    ASSERT_EQ(transfers.size(), 2u);
    EXPECT_EQ(transfers[0].startNs, 101250);
    EXPECT_EQ(transfers[0].endNs, 124750);
    EXPECT_EQ(transfers[0].bytes, 8404992u);
    EXPECT_FALSE(transfers[0].reduces);
    EXPECT_EQ(transfers[0].link, "ON_CHIP");
    EXPECT_TRUE(transfers[1].reduces);
    EXPECT_EQ(transfers[1].link, "HCCS");
    EXPECT_EQ(transfers[1].endNs, 946250);
    EXPECT_TRUE(parseTraceViewTransfers("[]", "t.json").empty());
}

TEST(HcclTransferReader, DbTransfersJoinTheirTaskTimesAndLinkNames) {
    const fs::path dir = replay_fixtures::dbProfileWith(
        "hccl_transfer_db",
        "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId INTEGER,"
        "groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,transportType INTEGER,"
        "size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);"
        "CREATE TABLE ENUM_HCCL_LINK_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
        "INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (0,'ON_CHIP'),(1,'HCCS');"
        "INSERT INTO STRING_IDS VALUES (40,'Memcpy'),(41,'Notify_Wait'),(42,'Reduce_Inline');"
        "INSERT INTO COMMUNICATION_TASK_INFO VALUES (0,20,40,0,0,0,0,0,0,0,2064384,0,0,1),"
        "(0,21,41,0,0,0,0,0,1,0,0,0,65535,1),(0,22,42,1,0,0,0,0,1,0,1000,0,1,1);"
        "INSERT INTO TASK VALUES (1010000,1013500,0,9,20,7,1,0,4,1,0),(1013500,1020000,0,9,21,7,1,0,4,2,0),"
        "(1020000,1030000,0,9,22,7,1,0,4,3,0);");
    const RealProfile profile = loadRealProfile(dir);
    ASSERT_EQ(profile.hcclTransfers.size(), 2u);  // the Notify_Wait moves nothing
    EXPECT_EQ(profile.hcclTransfers[0].startNs, 1010000);
    EXPECT_EQ(profile.hcclTransfers[0].endNs, 1013500);
    EXPECT_EQ(profile.hcclTransfers[0].link, "ON_CHIP");
    EXPECT_TRUE(profile.hcclTransfers[1].reduces);
    EXPECT_EQ(profile.hcclTransfers[1].link, "HCCS");
    ASSERT_FALSE(profile.kernels.empty());
    EXPECT_EQ(profile.kernels[0].startNs, 1000000);
}

HcclTransfer transfer(std::int64_t startNs, std::int64_t endNs, std::uint64_t bytes, bool reduces, const char* link) {
    return HcclTransfer{startNs, endNs, bytes, reduces, link};
}

RealKernel kernelAt(std::int64_t startNs, double durationUs) {
    RealKernel k = test::row("TensorMove", "1000,4096", "FLOAT", "FORMAT_ND", "1000,4096", "FLOAT", "FORMAT_ND");
    k.startNs = startNs;
    k.durationUs = durationUs;
    return k;
}

TEST(ConcurrentTraffic, WindowsFromTheKernelsStartWithTwoOrThreeHbmBytesPerByte) {
    const RealKernel kernel = kernelAt(10'000, 10.0);  // [10 µs, 20 µs)
    const std::vector<HcclTransfer> transfers = {
        transfer(12'000, 14'000, 2000, false, "ON_CHIP"),  // 2 HBM B per B: 2 B/ns
        transfer(8'000, 30'000, 22'000, true, "HCCS"),     // 3 HBM B per B: 3 B/ns, runs past the kernel
        transfer(20'000, 25'000, 5000, false, "ON_CHIP"),  // starts as the kernel ends: not beside it
        transfer(11'000, 11'000, 100, false, "ON_CHIP")};  // no duration
    const std::vector<ConcurrentHbmWindow> windows = concurrentHbmWindows(kernel, transfers);
    ASSERT_EQ(windows.size(), 2u);
    EXPECT_DOUBLE_EQ(windows[0].startPs, 2'000'000.0);
    EXPECT_DOUBLE_EQ(windows[0].endPs, 4'000'000.0);
    EXPECT_DOUBLE_EQ(windows[0].hbmBytesPerPs, 2.0 / 1000.0);
    EXPECT_DOUBLE_EQ(windows[1].startPs, -2'000'000.0);
    EXPECT_DOUBLE_EQ(windows[1].endPs, 20'000'000.0);
    EXPECT_DOUBLE_EQ(windows[1].hbmBytesPerPs, 3.0 / 1000.0);
    EXPECT_DOUBLE_EQ(transferOverlapShare(kernel, transfers), 1.0);
    EXPECT_DOUBLE_EQ(transferOverlapShare(kernel, {transfers[0]}), 0.2);
    EXPECT_TRUE(concurrentHbmWindows(kernelAt(-1, 10.0), transfers).empty());  // no start time
}

TEST(ConcurrentTraffic, ARowBesideATransferIsAGroupOfItsOwn) {
    RealProfile profile;
    profile.kernels = {kernelAt(10'000, 10.0), kernelAt(100'000, 10.0)};
    profile.hcclTransfers = {transfer(12'000, 14'000, 2000, false, "ON_CHIP")};
    EXPECT_EQ(distinctKernels(profile, L2State::Cold, 0).size(), 1u);
    const std::vector<ReplayedKernel> groups = distinctKernels(profile, L2State::Cold, 0, nullptr, false, false, true);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].concurrentHbm.size(), 1u);
    EXPECT_TRUE(groups[1].concurrentHbm.empty());
}

// The AlexNet 910B2 copy beside HCCL's 8.4 MB ON_CHIP Memcpy (§108b: 357 GB/s, 715 GB/s of HBM):
// with the window over the whole launch it runs slower than alone (its stream is HBM-bound); a
// window that ends before the launch starts, or one of rate 0, changes nothing.
TEST(ConcurrentTraffic, TheReplayedLaunchSharesHbmInsideItsWindowsOnly) {
    const ChipConfig chip = loadChipByName("Ascend910B2", defaultConfigDir());
    RealKernel copy = kernelAt(0, 46.9);
    copy.name = "aclnnInplaceCopy_TensorMoveAiCore_TensorMove";
    copy.acceleratorCore = "AI_VECTOR_CORE";
    copy.blockDim = 48;
    const OpInstance op = replayOp(copy);
    ReplayPlacement placement;
    placement.codeResident = true;
    const double alone = simulateReplayOp(op, chip, L2State::Cold, placement).durationUs;
    const auto with = [&](double startPs, double endPs, double bytesPerPs) {
        ReplayPlacement shared = placement;
        shared.concurrentHbm = {ConcurrentHbmWindow{startPs, endPs, bytesPerPs}};
        return simulateReplayOp(op, chip, L2State::Cold, shared).durationUs;
    };
    EXPECT_GT(with(-1e6, 1e9, 0.715), 1.3 * alone);
    EXPECT_DOUBLE_EQ(with(-1e9, -1e6, 0.715), alone);
    EXPECT_DOUBLE_EQ(with(-1e6, 1e9, 0.0), alone);
}

}  // namespace
}  // namespace ascendsim
