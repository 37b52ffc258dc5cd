// The workload's mstx: block (sim/workload/blocks/mstx_block.h): marks and ranges by op name, and bad
// entries naming file, line and field.
#include "sim/workload/blocks/mstx_block.h"

#include <gtest/gtest.h>

#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::writeTempYaml;

const std::string kBase =
    "name: t\n"                                                    // 1
    "tensors:\n"                                                   // 2
    "  - {name: a, shape: [64, 32], dtype: fp16, kind: input}\n"   // 3
    "  - {name: b, shape: [32, 16], dtype: fp16, kind: weight}\n"  // 4
    "ops:\n"                                                       // 5
    "  - {name: mm, type: MatMul, inputs: [a, b], outputs: [y]}\n" // 6
    "  - {name: act, type: Relu, inputs: [y], outputs: [z]}\n";    // 7

Workload load(const std::string& block) { return loadWorkload(writeTempYaml("mstx.yaml", kBase + block)); }

std::string errorOf(const std::string& block) { return testing::workloadErrorOf("mstx.yaml", kBase + block); }

TEST(MstxBlock, MarksAndRangesNameTheirOps) {
    const Workload w = load(
        "mstx:\n"
        "  - {range: forward, from: mm, to: act}\n"
        "  - {mark: done, after: act, domain: train}\n"
        "  - {mark: begin, before: mm}\n");
    ASSERT_EQ(w.mstxMarkers.size(), 3u);
    EXPECT_TRUE(w.mstxMarkers[0].range);
    EXPECT_EQ(w.mstxMarkers[0].message, "forward");
    EXPECT_EQ(w.mstxMarkers[0].firstOp, "mm");
    EXPECT_EQ(w.mstxMarkers[0].lastOp, "act");
    EXPECT_EQ(w.mstxMarkers[0].domain, "default");
    EXPECT_FALSE(w.mstxMarkers[1].range);
    EXPECT_FALSE(w.mstxMarkers[1].markBefore);
    EXPECT_EQ(w.mstxMarkers[1].domain, "train");
    EXPECT_TRUE(w.mstxMarkers[2].markBefore);
    EXPECT_TRUE(load("").mstxMarkers.empty());
}

TEST(MstxBlock, BadEntriesNameFileLineAndField) {
    EXPECT_NE(errorOf("mstx:\n  - {mark: x, after: nope}\n").find("mstx[0].after"), std::string::npos);
    EXPECT_NE(errorOf("mstx:\n  - {mark: x, after: nope}\n").find("no op named 'nope'"), std::string::npos);
    EXPECT_NE(errorOf("mstx:\n  - {mark: x, after: mm}\n  - {range: r, from: act, to: mm}\n").find(":10:"),
              std::string::npos);
    EXPECT_NE(errorOf("mstx:\n  - {range: r, from: act, to: mm}\n").find("ends before it starts"),
              std::string::npos);
    EXPECT_NE(errorOf("mstx:\n  - {mark: x, range: y, after: mm}\n").find("either"), std::string::npos);
    EXPECT_NE(errorOf("mstx:\n  - {mark: x, before: mm, after: act}\n").find("`before:` or `after:`"),
              std::string::npos);
    EXPECT_NE(errorOf("mstx:\n  - {range: r, to: mm}\n").find("`from:`"), std::string::npos);
    EXPECT_NE(errorOf("mstx:\n  - {mark: x, after: mm, stream: 1}\n").find("stream"), std::string::npos);
}

}  // namespace
}  // namespace ascendsim
