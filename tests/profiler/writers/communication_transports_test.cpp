// communication.json and communication_matrix.json for ops that cross servers: RDMA transfers
// count under "RDMA" (not SDMA) and their links read "RDMA"; send/receive ops go under "p2p"
// ([D] e5a31957 server test_data test_rank_0: hcom_send__822_0 in "p2p", links "0-8" RDMA).
#include <gtest/gtest.h>

#include "profiler/writers/communication/communication_json.h"
#include "profiler/writers/communication/communication_matrix.h"
#include "profiler/writers/communication/communication_statistics.h"
#include "profiler/writers/communication_test_support.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {
namespace {

using namespace testing_support;

ProfilerConfig level1() {
    ProfilerConfig c;
    c.level = ProfilerLevel::Level1;
    return c;
}

// Rank 0's send of 2 MB to rank 8 on the next server: a local copy, then an RDMA write.
CommunicationOpRecord sendOp(std::uint64_t startNs) {
    CommunicationOpRecord op;
    op.name = "hcom_send__822_0_1";
    op.opType = "hcom_send_";
    op.groupName = "13337953553061386822";
    op.algorithm = "MESH-RING";
    op.dataType = "FP32";
    op.count = 524288;
    op.rankSize = 16;
    op.startNs = startNs;
    op.endNs = startNs + 100000;
    using K = HcclTaskKind;
    using L = HcclLinkType;
    op.tasks = {hcclTask(K::Memcpy, 0, 0, 5000, 0, 2000000, L::OnChip),
                hcclTask(K::NotifyRecord, 1, 5000, 1000, 8, 0, L::None),
                hcclTask(K::NotifyWait, 1, 6000, 1000, 8, 0, L::None),
                hcclTask(K::Memcpy, 1, 7000, 80000, 8, 2000000, L::Rdma)};
    return op;
}

TEST(CommunicationTransports, RdmaTransfersCountAsRdmaAndSendsAreP2p) {
    const ChipConfig chip = splitChip();
    RunRecord run = runWithCollectives(chip);
    run.communicationOps.push_back(sendOp(6500000));
    const OrderedJson json = OrderedJson::parse(renderCommunicationJson(run, level1()));
    const OrderedJson& step = json["step13"];
    ASSERT_TRUE(step["p2p"].contains("hcom_send__822_0_1@13337953553061386822"));
    EXPECT_FALSE(step["collective"].contains("hcom_send__822_0_1@13337953553061386822"));
    EXPECT_TRUE(step["p2p"].contains("Total Op Info"));
    const OrderedJson& bandwidth =
        step["p2p"]["hcom_send__822_0_1@13337953553061386822"]["Communication Bandwidth Info"];
    EXPECT_DOUBLE_EQ(bandwidth["RDMA"]["Transit Size(MB)"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(bandwidth["RDMA"]["Transit Time(ms)"].get<double>(), 0.08);
    EXPECT_EQ(bandwidth["SDMA"]["Transit Size(MB)"].get<double>(), 0.0);
    EXPECT_EQ(bandwidth["HCCS"]["Transit Size(MB)"].get<double>(), 0.0);

    const OrderedJson matrix = OrderedJson::parse(renderCommunicationMatrixJson(run, level1()));
    const OrderedJson& p2p = matrix["step13"]["p2p"];
    ASSERT_FALSE(p2p.empty());
    bool rdmaLink = false;
    for (auto op = p2p.begin(); op != p2p.end(); ++op)
        if (op.value().contains("0-8")) {
            EXPECT_EQ(op.value()["0-8"]["Transport Type"], "RDMA");
            rdmaLink = true;
        }
    EXPECT_TRUE(rdmaLink);
    EXPECT_FALSE(matrix["step13"]["collective"].empty());
}

// A step of point-to-point ops only (a pipeline stage's sends and receives): torch_npu's
// communication parser totals a kind only when it has ops (_communication_parser.py
// compute_total_info returns on an empty dict), so "collective" is an empty object without
// "Total Op Info". msprof-analyze's compare and advisor fail on exactly this layout
// (npu_profiling_parser.py _update_bandwidth, docs/output-formats.md): the test pins that the
// failure comes from torch_npu's layout, and that a step with collectives has what they read.
TEST(CommunicationTransports, AStepOfP2pOpsOnlyHasAnEmptyCollectivePart) {
    const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.communicationOps.push_back(sendOp(6500000));
    const OrderedJson json = OrderedJson::parse(renderCommunicationJson(run, level1()));
    ASSERT_EQ(json.size(), 1u);
    const OrderedJson& step = json.begin().value();
    std::vector<std::string> kinds;
    for (auto kind = step.begin(); kind != step.end(); ++kind) kinds.push_back(kind.key());
    EXPECT_EQ(kinds, (std::vector<std::string>{"p2p", "collective"}));
    EXPECT_TRUE(step["collective"].is_object());
    EXPECT_TRUE(step["collective"].empty());
    EXPECT_TRUE(step["p2p"]["Total Op Info"].contains("Communication Bandwidth Info"));

    const OrderedJson mixed =
        OrderedJson::parse(renderCommunicationJson(runWithCollectives(chip), level1()));
    for (auto step2 = mixed.begin(); step2 != mixed.end(); ++step2)
        EXPECT_TRUE(step2.value()["collective"]["Total Op Info"].contains("Communication Bandwidth Info"))
            << step2.key();
}

TEST(CommunicationTransports, EveryLinkTypeHasTheMatrixName) {
    EXPECT_STREQ(communicationLinkTransportName(HcclLinkType::OnChip), "LOCAL");
    EXPECT_STREQ(communicationLinkTransportName(HcclLinkType::Hccs), "HCCS");
    EXPECT_STREQ(communicationLinkTransportName(HcclLinkType::Rdma), "RDMA");
    EXPECT_STREQ(communicationLinkTransportName(HcclLinkType::Pcie), "PCIE");
    EXPECT_STREQ(communicationLinkTransportName(HcclLinkType::Sio), "SIO");
}

}  // namespace
}  // namespace ascendsim
