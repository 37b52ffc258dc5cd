// communication.json and communication_matrix.json: the real e5a31957 Level1 sample's structure,
// and the time split / bandwidth rules of formats.md §3.10-3.11 on a hand-made collective.
#include <gtest/gtest.h>

#include <fstream>

#include "profiler/writers/communication/communication_json.h"
#include "profiler/writers/communication/communication_matrix.h"
#include "profiler/writers/communication_test_support.h"
#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {
namespace {

using namespace testing_support;

constexpr const char* kSampleDir =
    "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/";

ProfilerConfig level1() {
    ProfilerConfig c;
    c.level = ProfilerLevel::Level1;
    return c;
}

OrderedJson readSample(const std::string& name) {
    std::ifstream in(referenceRoot() / (std::string(kSampleDir) + name));
    if (!in) return {};
    return OrderedJson::parse(in);
}

std::vector<std::string> keysOf(const OrderedJson& j) {
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    return keys;
}

// The same keys in the same order at every level below `a` and `b` (leaf values not compared).
void expectSameShape(const OrderedJson& a, const OrderedJson& b, const std::string& where) {
    ASSERT_EQ(a.is_object(), b.is_object()) << where;
    if (!a.is_object()) return;
    ASSERT_EQ(keysOf(a), keysOf(b)) << where;
    for (auto it = a.begin(); it != a.end(); ++it) {
        if (it.key() == "Size Distribution") continue;  // keys are sizes
        expectSameShape(it.value(), b[it.key()], where + "/" + it.key());
    }
}

TEST(CommunicationJson, OpAndTotalInfoHaveTheSampleKeysInOrder) {
    const OrderedJson real = readSample("communication.json");
    if (real.is_null()) GTEST_SKIP() << "reference samples not available";
    const ChipConfig chip = splitChip();
    const OrderedJson ours =
        OrderedJson::parse(renderCommunicationJson(runWithCollectives(chip), level1()));
    ASSERT_EQ(keysOf(ours), std::vector<std::string>{"step13"});
    EXPECT_EQ(keysOf(ours["step13"]), keysOf(real["step50"]));
    const OrderedJson& realOps = real["step50"]["collective"];
    const OrderedJson& ourOps = ours["step13"]["collective"];
    expectSameShape(ourOps["hcom_allReduce__452_0_1@7126061118004686452"],
                    realOps["hcom_allReduce__586_0_1@17522688603477080586"], "op");
    expectSameShape(ourOps["Total Op Info"], realOps["Total Op Info"], "total");
    EXPECT_EQ(keysOf(ourOps).back(), "Total Op Info");
}

TEST(CommunicationJson, TimeSplitComesFromTheFirstPeerPlane) {
    const ChipConfig chip = splitChip();
    const OrderedJson ours =
        OrderedJson::parse(renderCommunicationJson(runWithCollectives(chip), level1()));
    const OrderedJson& time =
        ours["step13"]["collective"]["hcom_allReduce__452_0_1@7126061118004686452"]
            ["Communication Time Info"];
    EXPECT_DOUBLE_EQ(time["Elapse Time(ms)"].get<double>(), 1.3);
    EXPECT_DOUBLE_EQ(time["Transit Time(ms)"].get<double>(),
                     1.2);  // reduce + copy, not the local copy
    EXPECT_DOUBLE_EQ(time["Wait Time(ms)"].get<double>(), 0.0425);  // 2 + 40 + 0.5 µs
    EXPECT_DOUBLE_EQ(time["Synchronization Time(ms)"].get<double>(),
                     0.002);  // the wait before the reduce
    EXPECT_NEAR(time["Idle Time(ms)"].get<double>(), 1.3 - 1.2 - 0.0425, 1e-12);
    EXPECT_DOUBLE_EQ(time["Wait Time Ratio"].get<double>(), 0.0342);  // round(0.0425 / 1.2425, 4)
    const OrderedJson& hccs =
        ours["step13"]["collective"]["hcom_allReduce__452_0_1@7126061118004686452"]
            ["Communication Bandwidth Info"]["HCCS"];
    EXPECT_DOUBLE_EQ(hccs["Transit Size(MB)"].get<double>(), 8.388608);
    EXPECT_DOUBLE_EQ(hccs["Bandwidth(GB/s)"].get<double>(), 6.9905);  // 8.388608 MB / 1.2 ms
    EXPECT_EQ(hccs["Size Distribution"]["4.194304"][0].get<int>(), 2);
}

TEST(CommunicationJson, NotWrittenAtLevel0OrWithoutCollectives) {
    const ChipConfig chip = splitChip();
    ProfilerConfig level0 = level1();
    level0.level = ProfilerLevel::Level0;
    EXPECT_TRUE(renderCommunicationJson(runWithCollectives(chip), level0).empty());
    EXPECT_TRUE(renderCommunicationJson(threeKernelRun(chip), level1()).empty());
    EXPECT_TRUE(renderCommunicationMatrixJson(threeKernelRun(chip), level1()).empty());
}

TEST(CommunicationMatrix, LinkRecordsHaveTheSampleKeysAndTopIsTheFastestOp) {
    const ChipConfig chip = splitChip();
    const OrderedJson ours =
        OrderedJson::parse(renderCommunicationMatrixJson(runWithCollectives(chip), level1()));
    const OrderedJson& c = ours["step13"]["collective"];
    const std::string group = "@7126061118004686452";
    EXPECT_EQ(keysOf(c),
              (std::vector<std::string>{"allreduce-top1" + group, "allreduce-middle" + group,
                                        "allreduce-bottom1" + group, "allreduce-total" + group,
                                        "allreduce-bottom2" + group}));
    EXPECT_EQ(c["allreduce-top1" + group]["0-1"]["Op Name"], "hcom_allReduce__452_0_1");
    EXPECT_EQ(c["allreduce-bottom1" + group]["0-1"]["Op Name"], "hcom_allReduce__452_1_1");
    EXPECT_EQ(c["allreduce-top1" + group]["0-0"]["Transport Type"], "LOCAL");
    EXPECT_DOUBLE_EQ(c["allreduce-total" + group]["0-1"]["Transit Size(MB)"].get<double>(),
                     4 * 4.194304);

    const OrderedJson real = readSample("communication_matrix.json");
    if (real.is_null()) GTEST_SKIP() << "reference samples not available";
    const OrderedJson& realC = real["step50"]["collective"];
    const std::string realGroup = "@17522688603477080586";
    expectSameShape(c["allreduce-top1" + group]["0-1"], realC["allreduce-top1" + realGroup]["0-1"],
                    "top1");
    expectSameShape(c["allreduce-total" + group]["0-1"],
                    realC["allreduce-total" + realGroup]["0-1"], "total");
}

TEST(CommunicationMatrix, TypeIsTheLeftmostKnownNameInTheOpName) {
    EXPECT_EQ(communicationTypeOf("hcom_allReduce__586_0_1"), "allreduce");
    EXPECT_EQ(communicationTypeOf("hcom_reduceScatter__586_0_1"), "reduce");
    EXPECT_EQ(communicationTypeOf("hcom_allGather__1_0_1"), "allgather");
    EXPECT_EQ(communicationTypeOf("hcom_alltoallv__1_0_1"), "alltoall");
}

}  // namespace
}  // namespace ascendsim
